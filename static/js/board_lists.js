// The TV board: waiting lists by game and limit (called players highlighted, estimated waits) and the
// open tables. Read only; refreshed from /api/board on every live change, never reloaded. When the house
// lists several board languages, the board says everything in each in turn.
import { api, connect, el, newestOnly } from "./live.js";
import { _, languages, ngettext, onLanguage, setLanguage } from "./i18n.js";
import { onTurn, paged, startPages } from "./board_pages.js";
import { waitText } from "./wait_text.js";

function entryRow(e) {
  return el("li", { class: `board-entry${e.called ? " called" : ""}`, "data-place": e.place },
    el("span", { class: "place" }, e.place),
    el("span", { class: "name", title: e.name }, e.name),
    e.called ? el("span", { class: "called-to" }, _("called · table {table}", { table: e.table }))
             : el("span", { class: "eta" }, waitText(e.estimated_wait_minutes, e.estimated_wait_range)));
}

function listCard(lst) {
  const g = lst.game;
  return el("article", { class: "board-list", "data-game": g.id },
    el("header", {},
      el("h2", {}, g.name),
      el("span", { class: "tables" }, lst.open_tables.length
        ? ngettext("table {tables}", "tables {tables}", lst.open_tables.length, { tables: lst.open_tables.join(", ") })
        : _("no table open"))),
    lst.entries.length ? el("ol", { class: "board-entries" }) : el("p", { class: "empty" }, _("No waiting list — ask the floor")),
    el("footer", {}, ngettext("{n} waiting", "{n} waiting", lst.entries.length)));
}

function tableTile(t) {
  const free = t.free;   // seats held for a call or for must-move players are not free
  return el("div", { class: `board-table ${free ? "has-free" : "full"}`, "data-table": t.number },
    el("span", { class: "num" }, t.number),
    el("span", { class: "tname", title: t.game }, t.game),
    el("span", { class: "occ" }, free ? ngettext("{n} seat free", "{n} seats free", free) : _("full")));
}

const pageNote = ({ page, pages }) => (pages > 1 ? " · " + _("page {page}/{pages}", { page, pages }) : "");

// Lists side by side (as many as the width holds, the rest in turn), each list's entries in pages of
// what its column holds; the open tables in pages of what their panel holds.
export function render(listsRoot, tablesRoot, board) {
  const byGame = new Map(board.lists.map(l => [String(l.game.id), l]));
  paged(listsRoot, board.lists.map(listCard), "x");
  for (const card of listsRoot.querySelectorAll(".board-list")) {
    const lst = byGame.get(card.dataset.game);
    const ol = card.querySelector(".board-entries");
    if (!ol) continue;
    const at = paged(ol, lst.entries.map(entryRow));
    card.querySelector("footer").textContent = ngettext("{n} waiting", "{n} waiting", lst.entries.length) + pageNote(at);
  }
  if (tablesRoot) {
    const at = paged(tablesRoot, board.tables.map(tableTile));
    const note = document.getElementById("board-tables-page");
    if (note) note.textContent = pageNote(at);
  }
}

// The board's languages in turn (house settings board_languages, board_language_seconds).
function rotate(seconds) {
  const langs = languages();
  if (langs.length < 2 || !seconds) return;
  let i = 0;
  setInterval(() => { i = (i + 1) % langs.length; setLanguage(langs[i]); }, seconds * 1000);
}

export function start({ listsRoot, tablesRoot, seconds, pageSeconds }) {
  let board = JSON.parse(document.getElementById("board-data").textContent);
  render(listsRoot, tablesRoot, board);
  onLanguage(() => render(listsRoot, tablesRoot, board));
  onTurn(() => render(listsRoot, tablesRoot, board));
  window.addEventListener("resize", () => render(listsRoot, tablesRoot, board));
  startPages(pageSeconds);
  rotate(seconds);
  const answered = newestOnly();
  let pending = null;
  const refresh = () => {
    clearTimeout(pending);
    pending = setTimeout(async () => {
      try { await answered(api("GET", "/api/board"), b => { board = b; render(listsRoot, tablesRoot, board); }); } catch (e) { /* keep the last view */ }
    }, 60);
  };
  const socket = connect();
  for (const ev of ["lists.changed", "tables.changed", "connect"]) socket.on(ev, refresh);
  setInterval(refresh, 60_000);   // estimated waits age even when nothing happens
  return socket;
}
