// The pit boss's console: held rounds, rulings waiting for a second pit boss, the rounds of every
// table (each opens its timeline), today's figures, alerts and device health. Live, no reloads.
import { amount, api, connect, el, newestOnly, toast } from "./live.js";
import { _, clock, day, ngettext, term } from "./i18n.js";
import { ball } from "./cards.js";
import { alertArrived, renderAlerts } from "./tables.js";
import { startDevices } from "./devices.js";
import { startHeld } from "./pit_rounds.js";
import { pendingItem } from "./pit_rulings.js";
import { startHandEntry } from "./pit_hand.js";
import { paceChart, winLossChart } from "./charts.js";

const root = document.getElementById("pit-console");
const canRule = root.dataset.canRule === "yes";
const me = Number(root.dataset.me || 0);
const initial = JSON.parse(document.getElementById("initial-data").textContent);

const debounce = (fn, ms = 300) => { let t; return () => { clearTimeout(t); t = setTimeout(fn, ms); }; };
const time = iso => clock(iso, { seconds: true });

const socket = connect();

// alerts
let alerts = initial.alerts || [];
const alertsRoot = document.getElementById("alerts");
const drawAlerts = () => alerts.length ? renderAlerts(alertsRoot, alerts)
  : alertsRoot.replaceChildren(el("li", { class: "empty" }, _("No open alert.")));
drawAlerts();
socket.on("alert", a => alertArrived(a, (list, one) => { alerts = list || [one, ...alerts]; drawAlerts(); }));
socket.on("alert.acknowledged", ({ id }) => { alerts = alerts.filter(a => a.id !== id); drawAlerts(); });

// held rounds and devices
const reloadHeld = startHeld(document.getElementById("held-rounds"), socket);
startDevices(socket);
startHandEntry(socket, { canSwitch: root.dataset.canSwitch === "yes", canConfirm: root.dataset.canConfirm === "yes", me });

// rulings waiting for a second pit boss
const pendingRoot = document.getElementById("pending-rulings");
const pendingAnswered = newestOnly();
async function loadPending() {
  try {
    await pendingAnswered(api("GET", "/api/pit/rulings?pending=true"), list => pendingRoot.replaceChildren(...(list.length
      ? list.map(r => pendingItem(r, { canRule, me, done: () => { loadPending(); reloadHeld(); } }))
      : [el("li", { class: "empty" }, _("Nothing waits for a second pit boss."))])));
  } catch (e) { toast(e.message, "error"); }
}
loadPending();
socket.on("ruling.changed", loadPending);

// rounds of every table
const filter = document.getElementById("round-filter");
const tbody = document.querySelector("#recent-rounds tbody");
const roundsAnswered = newestOnly();   // the answer to the filter as it is now, not to one typed before
async function loadRounds() {
  const q = new URLSearchParams({ limit: "25" });
  for (const k of ["table_number", "status", "number"]) if (filter[k].value.trim()) q.set(k, filter[k].value.trim());
  try {
    await roundsAnswered(api("GET", `/api/pit/rounds?${q}`), rows => tbody.replaceChildren(...(rows.length ? rows.map(r => el("tr", { "data-round": r.id, class: `st-${r.status}` },
      el("td", {}, `${r.table_number} · `, el("span", { class: "muted" }, r.table_name || term(r.kind))),
      el("td", {}, `#${r.number}`, r.coup ? el("span", { class: "muted" }, " " + _("coup {n}", { n: r.coup })) : ""),
      el("td", {}, el("span", { class: `round-status ${r.status}` }, term(r.status)), r.rulings ? el("span", { class: "tag" }, ngettext("{n} ruling", "{n} rulings", r.rulings)) : ""),
      el("td", {}, r.kind === "roulette" && r.result !== "" ? ball(Number(r.result))
        : r.result || (r.held_reason ? el("span", { class: "reason" }, r.held_reason) : "")),
      el("td", { class: "num" }, String(r.bets)),
      el("td", { class: "num" }, amount(r.staked)),
      el("td", {}, time(r.ended_at)),
      el("td", {}, el("a", { class: "btn small", href: `/pit/rounds/${r.id}` }, _("Timeline")))))
      : [el("tr", {}, el("td", { colspan: 8, class: "empty" }, _("No round.")))])));
  } catch (e) { toast(e.message, "error"); }
}
filter.addEventListener("submit", e => { e.preventDefault(); loadRounds(); });
filter.table_number.addEventListener("change", loadRounds);
filter.status.addEventListener("change", loadRounds);
loadRounds();

