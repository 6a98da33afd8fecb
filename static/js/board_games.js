// The TV board's live-game panels: roulette's last 20 numbers with hot and cold numbers, and the
// baccarat roads (bead plate, big road) of the current shoe. Refreshed when a round settles.
import { api, connect, el, newestOnly } from "./live.js";
import { ball } from "./cards.js";
import { _, ngettext, onLanguage } from "./i18n.js";
import { onTurn, paged } from "./board_pages.js";

const root = document.getElementById("board-games");
// Bead letters as each language's baccarat players read them.
const letter = w => ({ player: _("P"), banker: _("B"), tie: _("T") }[w]);

// A number and how often it came, kept together on one line.
const counted = h => el("span", { class: "counted" }, ball(h.number), el("span", { class: "count" }, `×${h.count}`));

function roulettePanel(t) {
  return el("article", { class: "bg-panel roulette", "data-table": t.number },
    el("h2", {}, _("{name} · table {table}", { name: t.name, table: t.number })),
    t.last.length ? el("h3", {}, ngettext("Last number", "Last {n} numbers", t.last.length)) : null,
    el("div", { class: "last-numbers" }, t.last.length ? t.last.map(n => ball(n.number)) : el("span", { class: "empty" }, _("No spins yet"))),
    el("div", { class: "hotcold" },
      el("div", {}, el("h3", {}, _("Hot")), el("div", { class: "row hot" }, t.hot.filter(h => h.count).map(counted))),
      el("div", {}, el("h3", {}, _("Cold")), el("div", { class: "row cold" }, t.cold.map(counted)))),
    // The hot and cold numbers count a longer run than the numbers shown: say which.
    el("p", { class: "empty" }, ngettext("Hot and cold over the last spin", "Hot and cold over the last {n} spins", t.spins)));
}

function beadPlate(beads) {
  return el("div", { class: "road bead-plate" }, beads.map(b => el("span", { class: `cell bead ${b.winner}`, title: _("coup {coup}", { coup: b.coup }) }, letter(b.winner))));
}

function bigRoad(columns) {
  const cells = [];
  columns.forEach((col, c) => col.forEach((cell, r) => {
    const row = Math.min(r, 5);
    const column = c + Math.max(0, r - 5) + 1;   // a dragon tail turns right at the bottom
    cells.push(el("span", { class: `cell big ${cell.winner || ""}`, style: `grid-row:${row + 1};grid-column:${column}` },
      cell.ties ? el("span", { class: "tie-mark" }) : null, cell.ties > 1 ? String(cell.ties) : ""));
  }));
  return el("div", { class: "road big-road" }, cells);
}

function baccaratPanel(t) {
  return el("article", { class: "bg-panel baccarat", "data-table": t.number },
    el("h2", {}, _("{name} · table {table}", { name: t.name, table: t.number }),
      t.shoe ? el("span", { class: "empty" }, " · " + _("shoe {n}", { n: t.shoe.number })) : null),
    el("div", { class: "road-counts" }, el("span", {}, _("Player {n}", { n: t.counts.player || 0 })),
      el("span", {}, _("Banker {n}", { n: t.counts.banker || 0 })), el("span", {}, _("Tie {n}", { n: t.counts.tie || 0 }))),
    el("div", { class: "roads" },
      el("div", {}, el("h3", {}, _("Bead plate")), beadPlate(t.beads)),
      el("div", {}, el("h3", {}, _("Big road")), bigRoad(t.big_road))));
}

let games = [];
function render() {
  paged(root, games.map(t => (t.kind === "roulette" ? roulettePanel(t) : baccaratPanel(t))));
  // A road longer than its panel shows its latest coups (the board never scrolls).
  for (const road of root.querySelectorAll(".road")) road.scrollLeft = road.scrollWidth;
}

const answered = newestOnly();
async function refresh() {
  try { await answered(api("GET", "/api/board/games"), g => { games = g; render(); }); } catch (e) { /* the board keeps what it shows */ }
}

refresh();
onLanguage(render);
onTurn(render);
window.addEventListener("resize", render);
const socket = connect();
for (const ev of ["round.settled", "round.voided", "shoe.changed"]) socket.on(ev, refresh);
socket.on("connect", refresh);
