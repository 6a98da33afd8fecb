// The poker dealer terminal: seats around the table, the button and blinds of the next hand, what each
// seat posts or owes, sit-out timers, tickets and warnings. Everything comes from
// /api/poker/tables/<n>; every change re-renders from the answer or from a live "poker.changed".
import { amount, api, connect, el, money, newestOnly, refill, toast } from "./live.js";
import { _, clock, say, term } from "./i18n.js";
import { confirmAction, sendConfirming } from "./confirm.js";

// Functions, not constants: the words follow the page's language.
const ROLE_BADGE = () => ({ button: _("D"), small: _("SB"), big: _("BB"), third: _("3rd") });
const KIND = () => ({ small_blind: _("SB"), big_blind: _("BB"), third_blind: _("3rd blind"), straddle: _("Straddle"),
  entry: _("Posts"), dead_small: _("dead SB"), dead_big: _("dead BB") });
const BLIND = () => ({ small: _("small blind"), big: _("big blind"), third: _("third blind") });
// The blind rules write their notes in English (floor/poker/blinds.py, marked N_); the page embeds them.
const note = text => (text ? _(text) : text);

let root, state, reasons, base;
const answered = newestOnly();   // an action's answer and the refreshes around it, shown newest only

function mmss(since) {
  const s = Math.max(0, Math.floor((Date.now() - Date.parse(since)) / 1000));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  return (h ? `${h}:${String(m).padStart(2, "0")}` : `${m}`) + `:${String(sec).padStart(2, "0")}`;
}

function postingsText(postings) {
  return postings.map(p => `${KIND()[p.kind] || term(p.kind)} ${amount(p.amount)}`).join(" + ");
}

function owesText(o) {
  if (!o || (!o.total && !o.wait_for_bb)) return "";
  const parts = [];
  if (o.live) parts.push(_("{amount} live", { amount: amount(o.live) }));
  if (o.dead_small + o.dead_big) parts.push(_("{amount} dead", { amount: amount(o.dead_small + o.dead_big) }));
  return (parts.join(" + ") || _("nothing")) + (o.wait_for_bb ? " · " + _("at the big blind") : "");
}

// --- seats around the oval -------------------------------------------------------------------------
function seatXY(i, n) {
  // Seat 1 on the dealer's left, clockwise; the dealer sits at the bottom centre.
  const a = (120 + (n === 1 ? 0 : (i - 1) * 300 / (n - 1))) * Math.PI / 180;
  return { x: 50 + 40 * Math.cos(a), y: 50 + 40 * Math.sin(a) };
}

function rolesIn(h, n) {
  if (!h) return [];
  const roles = [];
  if (h.button === n) roles.push("button");
  if (h.small === n && !h.dead_small) roles.push("small");
  if (h.big === n) roles.push("big");
  if (h.third === n) roles.push("third");
  if (h.straddle === n) roles.push("straddle");
  return roles;
}

// The seat as the terminal knows it now: a seat card kept through an unchanged redraw holds the seat
// of the answer that drew it.
const current = s => state.seats.find(x => x.number === s.number) || s;

