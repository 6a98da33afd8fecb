// Device health panel: every device with its status, last frame age and errors; live.
import { api, el, toast } from "./live.js";

function age(seconds) {
  if (seconds === null || seconds === undefined) return "never";
  if (seconds < 60) return `${Math.round(seconds)} s ago`;
  return `${Math.round(seconds / 60)} min ago`;
}

export function startDevices(socket, root = document.querySelector("#devices tbody")) {
  if (!root) return;
  const render = list => root.replaceChildren(...(list.length ? list.map(d => el("tr", { class: `dev ${d.status}`, "data-device": d.name },
    el("td", {}, `${d.kind} ${d.name}`), el("td", {}, d.table),
    el("td", {}, el("span", { class: `badge ${d.status}` }, d.status)),
    el("td", {}, age(d.last_frame_age_s)), el("td", {}, d.errors ?? 0),
    el("td", { class: "muted" }, d.last_error || ""))) : [el("tr", {}, el("td", { colspan: 6, class: "muted" }, "No devices reporting"))]));
  const refresh = async () => { try { render(await api("GET", "/api/devices")); } catch (e) { toast(e.message, "error"); } };
  refresh();
  socket.on("device.health", refresh);
  setInterval(refresh, 5000);   // ages move on even when nothing changes
}
