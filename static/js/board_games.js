// The TV board's live-game panels: roulette's last 20 numbers with hot and cold numbers, and the
// baccarat roads (bead plate, big road) of the current shoe. Refreshed when a round settles.
import { api, connect, el } from "./live.js";
import { ball } from "./cards.js";

const root = document.getElementById("board-games");
const LETTER = { player: "P", banker: "B", tie: "T" };

function roulettePanel(t) {
  return el("article", { class: "bg-panel roulette", "data-table": t.number },
    el("h2", {}, `${t.name} · table ${t.number}`),
    el("div", { class: "last-numbers" }, t.last.length ? t.last.map(n => ball(n.number)) : el("span", { class: "empty" }, "No spins yet")),
    el("div", { class: "hotcold" },
      el("div", {}, el("h3", {}, "Hot"), el("div", { class: "row hot" }, t.hot.filter(h => h.count).flatMap(h => [ball(h.number), el("span", { class: "count" }, `×${h.count}`)]))),
      el("div", {}, el("h3", {}, "Cold"), el("div", { class: "row cold" }, t.cold.flatMap(h => [ball(h.number), el("span", { class: "count" }, `×${h.count}`)])))),
    el("p", { class: "empty" }, `last ${t.spins} spins`));
}

function beadPlate(beads) {
  return el("div", { class: "road bead-plate" }, beads.map(b => el("span", { class: `cell bead ${b.winner}`, title: `coup ${b.coup}` }, LETTER[b.winner])));
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
    el("h2", {}, `${t.name} · table ${t.number}`, t.shoe ? el("span", { class: "empty" }, ` · shoe ${t.shoe.number}`) : null),
    el("div", { class: "road-counts" }, el("span", {}, `Player ${t.counts.player || 0}`), el("span", {}, `Banker ${t.counts.banker || 0}`),
      el("span", {}, `Tie ${t.counts.tie || 0}`)),
    el("h3", {}, "Bead plate"), beadPlate(t.beads),
    el("h3", {}, "Big road"), bigRoad(t.big_road));
}

async function refresh() {
  try {
    const games = await api("GET", "/api/board/games");
    root.replaceChildren(...games.map(t => (t.kind === "roulette" ? roulettePanel(t) : baccaratPanel(t))));
  } catch (e) { /* the board keeps what it shows */ }
}

refresh();
const socket = connect();
for (const ev of ["round.settled", "round.voided", "shoe.changed"]) socket.on(ev, refresh);
socket.on("connect", refresh);