function seatCard(s) {
  const n = state.table.seat_count;
  const { x, y } = seatXY(s.number, n);
  // While a hand is on, the seats show that hand; before the first one, the hand to come.
  const cur = state.last_hand;
  const preview = !cur;
  const roles = rolesIn(cur || state.next_hand, s.number);
  const badges = el("div", { class: `pk-badges ${preview ? "preview" : ""}` },
    roles.map(r => el("span", { class: `pk-badge ${r}`, title: term(r) }, ROLE_BADGE()[r] || _("STR"))));
  const style = `left:${x}%;top:${y}%`;
  if (!s.player) {
    const dead = cur && cur.button === s.number ? el("span", { class: "pk-dead" }, _("dead button")) : "";
    return el("button", { class: "pk-seat empty", style, "data-seat": s.number, onclick: () => openSeat(current(s)) },
      el("span", { class: "pk-no" }, s.number), badges, el("span", { class: "pk-free" }, _("free")), dead);
  }
  const inHand = cur && cur.seats.find(h => h.seat === s.number && h.player_id === s.player.id);
  const next = s.next || {};
  let status, cls = "";
  if (s.away) {
    cls = "away";
    status = el("span", { class: "pk-status" }, _("Away") + " ", el("span", { class: "pk-timer", "data-since": s.away_since }, mmss(s.away_since)));
  } else if (inHand && inHand.status === "dealt") {
    cls = "dealt";
    const posted = cur.postings.filter(p => p.seat === s.number);
    status = el("span", { class: "pk-status" }, posted.length ? postingsText(posted) : _("in the hand"));
  } else if (inHand && inHand.status === "waiting") {
    cls = "waiting";
    status = el("span", { class: "pk-status" }, note(inHand.note) || _("waits"));
  } else if (preview && next.status === "dealt") {
    cls = "dealt";
    status = el("span", { class: "pk-status" }, next.postings.length ? postingsText(next.postings) : _("in"));
  } else {
    cls = "waiting";
    status = el("span", { class: "pk-status" }, cur ? _("not in this hand") : (note(next.note) || _("waits")));
  }
  let extra = "";
  if (s.away) {
    const o = owesText(s.owes);
    if (o) extra = el("span", { class: "pk-owes" }, _("owes {what}", { what: o }));
  } else if (!preview && next.status === "waiting") {
    extra = el("span", { class: "pk-owes next" }, _("next: {what}", { what: note(next.note) || _("waits") }));
  } else if (!preview && next.status === "dealt" && (s.kind !== "in" || inHand?.status !== "dealt")) {
    const owing = next.postings.filter(p => !["small_blind", "big_blind", "third_blind"].includes(p.kind));
    extra = el("span", { class: "pk-owes next" }, _("next: {what}", { what: owing.length ? postingsText(owing) : _("plays") }));
  }
  const tickets = el("span", { class: "pk-tix", title: _("{n} missed-blind tickets", { n: s.tickets }) },
    Array.from({ length: state.rules.tickets_to_forfeit }, (_, i) => el("i", { class: i < s.tickets ? "on" : "" })));
  const warn = s.warnings ? el("span", { class: "pk-warn", title: _("warnings today") }, `⚠ ${s.warnings}/${state.rules.warnings_to_ban}`) : "";
  const tag = s.kind !== "in" && !s.away ? el("span", { class: "pk-kind" }, { new: _("new"), far: _("seat change"), must_move: _("must-move"), returning: _("back") }[s.kind] || term(s.kind)) : "";
  return el("button", { class: `pk-seat ${cls}`, style, "data-seat": s.number, onclick: () => openSeat(current(s)) },
    el("span", { class: "pk-no" }, s.number), badges,
    el("span", { class: "pk-name" }, s.player.name), tag, status, extra,
    el("span", { class: "pk-marks" }, tickets, warn));
}

// --- centre: New hand, straddle ---------------------------------------------------------------------
function center() {
  const last = state.last_hand;
  const next = state.next_hand;
  const items = [];
  const forfeits = (next && next.forfeits) || [];
  const loses = f => _("Seat {seat}: {player} gets missed-blind ticket {n} with this hand and loses the seat.",
    { seat: f.seat, player: f.player, n: f.tickets });
  items.push(el("button", { class: "btn primary pk-new", id: "pk-new-hand", disabled: !next,
    onclick: async () => {
      // The hand that costs a seat is dealt only after the dealer has seen who (he may be back already).
      if (forfeits.length && !(await confirmAction(_("Deal the hand that frees a seat?"), forfeits.map(loses).join(" "), _("Deal the hand")))) return;
      act("POST", "/hands", {}, "New hand");
    } }, _("New hand")));
  if (forfeits.length) items.push(el("p", { class: "warn-note pk-forfeit", role: "alert" }, forfeits.map(loses).join(" ")));
  const line = (h, dealtFirst) => {
    const bits = [`${_("D")} ${h.button}${h.dead_button ? " " + _("(dead)") : ""}`, h.dead_small ? _("no SB") : `${_("SB")} ${h.small}`, `${_("BB")} ${h.big}`];
    if (h.third) bits.push(`${_("3rd")} ${h.third}`);
    if (h.heads_up) bits.push(_("heads-up"));
    return bits.join(" · ");
  };
  if (last) items.unshift(el("p", { class: "pk-cur-line" }, _("Hand #{n}: {line}", { n: last.number, line: line(last) })));
  if (next) {
    items.push(el("p", { class: "pk-next-line" }, _("Next: {line}", { line: line(next) }) + (next.new_game ? " · " + _("new game") : "")));
  } else {
    items.push(el("p", { class: "pk-error" }, state.next_hand_error || _("No hand possible")));
  }
  if (last && !last.straddle) {
    const dealt = last.seats.filter(s => s.status === "dealt").map(s => s.seat);
    if (dealt.length >= 3) {
      const n = state.table.seat_count;
      const utg = [...dealt].sort((a, b) => ((a - last.big + n) % n) - ((b - last.big + n) % n))
        .find(x => x !== last.big);
      items.push(el("button", { class: "btn pk-straddle", id: "pk-straddle",
        onclick: () => act("POST", `/hands/${last.id}/straddle`, {}, "Straddle") },
        _("Seat {seat} straddles {amount}", { seat: utg, amount: money(state.rules.straddle) })));
    }
  } else if (last && last.straddle) {
    items.push(el("p", { class: "pk-muted" }, _("Seat {seat} straddled · acts last preflop", { seat: last.straddle })));
  }
  return items;
}

