// Device health panel: every device with its status, last frame age and errors; live.
import { api, el, newestOnly, toast } from "./live.js";
import { _, ngettext, term } from "./i18n.js";

function age(seconds) {
  if (seconds === null || seconds === undefined) return _("never");
  if (seconds < 60) return _("{s} s ago", { s: Math.round(seconds) });
  return _("{m} min ago", { m: Math.round(seconds / 60) });
}

export function startDevices(socket, root = document.getElementById("devices")) {
  if (!root) return;
  const item = d => el("li", { class: `dev ${d.status}`, "data-device": d.name },
    el("div", { class: "dev-head" }, el("strong", {}, _("Table {table} · {kind}", { table: d.table, kind: term(d.kind) })),
      el("span", { class: `badge ${d.status}` }, term(d.status))),
    el("div", { class: "muted" }, _("{name} · last frame {age}", { name: d.name, age: age(d.last_frame_age_s) }) + " · "
      + ngettext("{n} error", "{n} errors", d.errors ?? 0)
      + (d.reconnects ? " · " + ngettext("{n} reconnect", "{n} reconnects", d.reconnects) : "")),
    d.last_error ? el("div", { class: "dev-error" }, d.last_error) : null);
  const exporter = startExport(document.getElementById("device-export"));
  const render = list => {
    root.replaceChildren(...(list.length ? list.map(item) : [el("li", { class: "muted" }, _("No devices reporting"))]));
    exporter(list);
  };
  const answered = newestOnly();
  const refresh = async () => { try { await answered(api("GET", "/api/devices"), render); } catch (e) { toast(e.message, "error"); } };
  refresh();
  socket.on("device.health", refresh);
  setInterval(refresh, 5000);   // ages move on even when nothing changes
}

// A device's stored raw stream for a time range, as a capture file (pit boss, admin): the bytes as they
// arrived, which the bench's replay plays back and its check judges.
function localInput(date) {
  const pad = n => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

function startExport(box) {
  if (!box) return () => {};
  const form = box.querySelector("form");
  const select = form.elements.device;
  box.addEventListener("toggle", () => {
    if (!box.open || form.elements.from.value) return;
    const now = new Date();
    form.elements.to.value = localInput(now);
    form.elements.from.value = localInput(new Date(now.getTime() - 3600 * 1000));
  });
  form.addEventListener("submit", async ev => {
    ev.preventDefault();
    const name = select.value;
    const from = new Date(form.elements.from.value).toISOString();
    const to = new Date(form.elements.to.value).toISOString();
    const url = `/api/devices/${encodeURIComponent(name)}/capture?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
    try {
      const res = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/x-ndjson" } });
      if (!res.ok) {
        let message = res.statusText;
        try { message = (await res.json()).message || message; } catch (e) { /* not JSON */ }
        throw new Error(message);
      }
      const file = (res.headers.get("Content-Disposition") || "").match(/filename="([^"]+)"/);
      const link = el("a", { href: URL.createObjectURL(await res.blob()), download: file ? file[1] : `${name}.capture.jsonl` });
      document.body.append(link);
      link.click();
      link.remove();
      form.dataset.downloaded = String(Number(form.dataset.downloaded || 0) + 1);   // tests wait on it
    } catch (e) { toast(e.message, "error"); }
  });
  return list => {   // the devices to choose from, keeping the one chosen
    const chosen = select.value;
    const names = list.map(d => d.name);
    if (names.join("\n") === [...select.options].map(o => o.value).join("\n")) return;
    select.replaceChildren(...list.map(d => el("option", { value: d.name },
      _("Table {table} · {kind}", { table: d.table, kind: term(d.kind) }) + ` (${d.name})`)));
    if (names.includes(chosen)) select.value = chosen;
  };
}
