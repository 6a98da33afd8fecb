// The TV board: waiting lists by game and limit (called players highlighted, estimated waits) and the
// open tables. Read only; refreshed from /api/board on every live change, never reloaded.
import { api, connect, el } from "./live.js";

function wait(minutes) {
  if (minutes === null || minutes === undefined) return "—";
  if (minutes < 60) return `~${minutes} min`;
  const h = Math.floor(minutes / 60), m = minutes % 60;
  return `~${h} h${m ? ` ${String(m).padStart(2, "0")}` : ""}`;
}

function listCard(lst) {
  const g = lst.game;
  const rows = lst.entries.map(e => el("li", { class: `board-entry${e.called ? " called" : ""}`, "data-place": e.place },
    el("span", { class: "place" }, e.place),
    el("span", { class: "name" }, e.name),
    e.called ? el("span", { class: "called-to" }, `called · table ${e.table}`)
             : el("span", { class: "eta" }, wait(e.estimated_wait_minutes))));
  return el("article", { class: "board-list", "data-game": g.id },
    el("header", {},
      el("h2", {}, g.name),
      el("span", { class: "tables" }, lst.open_tables.length ? `table${lst.open_tables.length > 1 ? "s" : ""} ${lst.open_tables.join(", ")}` : "no table open")),
    rows.length ? el("ol", { class: "board-entries" }, rows) : el("p", { class: "empty" }, "No waiting list — ask the floor"),
    el("footer", {}, `${lst.entries.length} waiting`));
}

function tableTile(t) {
  const free = t.seat_count - t.occupied;
  return el("div", { class: `board-table ${free ? "has-free" : "full"}`, "data-table": t.number },
    el("span", { class: "num" }, t.number),
    el("span", { class: "tname" }, t.game),
    el("span", { class: "occ" }, free ? `${free} seat${free > 1 ? "s" : ""} free` : "full"));
}

export function render(listsRoot, tablesRoot, board) {
  listsRoot.replaceChildren(...board.lists.map(listCard));
  if (tablesRoot) tablesRoot.replaceChildren(...board.tables.map(tableTile));
}

export function start({ listsRoot, tablesRoot }) {
  render(listsRoot, tablesRoot, JSON.parse(document.getElementById("board-data").textContent));
  let pending = null;
  const refresh = () => {
    clearTimeout(pending);
    pending = setTimeout(async () => {
      try { render(listsRoot, tablesRoot, await api("GET", "/api/board")); } catch (e) { /* keep the last view */ }
    }, 60);
  };
  const socket = connect();
  for (const ev of ["lists.changed", "tables.changed", "connect"]) socket.on(ev, refresh);
  setInterval(refresh, 60_000);   // estimated waits age even when nothing happens
  return socket;
}