function nextList() {
  const next = state.next_hand;
  if (!next) return [el("li", { class: "pk-muted" }, state.next_hand_error || "—")];
  const name = seat => (state.seats.find(s => s.number === seat)?.player?.name) || "";
  const rows = next.postings.map(p => el("li", { "data-seat": p.seat },
    el("b", {}, _("Seat {seat}", { seat: p.seat })), ` ${name(p.seat)} · ${KIND()[p.kind] || term(p.kind)} `, el("b", {}, amount(p.amount)),
    p.live ? "" : el("span", { class: "pk-muted" }, " " + _("dead"))));
  for (const s of state.seats.filter(s => s.player && s.next && s.next.status === "waiting")) {
    rows.push(el("li", { class: "pk-muted", "data-seat": s.number }, `${_("Seat {seat}", { seat: s.number })} ${s.player.name} · ${note(s.next.note) || _("waits")}`));
  }
  for (const m of next.misses) {
    rows.push(el("li", { class: "pk-miss", "data-seat": m.seat },
      _("Seat {seat} {player} misses the {blind}", { seat: m.seat, player: name(m.seat), blind: BLIND()[m.blind] }) + (m.ticket ? " → " + _("ticket") : "")));
  }
  if (next.first_to_act) rows.push(el("li", { class: "pk-muted" }, _("First to act: seat {seat}", { seat: next.first_to_act })));
  return rows;
}

function ticketList() {
  const rows = state.tickets.filter(t => t.kind !== "void");
  if (!rows.length) return [el("li", { class: "pk-muted" }, _("None"))];
  return rows.slice(0, 12).map(t => el("li", { class: `pk-ticket ${t.voided ? "voided" : ""}`, "data-ticket": t.id },
    el("span", {}, el("b", {}, _("Seat {seat}", { seat: t.seat })), ` ${t.player} · ${t.blind ? BLIND()[t.blind] : _("by hand")}`,
      t.ticket ? "" : " " + _("(no ticket)"), el("small", {}, " " + clock(t.at))),
    t.voided ? el("span", { class: "pk-muted" }, _("voided")) :
      el("button", { class: "btn small", onclick: () => ask(_("Void ticket · seat {seat}", { seat: t.seat }),
        [_("He was at the table"), _("Wrong seat"), _("Blind was posted")],
        reason => act("POST", `/tickets/${t.id}/void`, { reason }, "Ticket voided")) }, _("Void"))));
}

function render() {
  const t = state.table;
  root.querySelector("#pk-hand").textContent = state.last_hand ? _("Hand #{n}", { n: state.last_hand.number }) : _("No hand yet");
  // The missed-blind rules by the room they come from, in words.
  const policy = { bern: _("Missed blinds: Bern rules"), online_network: _("Missed blinds: big blind and button rules"),
    swiss_online: _("Missed blinds: online room rules") };
  root.querySelector("#pk-rules").textContent = [policy[state.rules.policy] || term(state.rules.policy),
    state.rules.dead_button ? _("dead button") : _("moving button"),
    _("blinds {small}/{big}", { small: amount(t.small_blind), big: amount(t.big_blind) })].join(" · ");
  refill(root.querySelector("#pk-seats"), state.seats.map(seatCard));
  refill(root.querySelector("#pk-center"), center());
  refill(root.querySelector("#pk-next"), nextList());
  refill(root.querySelector("#pk-tickets"), ticketList());
  // An open seat sheet is rebuilt only when what it is about changed (the seat emptied or filled,
  // he went away or came back): rebuilding its buttons under the dealer's finger would lose a tap.
  const box = root.querySelector("#pk-sheet");
  const open = box.dataset.seat;
  if (open) {
    const s = state.seats.find(x => String(x.number) === open);
    if (!s) closeSheet();
    else if (box.dataset.key !== sheetKey(s)) openSeat(s);
  }
}

