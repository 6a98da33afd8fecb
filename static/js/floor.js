// The floor manager's tablet: tables and seats, waiting lists, calls with live countdowns, must-move
// queues, prompts and alerts. One read (/api/floor/state) re-rendered on every live change; every
// action is one tap (plus a sheet when it needs an amount or a reason).
import { api, connect, el, money, newestOnly, toast } from "./live.js";
import { _, clock, ngettext, pgettext, term } from "./i18n.js";
import { waitText } from "./wait_text.js";
import { cardNumberFromReader, playerLabel, playerPicker } from "./player_picker.js";
import { confirmAction } from "./confirm.js";
import { alertArrived } from "./tables.js";

let state = null;
let clockOffset = 0;                 // server time - browser time, for the countdowns
let root = null;
const $ = sel => root.querySelector(sel);

// ---------- helpers ----------
const serverNow = () => Date.now() + clockOffset;
const mmss = ms => { const s = Math.max(0, Math.round(ms / 1000)); return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`; };
const since = iso => Math.max(0, Math.floor((serverNow() - Date.parse(iso)) / 60000));
const short = name => { const p = (name || "").split(" "); return p.length > 1 ? `${p[0]} ${p[p.length - 1][0]}.` : name; };
const btn = (label, cls, onclick, attrs = {}) => el("button", { class: `btn ${cls || ""}`, type: "button", onclick, ...attrs }, label);
const gameName = id => (state.lists.find(l => l.game.id === id) || { game: { name: _("game {id}", { id }) } }).game.name;

async function act(method, url, body, okMessage) {
  try {
    const res = await api(method, url, body);
    if (okMessage) toast(okMessage, "info");
    await refresh();
    return res;
  } catch (e) {
    toast(e.message, e.status === 409 ? "warning" : "error");
    await refresh();
    // The sheet was built from what the tablet knew; after a refusal it shows the floor as it is now.
    if (rebuildSheet && document.getElementById("fl-sheet").open) rebuildSheet();
    throw e;
  }
}

// A tap that cannot be taken back runs only after "yes".
const confirmed = (title, text, label, run) => async () => { if (await confirmAction(title, text, label)) return run().catch(() => {}); };

const ARRIVAL = () => ({ must_move: _("must-move"), table_change: _("table change"), returning: _("returning"), walk_up: _("walk-up") });

// ---------- the sheet (modal) ----------
let rebuildSheet = null;      // how to build the open sheet again from fresh state (after a refusal)
function sheet(title, ...body) {
  rebuildSheet = null;
  const dlg = document.getElementById("fl-sheet");
  const box = dlg.querySelector(".fl-sheet-body");
  box.replaceChildren(el("header", {}, el("h2", {}, title), btn("✕", "ghost close", () => dlg.close(), { "aria-label": _("close") })),
    ...body.flat().filter(part => part !== null && part !== undefined && part !== false));   // a part left out is not "null"
  if (!dlg.open) dlg.showModal();
  return dlg;
}
const closeSheet = () => { const d = document.getElementById("fl-sheet"); if (d.open) d.close(); };

function askReason(title, placeholder, onOk, label = _("Confirm")) {
  const input = el("textarea", { rows: 2, placeholder, name: "reason" });
  sheet(title, input, el("div", { class: "sheet-actions" },
    btn(label, "primary big", async () => {
      if (!input.value.trim()) { input.focus(); return; }
      try { await onOk(input.value.trim()); closeSheet(); } catch (e) { /* toast shown */ }
    })));
  input.focus();
}

async function buyInSheet(title, tableNumber, playerId, onSeat, otherLists = []) {
  let limits = null;
  try { limits = await api("GET", `/api/seating/tables/${tableNumber}/buy-in?player_id=${playerId}`); } catch (e) { toast(e.message, "error"); return; }
  const input = el("input", { type: "number", inputmode: "decimal", step: "1", min: limits.minimum / 100, name: "buy_in",
    value: limits.minimum / 100, class: "amount" });
  const presets = [limits.minimum, ...(limits.maximum ? [Math.round((limits.minimum + limits.maximum) / 2), limits.maximum] : [limits.minimum * 2, limits.minimum * 5])];
  const cents = () => Math.round(parseFloat(input.value || "0") * 100);
  const go = drop => async () => { try { await onSeat(cents(), drop); closeSheet(); } catch (e) { /* toast shown */ } };
  sheet(title,
    el("p", { class: "hint" }, limits.maximum ? _("Buy-in {least} – {most}", { least: money(limits.minimum), most: money(limits.maximum) })
      : _("Buy-in {least} or more", { least: money(limits.minimum) })),
    limits.rathole_minimum ? el("p", { class: "warn-note" }, _("Anti-ratholing: {note}", { note: limits.note })) : null,
    el("div", { class: "presets" }, presets.map(p => btn(money(p), "", () => { input.value = p / 100; }))),
    el("label", {}, _("Buy-in"), input),
    otherLists.length ? el("p", { class: "hint" }, _("Also on: {lists}", { lists: otherLists.join(", ") })) : null,
    el("div", { class: "sheet-actions" },
      otherLists.length ? [btn(_("Seat · keep other lists"), "primary big", go(false), { "data-action": "seat-keep" }),
                           btn(_("Seat · drop other lists"), "big", go(true), { "data-action": "seat-drop" })]
                        : btn(pgettext("seat a player", "Seat"), "primary big", go(false), { "data-action": "seat-confirm" })));
  input.select();
}

// ---------- prompts: due moves, breaks, openings, pickups ----------
function renderPrompts() {
  const cards = [];
  for (const d of state.due) {
    cards.push(el("div", { class: "prompt due", "data-due": d.player_id },
      el("div", { class: "prompt-text" }, el("strong", {}, _("Must move:") + " "),
        _("{player} (table {table}, seat {seat}) → table {to}", { player: d.player_name, table: d.from_table, seat: d.from_seat, to: d.to_table })),
      btn(_("Move now"), "primary", () => act("POST", `/api/mustmove/tables/${d.from_table}/move`, { player_id: d.player_id },
        _("{player} moved to table {table}", { player: d.player_name, table: d.to_table })), { "data-action": "mm-move" }),
      btn(_("Refused"), "danger", () => askReason(_("{player} refuses to move", { player: d.player_name }), _("What did he say? (he stops for the gaming day)"),
        r => act("POST", `/api/mustmove/tables/${d.from_table}/refuse`, { player_id: d.player_id, reason: r }, _("{player} stops for today", { player: d.player_name })),
        _("Ban for today")), { "data-action": "mm-refuse" })));
  }
  for (const ch of state.mustmove) for (const b of ch.break) {
    cards.push(el("div", { class: "prompt break" }, el("div", { class: "prompt-text" },
      _("Table {table} ({players}) fits into table {into} ({into_players}/{into_seats}): break it",
        { table: b.table, players: b.players, into: b.into_table, into_players: b.into_players, into_seats: b.into_seats })),
      btn(_("Break table {table}", { table: b.table }), "primary", () => act("POST", `/api/floor/tables/${b.table}/break`, {}, _("Table {table} broken", { table: b.table })))));
  }
  for (const o of state.open_prompts) {
    const opening = { game: gameName(o.game_id), waiting: o.waiting, table: o.table };
    cards.push(el("div", { class: "prompt open" }, el("div", { class: "prompt-text" }, o.must_move
      ? _("{game}: tables full, {waiting} waiting: open table {table} as a must-move table", opening)
      : _("{game}: {waiting} waiting: open table {table}", opening)),
      btn(_("Open table {table}", { table: o.table }), "primary", () => act("POST", `/api/floor/tables/${o.table}/open`, { must_move: o.must_move }, _("Table {table} open", { table: o.table })))));
  }
  for (const p of state.pickups) {
    cards.push(el("div", { class: "prompt pickup" },
      el("div", { class: "prompt-text" }, _("Chip pickup: table {table} seat {seat}, {player} away {minutes} min, {waiting} waiting",
        { table: p.table, seat: p.seat, player: p.player.name, minutes: since(p.away_since), waiting: p.waiting })),
      btn(_("Pick up"), "primary", () => pickupSheet(p.table, p.seat, p.player.name))));
  }
  $("#fl-prompts").replaceChildren(...cards);
  $("#fl-prompts").classList.toggle("empty", cards.length === 0);
}

function pickupSheet(table, seat, name) {
  const input = el("input", { type: "number", inputmode: "decimal", name: "chips_out", placeholder: _("chips counted") });
  sheet(_("Pick up {player}'s chips (table {table}, seat {seat})", { player: name, table, seat }), el("label", {}, _("Chips counted"), input),
    el("div", { class: "sheet-actions" }, btn(_("Confirm pickup"), "primary big", async () => {
      const v = input.value ? Math.round(parseFloat(input.value) * 100) : null;
      try { await act("POST", `/api/seating/tables/${table}/seats/${seat}/pickup`, { chips_out: v }, _("Chips picked up")); closeSheet(); } catch (e) { /* shown */ }
    })));
}

// ---------- tables ----------
function proposalFor(tableNumber, seat) {
  return state.proposals.find(p => p.table === tableNumber && p.seat === seat);
}

function seatTile(t, s) {
  const attrs = { "data-seat": s.number };
  if (s.player) {
    const badges = [];
    if (s.mm_order) badges.push(el("span", { class: "badge mm" }, _("MM {n}", { n: s.mm_order })));
    if (s.due_to) badges.push(el("span", { class: "badge due" }, `→ ${s.due_to}`));
    if (s.away_since) badges.push(el("span", { class: "badge away", "data-away": s.away_since }, _("away {minutes}′", { minutes: since(s.away_since) })));
    return el("button", { ...attrs, type: "button", class: `fl-seat taken${s.due_to ? " due" : ""}${s.away_since ? " away" : ""}`,
      onclick: () => seatSheet(t, s) },
      el("span", { class: "seat-no" }, s.number), el("span", { class: "seat-name" }, short(s.player.name)), el("span", { class: "badges" }, badges));
  }
  if (s.call) {
    return el("div", { ...attrs, class: "fl-seat held" },
      el("span", { class: "seat-no" }, s.number),
      el("span", { class: "seat-name" }, short(s.call.player.name)),
      el("span", { class: "countdown", "data-expires": s.call.expires_at }, ""),
      s.call.on_my_way_at ? el("span", { class: "badge on-my-way", "data-on-my-way": s.call.entry_id }, _("on my way")) : null,
      el("span", { class: "seat-actions" },
        btn(pgettext("seat a player", "Seat"), "primary small", () => seatCalled(s.call), { "data-action": "seat-called" }),
        btn("✕", "small", confirmed(_("Cancel the call of {player}?", { player: s.call.player.name }),
          _("Seat {seat} at table {table} is offered to the next player.", { seat: s.number, table: t.number }), _("Cancel the call"),
          () => act("POST", `/api/waitlists/calls/${s.call.id}/cancel`, {}, _("Call cancelled"))), { "aria-label": _("cancel call"), "data-action": "cancel-call" })));
  }
  const p = t.status === "open" ? proposalFor(t.number, s.number) : null;
  if (p) {
    return el("div", { ...attrs, class: "fl-seat free proposed" },
      el("span", { class: "seat-no" }, s.number),
      el("span", { class: "seat-name" }, short(p.player_name), p.kind === "table_change" ? el("small", {}, " " + _("(change)")) : ""),
      p.kind === "list"
        ? btn(pgettext("call a player from the list", "Call"), "primary small", () => act("POST", `/api/waitlists/entries/${p.entry_id}/call`, { table_number: t.number, seat_number: s.number },
            _("{player} called to table {table}", { player: p.player_name, table: t.number })), { "data-action": "call" })
        : btn(_("Move"), "primary small", () => act("POST", `/api/seating/table-changes/${p.request_id}/honour`, { seat_number: s.number },
            _("{player} changed to table {table}", { player: p.player_name, table: t.number })), { "data-action": "honour" }));
  }
  // A free seat of a table fed by must-move is held for the must-move player only while one is due.
  const fed = state.mustmove.some(ch => ch.tables.slice(0, -1).some(x => x.table === t.number))
    && state.due.some(d => d.to_table === t.number);
  return el("div", { ...attrs, class: `fl-seat free${fed ? " fed" : ""}` }, el("span", { class: "seat-no" }, s.number),
    el("span", { class: "seat-name" }, t.status !== "open" ? "" : fed ? _("must-move") : _("free")));
}

function tableCard(t) {
  const mm = t.mustmove;
  const head = el("header", {},
    el("h2", {}, `${t.number} · ${t.name}`),
    mm ? el("span", { class: `badge role ${mm.role}` }, mm.role === "main" ? _("MAIN") : `${mm.role.toUpperCase()} → ${mm.feeds}`) : null,
    el("span", { class: `status ${t.status}` }, term(t.status)));
  const actions = [];
  if (t.tournament) {   // the table's one occupant is a tournament: no cash seats, no open or close here
    return el("article", { class: `fl-table tournament ${t.kind}`, "data-table": t.number, "data-use": t.use },
      head, el("p", { class: "game" }, _("Tournament: {name}", { name: t.tournament.name })),
      el("p", { class: "hint" }, _("{occupied}/{seats} players", { occupied: t.occupied, seats: t.seat_count })));
  }
  if (t.status === "closed") actions.push(btn(_("Open"), "small", () => openTable(t), { "data-action": "open-table" }));
  // a poker table closes empty; a live-game table closes with its players identified (their visits
  // end), and the server refuses it with the reason while a round runs
  else if (t.occupied === 0 || t.kind !== "poker") actions.push(btn(_("Close"), "small", confirmed(_("Close table {table}?", { table: t.number }),
    _("Calls to it are cancelled and it leaves the board."), _("Close the table"),
    () => act("POST", `/api/floor/tables/${t.number}/close`, {}, _("Table {table} closed", { table: t.number }))), { "data-action": "close-table" }));
  const body = t.kind === "poker"
    ? el("div", { class: `fl-seats n${t.seat_count}` }, t.seats.map(s => seatTile(t, s)))
    : el("p", { class: "hint" }, _("{occupied}/{seats} players", { occupied: t.occupied, seats: t.seat_count }));
  return el("article", { class: `fl-table ${t.status} ${t.kind}`, "data-table": t.number },
    head, el("p", { class: "game" }, `${t.game.name} — ${t.occupied}/${t.seat_count}`, el("span", { class: "t-actions" }, actions)), body);
}

function openTable(t) {
  const others = state.tables.filter(x => x.game.id === t.game.id && x.status === "open" && x.number !== t.number);
  if (t.kind !== "poker" || others.length === 0) return act("POST", `/api/floor/tables/${t.number}/open`, {}, _("Table {table} open", { table: t.number }));
  // a must-move table feeds a table no must-move table feeds yet (a chain's last table, or one alone)
  const fed = new Set(state.tables.filter(x => x.mustmove && x.mustmove.feeds).map(x => x.mustmove.feeds));
  const feedable = others.filter(o => !fed.has(o.number));
  const open = (body, done) => async () => {
    try { await act("POST", `/api/floor/tables/${t.number}/open`, body, done); closeSheet(); } catch (e) { /* shown */ }
  };
  const mm = feedable.length > 1
    ? feedable.map(o => btn(_("As a must-move table for table {table}", { table: o.number }), "primary big",
        open({ must_move: true, feeds_table: o.number }, _("Table {table} open (must-move)", { table: t.number })),
        { "data-action": "open-mm", "data-feeds": o.number }))
    : [btn(_("As a must-move table"), "primary big",
        open({ must_move: true }, _("Table {table} open (must-move)", { table: t.number })), { "data-action": "open-mm" })];
  sheet(_("Open table {table}", { table: t.number }),
    el("p", { class: "hint" }, _("{game} is already played at table {tables}.", { game: t.game.name, tables: others.map(o => o.number).join(", ") })),
    el("div", { class: "sheet-actions" }, ...mm,
      btn(_("As an independent table"), "big", open({ must_move: false }, _("Table {table} open", { table: t.number })),
        { "data-action": "open-independent" })));
}

function seatSheet(t, s) {
  const again = () => {
    const table = state.tables.find(x => x.number === t.number);
    const seat = table && table.seats.find(x => x.number === s.number);
    if (seat && seat.player && seat.player.id === s.player.id) seatSheet(table, seat); else closeSheet();
  };
  const base = `/api/seating/tables/${t.number}/seats/${s.number}`;
  const name = s.player.name;
  const free = t.seats.filter(x => !x.player && !x.call).map(x => x.number);
  const sameGame = state.tables.filter(x => x.game.id === t.game.id && x.status === "open" && x.number !== t.number);
  const chipsIn = el("input", { type: "number", inputmode: "decimal", name: "chips_out", placeholder: _("chips he takes (for anti-ratholing)") });
  const chips = () => chipsIn.value ? Math.round(parseFloat(chipsIn.value) * 100) : null;
  const due = state.due.find(d => d.player_id === s.player.id);
  sheet(_("Table {table}, seat {seat}: {player}", { table: t.number, seat: s.number, player: name }),
    el("p", { class: "hint" }, _("Sat {time}", { time: clock(s.sat_at) }) +
      `${s.arrival && s.arrival !== "new" ? ` · ${ARRIVAL()[s.arrival] || term(s.arrival)}` : ""}${s.mm_order ? " · " + _("must-move order {n}", { n: s.mm_order }) : ""}`),
    due ? el("div", { class: "sheet-actions" },
      btn(_("Move to table {table}", { table: due.to_table }), "primary big", async () => { try { await act("POST", `/api/mustmove/tables/${t.number}/move`, { player_id: s.player.id }, _("{player} moved", { player: name })); closeSheet(); } catch (e) { /* shown */ } })) : null,
    el("label", {}, _("Leaving with"), chipsIn),
    el("div", { class: "sheet-actions" },
      btn(_("Leaves"), "big", async () => { try { await act("POST", `${base}/leave`, { chips_out: chips(), reason: "left" }, _("{player} left", { player: name })); closeSheet(); } catch (e) { /* shown */ } }, { "data-action": "leave" }),
      s.away_since
        ? btn(_("Back at the table"), "big", async () => { try { await act("POST", `${base}/back`, {}); closeSheet(); } catch (e) { /* shown */ } })
        : btn(_("Away from table"), "big", async () => { try { await act("POST", `${base}/away`, {}); closeSheet(); } catch (e) { /* shown */ } })),
    free.length ? el("div", {}, el("h3", {}, _("Seat change")), el("div", { class: "presets" },
      free.map(n => btn(_("Seat {seat}", { seat: n }), "", async () => { try { await act("POST", `${base}/change`, { to_seat: n }, _("{player} to seat {seat}", { player: name, seat: n })); closeSheet(); } catch (e) { /* shown */ } })))) : null,
    sameGame.length ? el("div", {}, el("h3", {}, _("Table change request")), el("div", { class: "presets" },
      sameGame.map(x => btn(_("Table {table}", { table: x.number }), "", async () => { try { await act("POST", "/api/seating/table-changes", { player_id: s.player.id, to_table: x.number }, _("{player} asks for table {table}", { player: name, table: x.number })); closeSheet(); } catch (e) { /* shown */ } })))) : null,
    el("div", {}, el("h3", {}, _("All-in and lost")), el("div", { class: "presets" },
      btn(_("Busted"), "", async () => bustSheet(t, s)))));
  rebuildSheet = again;
}

function bustSheet(t, s) {
  const base = `/api/seating/tables/${t.number}/seats/${s.number}/bust`;
  const amount = el("input", { type: "number", inputmode: "decimal", name: "rebuy", placeholder: _("rebuy / new buy-in") });
  const cents = () => amount.value ? Math.round(parseFloat(amount.value) * 100) : null;
  const run = body => async () => {
    try {
      const r = await act("POST", base, body);
      const who = { player: s.player.name };
      toast({ rebought: _("Rebuy recorded"), may_rebuy: _("First bust recorded: one rebuy allowed"), left: _("{player} leaves the game", who),
              listed: _("{player} goes to the end of the list", who), sat_again: _("{player} sits again", who) }[r.outcome] || term(r.outcome));
      closeSheet();
    } catch (e) { /* shown */ }
  };
  sheet(_("{player} busted", { player: s.player.name }), el("p", { class: "hint" }, _("First bust: one rebuy, even under the minimum. Second bust: his game ends; to play on he goes to the end of the list (or sits again with a full buy-in when nobody waits).")),
    el("label", {}, _("Amount"), amount),
    el("div", { class: "sheet-actions" },
      btn(_("First bust · rebuy"), "primary big", () => run({ rebuy: cents() })()),
      btn(_("Second bust · leaves"), "big", run({})),
      btn(_("Second bust · plays on"), "big", () => run({ play_on: true, buy_in: cents() })())));
}

// ---------- lists ----------
function seatCalled(call) {
  const stillCalled = () => state.lists.some(l => l.entries.some(e => e.id === call.entry_id && e.status === "called"));
  const others = state.lists.filter(l => l.game.id !== call.game_id && l.entries.some(e => e.player.id === call.player.id)).map(l => l.game.name);
  buyInSheet(_("Seat {player} at table {table}, seat {seat}", { player: call.player.name, table: call.table, seat: call.seat }), call.table, call.player.id,
    (buy_in, drop) => act("POST", `/api/waitlists/entries/${call.entry_id}/seat`, { buy_in, drop_other_lists: drop }, _("{player} seated", { player: call.player.name })), others)
    .then(() => { rebuildSheet = () => { if (!stillCalled()) closeSheet(); }; });
}

function entryRow(lst, e) {
  const proposal = state.proposals.find(p => p.entry_id === e.id);
  const actions = [];
  if (e.status === "called") {
    actions.push(btn(pgettext("seat a player", "Seat"), "primary", () => seatCalled({ ...e.call, player: e.player }), { "data-action": "seat-called" }));
  } else if (proposal) {
    actions.push(btn(_("Call → {table}", { table: proposal.table }), "primary", () => act("POST", `/api/waitlists/entries/${e.id}/call`,
      { table_number: proposal.table, seat_number: proposal.seat }, _("{player} called to table {table}", { player: e.player.name, table: proposal.table })), { "data-action": "call" }));
  }
  if (e.place > 1) actions.push(btn("↑", "", () => askReason(_("Move {player} up", { player: e.player.name }), _("Why? (audited)"),
    r => act("POST", `/api/waitlists/entries/${e.id}/move`, { to_place: e.place - 1, reason: r })), { "aria-label": _("move up") }));
  actions.push(btn(_("QR"), "", () => passSheet(e), { "aria-label": _("QR: his pass"), "data-action": "pass" }));
  actions.push(btn("✕", "", confirmed(_("Take {player} off the list?", { player: e.player.name }),
    _("He loses his place ({place}) on {list}.", { place: e.place, list: lst.game.name }), _("Take off the list"),
    () => act("POST", `/api/waitlists/entries/${e.id}/remove`, { reason: "removed by floor" }, _("{player} off the list", { player: e.player.name }))),
    { "aria-label": _("remove"), "data-action": "remove" }));
  return el("li", { class: `fl-entry ${e.status}`, "data-entry": e.id, "data-player": e.player.id },
    el("span", { class: "place" }, e.place),
    el("span", { class: "who" }, el("span", { class: "name" }, e.player.name),
      el("small", {}, e.status === "called"
        ? el("span", {}, _("called · T{table} S{seat}", { table: e.call.table, seat: e.call.seat }) + " · ", el("b", { class: "countdown", "data-expires": e.call.expires_at }, ""),
            e.call.on_my_way_at ? [" · ", el("b", { class: "on-my-way", "data-on-my-way": e.id }, _("on my way"))] : null)
        : waitingLine(e))),
    el("span", { class: "entry-actions" }, actions));
}

// The estimate whole (never cut mid-word), then who added him and when, cut with an ellipsis when
// the row is narrow (the whole line in its title).
function waitingLine(e) {
  const added = _("added {minutes} min ago by {by}", { minutes: since(e.added_at), by: e.added_by }) + (e.note ? ` · ${e.note}` : "");
  const eta = e.estimated_wait_minutes != null ? waitText(e.estimated_wait_minutes, e.estimated_wait_range) : null;
  return el("span", { class: "waiting-line", title: eta ? `${eta} · ${added}` : added },
    eta ? el("span", { class: "eta" }, eta) : "", eta ? el("span", { class: "sep" }, "·") : "",
    el("span", { class: "added" }, added));
}

// A player's pass: the link to his own lists on his phone, as a QR code he scans (or a printed slip).
// Each tap makes a new one; the one he had before stops working.
async function passSheet(e) {
  let made;
  try { made = await act("POST", `/api/waitlists/players/${e.player.id}/pass`, {}); } catch (err) { return; }
  const qr = el("div", { class: "pass-qr" });
  qr.innerHTML = made.qr_svg;            // drawn by the server from the link alone
  const lists = state.lists.filter(l => l.entries.some(x => x.player.id === e.player.id)).map(l => l.game.name);
  sheet(_("Pass of {player}", { player: e.player.name }),
    el("p", { class: "hint" }, _("He scans it with his phone's camera: his place, his wait and his call, live, without a login. It works until the end of the gaming day or until he is seated; a new pass replaces this one.")),
    qr,
    el("p", { class: "pass-link", "data-link": made.link }, made.link),
    el("div", { class: "sheet-actions" },
      btn(_("Print the slip"), "big", () => printSlip(e.player.name, lists, made), { "data-action": "print-pass" }),
      btn(_("Withdraw his pass"), "danger big", confirmed(_("Withdraw the pass of {player}?", { player: e.player.name }),
        _("His phone's page stops working; he keeps his place on the lists."), _("Withdraw the pass"),
        () => act("POST", `/api/waitlists/players/${e.player.id}/pass/revoke`, {}, _("Pass withdrawn")).then(closeSheet)),
        { "data-action": "revoke-pass" })));
}

function printSlip(name, lists, made) {
  const slip = el("div", { class: "pass-slip" },
    el("h2", {}, _("Your place on the list")),
    el("p", {}, name), el("p", {}, lists.join(" · ")),
    el("div", { class: "pass-qr" }),
    el("p", {}, _("Scan with your phone's camera: your place, your wait and your call, live.")),
    el("p", { class: "pass-link" }, made.link));
  slip.querySelector(".pass-qr").innerHTML = made.qr_svg;
  document.body.append(slip);
  document.body.classList.add("printing-slip");
  const done = () => { slip.remove(); document.body.classList.remove("printing-slip"); window.removeEventListener("afterprint", done); };
  window.addEventListener("afterprint", done);
  window.print();
}

function addToList(lst, p) {
  return act("POST", `/api/waitlists/${lst.game.id}/entries`, { player_id: p.id }, _("{player} added to {list}", { player: p.name, list: lst.game.name }));
}

function addPlayerSheet(lst) {
  const listed = new Set(lst.entries.map(e => e.player.id));
  const picker = playerPicker({ isDisabled: p => listed.has(p.id),
    onPick: async p => { try { await addToList(lst, p); closeSheet(); } catch (e) { /* shown */ } } });
  sheet(_("Add to {list}", { list: lst.game.name }), el("p", { class: "hint" }, _("The player is here in person.")), picker.input, picker.results,
    el("div", { class: "sheet-actions" }, btn(_("New player"), "big", () => registerSheet(lst), { "data-action": "register" })));
  picker.input.focus();
}

// Registering at the podium: the card (typed, or read by the card reader), the name, a phone if he
// gives one. Players already registered under the same name or card are shown as the fields fill; a
// namesake needs a second tap (the server refuses it once as a likely duplicate).
function registerSheet(lst) {
  const card = el("input", { name: "card_number", autocomplete: "off", maxlength: 40, required: true, placeholder: _("type it or read the card") });
  const name = el("input", { name: "name", autocomplete: "off", maxlength: 120, required: true, autocapitalize: "words" });
  const phone = el("input", { name: "phone", type: "tel", autocomplete: "off", maxlength: 40, placeholder: _("optional") });
  const known = el("div", { class: "duplicates", "aria-live": "polite" });
  const warning = el("div", { class: "duplicate-warning", "aria-live": "assertive" });
  const goal = lst ? _("Register and add to {list}", { list: lst.game.name }) : _("Register");
  let timer = null;
  let asked = 0;
  const use = p => async () => {
    if (!lst) { toast(_("{player} is registered", { player: p.name })); closeSheet(); return; }
    try { await addToList(lst, p); closeSheet(); } catch (e) { /* shown */ }
  };
  async function lookAlikes() {
    const mine = ++asked;
    if (!name.value.trim() && !card.value.trim()) { known.replaceChildren(); return; }
    try {
      const found = await api("GET", `/api/players/likely-duplicates?name=${encodeURIComponent(name.value)}&card_number=${encodeURIComponent(card.value.trim())}`);
      if (mine !== asked) return;
      known.replaceChildren(...(found.length ? [el("p", { class: "warn-note" }, _("Already registered:")),
        el("div", { class: "sheet-actions" }, found.map(p => btn(lst ? _("{player}: add to the list", { player: playerLabel(p) }) : playerLabel(p),
          "big", use(p), { "data-player": p.id, "data-action": "use-registered" })))] : []));
    } catch (e) { /* the register button says what is wrong */ }
  }
  const later = () => { warning.replaceChildren(); clearTimeout(timer); timer = setTimeout(lookAlikes, 200); };
  card.addEventListener("input", later);
  name.addEventListener("input", later);
  card.addEventListener("keydown", e => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    card.value = cardNumberFromReader(card.value);
    later();
    name.focus();
  });
  async function register(sameNameConfirmed) {
    card.value = cardNumberFromReader(card.value);
    try {
      const p = await api("POST", "/api/players", { name: name.value, card_number: card.value, phone: phone.value || null,
        same_name_confirmed: sameNameConfirmed });
      if (lst) await addToList(lst, p);
      else toast(_("{player} is registered", { player: p.name }));
      closeSheet();
    } catch (e) {
      if (e.code === "likely_duplicate") {
        warning.replaceChildren(el("p", { class: "warn-note", role: "alert" }, e.message),
          btn(_("Another person: register anyway"), "big", () => register(true), { "data-action": "register-anyway" }));
        lookAlikes();
      } else {
        toast(e.message, e.status === 409 ? "warning" : "error");
        ({ name, card_number: card, phone })[e.data?.field]?.focus();
      }
    }
  }
  sheet(_("New player"),
    el("label", {}, _("Player card"), card),
    el("label", {}, _("Name"), name),
    el("label", {}, _("Phone"), phone),
    known, warning,
    el("div", { class: "sheet-actions" }, btn(goal, "primary big", () => register(false), { "data-action": "register-confirm" })));
  card.focus();
}

function renderLists() {
  $("#fl-lists").replaceChildren(...state.lists.map(lst => el("section", { class: "fl-list", "data-game": lst.game.id },
    el("header", {}, el("h2", {}, lst.game.name), el("span", { class: "count" }, ngettext("{n} waiting", "{n} waiting", lst.entries.length)),
      btn(_("+ Add player"), "primary small", () => addPlayerSheet(lst), { "data-action": "add-player" })),
    lst.entries.length ? el("ol", { class: "fl-entries" }, lst.entries.map(e => entryRow(lst, e)))
                       : el("p", { class: "hint" }, _("Nobody waiting.")))));
  const changes = state.table_changes;
  $("#fl-changes").replaceChildren(...(changes.length ? [el("h2", {}, _("Table changes")), el("ol", { class: "fl-entries" }, changes.map(r =>
    el("li", { class: "fl-entry" }, el("span", { class: "who" }, el("span", { class: "name" }, r.player.name), el("small", {}, _("table {from} → {to}", { from: r.from_table, to: r.to_table }))),
      el("span", { class: "entry-actions" }, btn("✕", "", confirmed(_("Cancel {player}'s table change?", { player: r.player.name }), null, _("Cancel the request"),
        () => act("POST", `/api/seating/table-changes/${r.id}/cancel`, {})), { "aria-label": _("cancel request"), "data-action": "cancel-change" })))))] : []));
}

function renderMustMove() {
  $("#fl-mustmove").replaceChildren(...state.mustmove.map(ch => el("section", { class: "fl-chain", "data-game": ch.game_id },
    el("h2", {}, _("Must-move · {game}", { game: gameName(ch.game_id) })),
    el("p", { class: "chain" }, ch.tables.map(t => `${t.role === "main" ? _("Main") : t.role.toUpperCase()} ${t.table}`).join(" ← ")),
    ch.tables.filter(t => t.role !== "main").map(t => el("div", { class: "mm-queue" }, el("h3", {}, _("Table {table} order", { table: t.table })),
      el("ol", {}, t.order.map(o => el("li", { class: o.due ? "due" : "" }, _("{player} · seat {seat}", { player: o.name, seat: o.seat }), o.due ? el("b", {}, " · " + _("moves now")) : ""))))))));
}

function renderAlerts() {
  if (!state.alerts.length) { $("#alerts").replaceChildren(el("li", { class: "empty hint" }, _("No alerts."))); return; }
  $("#alerts").replaceChildren(...state.alerts.map(a => el("li", { class: `alert ${a.severity}`, "data-alert": a.id },
    el("span", {}, a.message),
    btn(_("OK"), "small", () => act("POST", `/api/alerts/${a.id}/acknowledge`, {})))));
}

function render() {
  renderPrompts();
  $("#fl-tables").replaceChildren(...state.tables.map(tableCard));
  renderLists();
  renderMustMove();
  renderAlerts();
  tick();
}

function tick() {
  for (const node of root.querySelectorAll("[data-expires]")) {
    const left = Date.parse(node.dataset.expires) - serverNow();
    node.textContent = left > 0 ? mmss(left) : _("time up");
    node.classList.toggle("late", left < 60_000);
  }
}

let pending = null;
const answered = newestOnly();
async function refresh() {
  try {
    await answered(api("GET", "/api/floor/state"), s => {
      clockOffset = Date.parse(s.now) - Date.now();
      state = s;
      render();
    });
  } catch (e) { toast(e.message, "error"); }
}
function soon() { clearTimeout(pending); pending = setTimeout(refresh, 50); }

export function start(appRoot) {
  root = appRoot;
  const initial = JSON.parse(document.getElementById("initial-data").textContent);
  state = { tables: initial.tables.map(t => ({ ...t, seats: t.seats.map(s => ({ ...s })) })), lists: [], proposals: [], mustmove: [],
            due: [], open_prompts: [], pickups: [], table_changes: [], alerts: initial.alerts || [], now: new Date().toISOString() };
  render();
  refresh();
  root.querySelector("#fl-register").addEventListener("click", () => registerSheet(null));
  const socket = connect();
  for (const ev of ["tables.changed", "lists.changed", "mustmove.due", "alert.acknowledged", "bans.changed", "connect"]) socket.on(ev, soon);
  socket.on("alert", a => alertArrived(a, () => soon()));     // said in this reader's language
  setInterval(tick, 1000);
  setInterval(soon, 60_000);     // waits, away minutes and pickups age with time
  return socket;
}
