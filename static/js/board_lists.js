// The TV board: waiting lists by game and limit (called players highlighted, estimated waits) and the
// open tables. Read only; refreshed from /api/board on every live change, never reloaded. When the house
// lists several board languages, the board says everything in each in turn.
import { api, connect, el } from "./live.js";
import { _, languages, ngettext, onLanguage, setLanguage } from "./i18n.js";
import { waitText } from "./wait_text.js";

function listCard(lst) {
  const g = lst.game;
  const rows = lst.entries.map(e => el("li", { class: `board-entry${e.called ? " called" : ""}`, "data-place": e.place },
    el("span", { class: "place" }, e.place),
    el("span", { class: "name" }, e.name),
    e.called ? el("span", { class: "called-to" }, _("called · table {table}", { table: e.table }))
             : el("span", { class: "eta" }, waitText(e.estimated_wait_minutes, e.estimated_wait_range))));
  return el("article", { class: "board-list", "data-game": g.id },
    el("header", {},
      el("h2", {}, g.name),
      el("span", { class: "tables" }, lst.open_tables.length
        ? ngettext("table {tables}", "tables {tables}", lst.open_tables.length, { tables: lst.open_tables.join(", ") })
        : _("no table open"))),
    rows.length ? el("ol", { class: "board-entries" }, rows) : el("p", { class: "empty" }, _("No waiting list — ask the floor")),
    el("footer", {}, ngettext("{n} waiting", "{n} waiting", lst.entries.length)));
}

function tableTile(t) {
  const free = t.seat_count - t.occupied;
  return el("div", { class: `board-table ${free ? "has-free" : "full"}`, "data-table": t.number },
    el("span", { class: "num" }, t.number),
    el("span", { class: "tname" }, t.game),
    el("span", { class: "occ" }, free ? ngettext("{n} seat free", "{n} seats free", free) : _("full")));
}

export function render(listsRoot, tablesRoot, board) {
  listsRoot.replaceChildren(...board.lists.map(listCard));
  if (tablesRoot) tablesRoot.replaceChildren(...board.tables.map(tableTile));
}

// The board's languages in turn (house settings board_languages, board_language_seconds).
function rotate(seconds) {
  const langs = languages();
  if (langs.length < 2 || !seconds) return;
  let i = 0;
  setInterval(() => { i = (i + 1) % langs.length; setLanguage(langs[i]); }, seconds * 1000);
}

export function start({ listsRoot, tablesRoot, seconds }) {
  let board = JSON.parse(document.getElementById("board-data").textContent);
  render(listsRoot, tablesRoot, board);
  onLanguage(() => render(listsRoot, tablesRoot, board));
  rotate(seconds);
  let pending = null;
  const refresh = () => {
    clearTimeout(pending);
    pending = setTimeout(async () => {
      try { board = await api("GET", "/api/board"); render(listsRoot, tablesRoot, board); } catch (e) { /* keep the last view */ }
    }, 60);
  };
  const socket = connect();
  for (const ev of ["lists.changed", "tables.changed", "connect"]) socket.on(ev, refresh);
  setInterval(refresh, 60_000);   // estimated waits age even when nothing happens
  return socket;
}