// --- actions ----------------------------------------------------------------------------------------
async function act(method, path, body, done) {
  try {
    await answered(api(method, base + path, body), s => { state = s; render(); });
    if (done) document.getElementById("pk").dataset.last = done;   // routine: no toast over the table
  } catch (e) {
    toast(e.message, e.status === 409 ? "warning" : "error");
    await refresh();      // what the terminal offers next is what the table is now
  }
}

async function refresh() {
  try { await answered(api("GET", base), s => { state = s; render(); }); } catch (e) { toast(e.message, "error"); }
}

function sheetKey(s) {
  return JSON.stringify([s.player ? s.player.id : null, Boolean(s.away), s.owes || null]);
}

function sheet(title, children, seat) {
  const box = root.querySelector("#pk-sheet");
  root.querySelector("#pk-sheet-title").textContent = title;
  root.querySelector("#pk-sheet-body").replaceChildren(...children);
  box.dataset.seat = seat || "";
  const s = seat ? state.seats.find(x => x.number === seat) : null;
  box.dataset.key = s ? sheetKey(s) : "";
  box.hidden = false;
}

function closeSheet() {
  const box = root.querySelector("#pk-sheet");
  box.hidden = true;
  box.dataset.seat = "";
}

function ask(title, presets, then, { textLabel = _("Other reason"), seat } = {}) {
  const input = el("input", { name: "reason", placeholder: textLabel, maxlength: 200 });
  const go = reason => { closeSheet(); then(reason); };
  sheet(title, [
    el("div", { class: "pk-actions" }, presets.map(p => el("button", { class: "btn big", onclick: () => go(p) }, p))),
    el("div", { class: "pk-other" }, input,
      el("button", { class: "btn primary", onclick: () => { if (input.value.trim()) go(input.value.trim()); else input.focus(); } }, _("OK"))),
  ]);
}

function openSeat(s) {
  const here = `/seats/${s.number}`;
  const buttonHere = el("button", { class: "btn big", onclick: () => {
    if (!state.last_hand) { closeSheet(); act("POST", "/button", { seat: s.number }, `Button on seat ${s.number}`); }
    else ask(_("Button to seat {seat}", { seat: s.number }), [_("Button was misplaced"), _("Start a new game")], reason => act("POST", "/button",
      { seat: s.number, reason, new_game: reason === _("Start a new game") }, `Button on seat ${s.number}`));
  } }, _("Put the button here"));
  if (!s.player) {
    sheet(_("Seat {seat} · free", { seat: s.number }), [el("div", { class: "pk-actions" }, buttonHere)], s.number);
    return;
  }
  const info = [];
  if (s.away) info.push(el("p", {}, _("Away for") + " ", el("b", { class: "pk-timer", "data-since": s.away_since }, mmss(s.away_since))));
  if (s.owes && s.owes.reason) info.push(el("p", { class: "pk-muted" }, note(s.owes.reason)));
  if (s.owes && (s.owes.total || s.owes.wait_for_bb)) info.push(el("p", {}, _("To play:") + " ", el("b", {}, owesText(s.owes))));
  info.push(el("p", { class: "pk-muted" }, _("Tickets {tickets}/{tickets_max} · warnings {warnings}/{warnings_max}", { tickets: s.tickets,
    tickets_max: state.rules.tickets_to_forfeit, warnings: s.warnings, warnings_max: state.rules.warnings_to_ban })));
  const actions = [];
  const then = done => () => { closeSheet(); act("POST", done[0], done[1], done[2]); };
  if (s.away) {
    actions.push(el("button", { class: "btn big primary", "data-action": "back", onclick: then([here + "/back", {}, `Seat ${s.number} is back`]) }, _("Back")));
    if (s.owes && s.owes.total && !s.owes.wait_for_bb) {
      actions.push(el("button", { class: "btn big", "data-action": "back-wait", onclick: then([here + "/back", { wait_for_bb: true }, `Seat ${s.number} back, waits for the big blind`]) }, _("Back · waits for BB")));
    }
  } else {
    actions.push(el("button", { class: "btn big", "data-action": "away", onclick: then([here + "/away", {}, `Seat ${s.number} is away`]) }, _("Away")));
    if (s.kind !== "in" && s.owes && s.owes.total && !s.owes.wait_for_bb) {
      actions.push(s.wait_for_bb
        ? el("button", { class: "btn big", "data-action": "post-now", onclick: then([here + "/entry", { wait_for_bb: false }, "Posts now"]) }, _("Posts now ({what})", { what: owesText(s.owes) }))
        : el("button", { class: "btn big", "data-action": "wait-bb", onclick: then([here + "/entry", { wait_for_bb: true }, "Waits for the big blind"]) }, _("Waits for BB")));
    }
  }
  actions.push(buttonHere);
  actions.push(el("button", { class: "btn big", "data-action": "ticket", onclick: () => ask(_("Ticket · seat {seat}", { seat: s.number }),
    [_("Missed blind not recorded")], reason => act("POST", here + "/tickets", { reason }, "Ticket recorded")) }, _("Hand a ticket")));
  actions.push(el("button", { class: "btn big danger", "data-action": "warning", onclick: () => warn(s) }, _("Warning")));
  sheet(_("Seat {seat} · {player}", { seat: s.number, player: s.player.name }), [...info, el("div", { class: "pk-actions" }, actions)], s.number);
}

