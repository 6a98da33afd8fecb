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
  const render = list => root.replaceChildren(...(list.length ? list.map(item)
    : [el("li", { class: "muted" }, _("No devices reporting"))]));
  const answered = newestOnly();
  const refresh = async () => { try { await answered(api("GET", "/api/devices"), render); } catch (e) { toast(e.message, "error"); } };
  refresh();
  socket.on("device.health", refresh);
  setInterval(refresh, 5000);   // ages move on even when nothing changes
}
