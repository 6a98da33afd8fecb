// The floor map: every table with its seats; re-rendered from /api/tables on each live change.
import { api, connect, el, toast } from "./live.js";
import { _, term } from "./i18n.js";

function tableCard(t) {
  const seats = t.seats.map(s => el("div", { class: `seat ${s.player ? "taken" : "free"}`, "data-seat": s.number },
    el("span", { class: "seat-no" }, s.number), s.player ? el("span", { class: "seat-name" }, s.player.name) : _("free")));
  return el("article", { class: `table-card ${t.status}`, "data-table": t.number },
    el("header", {}, el("h2", {}, `${t.number} · ${t.name}`), el("span", { class: `status ${t.status}` }, term(t.status))),
    el("p", { class: "game" }, `${t.game.name} — ${t.occupied}/${t.seat_count}`),
    el("div", { class: "seats" }, seats));
}

export function renderTables(root, tables) {
  root.replaceChildren(...tables.map(tableCard));
}

export function renderAlerts(root, alerts) {
  root.replaceChildren(...alerts.map(a => el("li", { class: `alert ${a.severity}`, "data-alert": a.id },
    el("span", {}, a.message),
    el("button", { class: "btn small", onclick: async () => {
      try { await api("POST", `/api/alerts/${a.id}/acknowledge`); } catch (e) { toast(e.message, "error"); }
    } }, _("OK")))));
}

export function start({ tablesRoot, alertsRoot }) {
  const initial = JSON.parse(document.getElementById("initial-data").textContent);
  let alerts = initial.alerts || [];
  renderTables(tablesRoot, initial.tables);
  if (alertsRoot) renderAlerts(alertsRoot, alerts);
  const refresh = async () => {
    try { renderTables(tablesRoot, await api("GET", "/api/tables")); } catch (e) { toast(e.message, "error"); }
  };
  const socket = connect();
  socket.on("tables.changed", refresh);
  socket.on("connect", refresh);
  if (alertsRoot) {
    socket.on("alert", a => { alerts = [a, ...alerts]; renderAlerts(alertsRoot, alerts); toast(a.message, a.severity); });
    socket.on("alert.acknowledged", ({ id }) => { alerts = alerts.filter(a => a.id !== id); renderAlerts(alertsRoot, alerts); });
  }
  return socket;
}