function warn(s) {
  const note = el("input", { name: "note", placeholder: _("What happened (required for other)"), maxlength: 300 });
  const give = async reason => {
    if (reason === "other" && !note.value.trim()) { note.focus(); return; }
    closeSheet();
    try {
      const r = await sendConfirming(ban_confirmed => api("POST", `${base}/seats/${s.number}/warnings`, { reason, note: note.value.trim(), ban_confirmed }),
        "ban_needs_confirmation", _("Warn and ban {player}?", { player: s.player.name }), _("Warn and ban"));
      if (!r) return;
      toast(r.banned ? _("{player}: {n} warnings — must leave the poker area", { player: s.player.name, n: r.count })
        : _("Warning {n}/{max} for {player}", { n: r.count, max: state.rules.warnings_to_ban, player: s.player.name }),
        r.banned ? "error" : "warning");
      await refresh();
    } catch (e) { toast(e.message, "error"); }
  };
  sheet(_("Warning · seat {seat} · {player}", { seat: s.number, player: s.player.name }), [
    el("p", { class: "pk-muted" }, _("{n} so far today; at {max} he must leave the poker area.", { n: s.warnings, max: state.rules.warnings_to_ban })),
    el("div", { class: "pk-actions" }, reasons.map(r => el("button", { class: `btn big ${r.code === "other" ? "" : ""}`,
      "data-reason": r.code, onclick: () => give(r.code) }, term(r.code)))),
    el("div", { class: "pk-other" }, note),
  ], s.number);
}

export function start(node) {
  root = node;
  const initial = JSON.parse(document.getElementById("initial-data").textContent);
  state = initial.state;
  reasons = initial.reasons;
  base = `/api/poker/tables/${root.dataset.table}`;
  render();
  root.querySelector("#pk-sheet-close").addEventListener("click", closeSheet);
  root.querySelector("#pk-sheet").addEventListener("click", e => { if (e.target.id === "pk-sheet") closeSheet(); });
  setInterval(() => root.querySelectorAll(".pk-timer").forEach(t => { t.textContent = mmss(t.dataset.since); }), 1000);
  const socket = connect(s => s.emit("join_table", { table_id: Number(root.dataset.tableId) }));
  const mine = p => !p || p.table_id === undefined || p.table_id === Number(root.dataset.tableId);
  socket.on("poker.changed", p => { if (mine(p)) refresh(); });
  socket.on("tables.changed", p => { if (mine(p)) refresh(); });
  socket.on("conduct.changed", refresh);
  // one emit for every tablet, in the house's language: the terminal says it in its own
  socket.on("alert", a => { if (a.table_id === Number(root.dataset.tableId)) toast(say((a.data || {}).msg, a.message), a.severity); });
  socket.on("connect", refresh);
  return socket;
}