// today's figures
const glance = document.querySelector("#shift-glance .glance-figures");
async function loadGlance() {
  try {
    const f = await api("GET", "/api/pit/shift");
    const t = f.totals;
    const item = (label, value, cls = "") => [el("dt", {}, label), el("dd", { class: cls }, value)];
    glance.replaceChildren(...[
      item(_("Gaming day"), day(f.day)),
      item(_("Rounds played"), String(t.played)), item(_("Voided"), String(t.voided)), item(_("Held"), String(t.held)),
      item(_("Handle"), amount(t.handle)), item(_("Payouts"), amount(t.payouts)),
      item(_("Win/loss"), amount(t.win_loss), t.win_loss < 0 ? "neg" : "pos"),
      item(_("Device faults"), String(t.device_faults), t.device_faults ? "neg" : ""),
    ].flat());
  } catch (e) { toast(e.message, "error"); }
}
loadGlance();

// top players today: the highest theoretical win first
const topBody = document.querySelector("#top-players tbody");
async function loadTop() {
  try {
    const d = await api("GET", "/api/pit/ratings?limit=8");
    topBody.replaceChildren(...(d.players.length ? d.players.map(p => el("tr", { "data-player": p.player_id },
      el("td", {}, el("a", { href: `/pit/players/${p.player_id}` }, p.player)),
      el("td", { class: "num" }, amount(p.staked)),
      el("td", { class: `num ${p.won < 0 ? "neg" : p.won > 0 ? "pos" : ""}` }, amount(p.won)),
      el("td", { class: "num" }, amount(p.theo))))
      : [el("tr", {}, el("td", { colspan: 4, class: "empty" }, _("No rated play yet today.")))]));
  } catch (e) { toast(e.message, "error"); }
}
loadTop();

// game pace: each open table's rounds an hour against the house target
const paceBody = document.querySelector("#live-pace tbody");
async function loadPace() {
  try {
    const rows = await api("GET", "/api/pit/pace");
    paceBody.replaceChildren(...(rows.length ? rows.map(r => el("tr", { "data-table": r.table, class: `pace-${r.status}` },
      el("td", {}, `${r.table} · `, el("span", { class: "muted" }, r.name || term(r.game))),
      el("td", { class: "num" }, r.status === "idle" ? term("idle") : String(r.rate),
        r.below_since ? el("span", { class: "tag warn" }, _("below since {time}", { time: clock(r.below_since) })) : ""),
      el("td", { class: "num" }, `${r.target_min}–${r.target_max}`)))
      : [el("tr", {}, el("td", { colspan: 3, class: "empty" }, _("No open table.")))]));
  } catch (e) { toast(e.message, "error"); }
}
loadPace();
setInterval(loadPace, 60_000);

// today in charts: pace per table through the day, the house's win/loss per table and hour
async function loadCharts() {
  try {
    const [pace, hourly] = await Promise.all([api("GET", "/api/pit/pace/day"), api("GET", "/api/pit/win-loss/hourly")]);
    paceChart(document.getElementById("pace-chart"), pace);
    winLossChart(document.getElementById("winloss-chart"), hourly);
  } catch (e) { toast(e.message, "error"); }
}
loadCharts();

const roundsChanged = debounce(() => { loadRounds(); loadGlance(); loadTop(); loadPace(); loadCharts(); }, 400);
for (const ev of ["round.changed", "round.settled", "round.voided", "round.held", "round.corrected", "ruling.changed"]) socket.on(ev, roundsChanged);
socket.on("connect", () => { loadRounds(); loadPending(); reloadHeld(); });
window.__pit = { loadRounds, loadPending, loadGlance, loadTop, loadPace, loadCharts, reloadHeld };
