// Device health panel: every device with its status, last frame age and errors; live.
import { api, el, toast } from "./live.js";

function age(seconds) {
  if (seconds === null || seconds === undefined) return "never";
  if (seconds < 60) return `${Math.round(seconds)} s ago`;
  return `${Math.round(seconds / 60)} min ago`;
}

export function startDevices(socket, root = document.getElementById("devices")) {
  if (!root) return;
  const item = d => el("li", { class: `dev ${d.status}`, "data-device": d.name },
    el("div", { class: "dev-head" }, el("strong", {}, `Table ${d.table} · ${d.kind}`),
      el("span", { class: `badge ${d.status}` }, d.status)),
    el("div", { class: "muted" }, `${d.name} · last frame ${age(d.last_frame_age_s)} · ${d.errors ?? 0} errors`
      + (d.reconnects ? ` · ${d.reconnects} reconnects` : "")),
    d.last_error ? el("div", { class: "dev-error" }, d.last_error) : null);
  const render = list => root.replaceChildren(...(list.length ? list.map(item)
    : [el("li", { class: "muted" }, "No devices reporting")]));
  const refresh = async () => { try { render(await api("GET", "/api/devices")); } catch (e) { toast(e.message, "error"); } };
  refresh();
  socket.on("device.health", refresh);
  setInterval(refresh, 5000);   // ages move on even when nothing changes
}
