// The floor map: every table with its seats; re-rendered from /api/tables on each live change.
import { api, connect, el, newestOnly, toast } from "./live.js";
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

// A wheel alert is closed by a pit boss with a note of what he found.
const NOTE_REQUIRED = ["possible_bias", "direction_not_alternating", "speed_out_of_range"];

function alertItem(a) {
  const ack = async note => {
    try { await api("POST", `/api/alerts/${a.id}/acknowledge`, note === undefined ? {} : { note }); } catch (e) { toast(e.message, "error"); }
  };
  if (!NOTE_REQUIRED.includes(a.kind)) {
    return el("li", { class: `alert ${a.severity}`, "data-alert": a.id }, el("span", {}, a.message),
      el("button", { class: "btn small", onclick: () => ack() }, _("OK")));
  }
  const note = el("input", { name: "note", maxlength: 500, placeholder: _("What was found") });
  const form = el("form", { class: "ack-form", onsubmit: ev => { ev.preventDefault(); ack(note.value.trim()); } },
    note, el("button", { class: "btn small", type: "submit" }, _("Acknowledge")));
  return el("li", { class: `alert ${a.severity}`, "data-alert": a.id, "data-kind": a.kind },
    el("span", {}, a.message),
    a.data && a.data.table ? el("a", { class: "btn small", href: `/pit/wheels/${a.data.table}` }, _("Wheel")) : "",
    form);
}

export function renderAlerts(root, alerts) {
  root.replaceChildren(...alerts.map(alertItem));
}

// A live alert is one emit for every tablet, said in the house's language: the page asks for the open
// alerts again, said in its reader's language, and shows that. ``show(list, alert)``.
export async function alertArrived(a, show) {
  let list = null;
  try { list = await api("GET", "/api/alerts"); } catch (e) { /* a role that may not list them: as sent */ }
  const mine = list && list.find(x => x.id === a.id);
  show(list, mine || a);
  toast((mine || a).message, a.severity);
}

export function start({ tablesRoot, alertsRoot }) {
  const initial = JSON.parse(document.getElementById("initial-data").textContent);
  let alerts = initial.alerts || [];
  renderTables(tablesRoot, initial.tables);
  if (alertsRoot) renderAlerts(alertsRoot, alerts);
  const answered = newestOnly();
  const refresh = async () => {
    try { await answered(api("GET", "/api/tables"), rows => renderTables(tablesRoot, rows)); } catch (e) { toast(e.message, "error"); }
  };
  const socket = connect();
  socket.on("tables.changed", refresh);
  socket.on("connect", refresh);
  if (alertsRoot) {
    socket.on("alert", a => alertArrived(a, (list, one) => { alerts = list || [one, ...alerts]; renderAlerts(alertsRoot, alerts); }));
    socket.on("alert.acknowledged", ({ id }) => { alerts = alerts.filter(a => a.id !== id); renderAlerts(alertsRoot, alerts); });
  }
  return socket;
}
