// The poker dealer terminal: seats around the table, the button and blinds of the next hand, what each
// seat posts or owes, sit-out timers, tickets and warnings. Everything comes from
// /api/poker/tables/<n>; every change re-renders from the answer or from a live "poker.changed".
import { api, connect, el, money, toast } from "./live.js";

const ROLE_BADGE = { button: "D", small: "SB", big: "BB", third: "3rd" };
const KIND = { small_blind: "SB", big_blind: "BB", third_blind: "3rd blind", straddle: "Straddle",
  entry: "Posts", dead_small: "dead SB", dead_big: "dead BB" };
const BLIND = { small: "small blind", big: "big blind", third: "third blind" };

let root, state, reasons, base;

function mmss(since) {
  const s = Math.max(0, Math.floor((Date.now() - Date.parse(since)) / 1000));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  return (h ? `${h}:${String(m).padStart(2, "0")}` : `${m}`) + `:${String(sec).padStart(2, "0")}`;
}

function postingsText(postings) {
  return postings.map(p => `${KIND[p.kind] || p.kind} ${money(p.amount)}`).join(" + ");
}

function owesText(o) {
  if (!o || (!o.total && !o.wait_for_bb)) return "";
  const parts = [];
  if (o.live) parts.push(`${money(o.live)} live`);
  if (o.dead_small + o.dead_big) parts.push(`${money(o.dead_small + o.dead_big)} dead`);
  return (parts.join(" + ") || "nothing") + (o.wait_for_bb ? " · at the big blind" : "");
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

function seatCard(s) {
  const n = state.table.seat_count;
  const { x, y } = seatXY(s.number, n);
  // While a hand is on, the seats show that hand; before the first one, the hand to come.
  const cur = state.last_hand;
  const preview = !cur;
  const roles = rolesIn(cur || state.next_hand, s.number);
  const badges = el("div", { class: `pk-badges ${preview ? "preview" : ""}` },
    roles.map(r => el("span", { class: `pk-badge ${r}`, title: r }, ROLE_BADGE[r] || "STR")));
  const style = `left:${x}%;top:${y}%`;
  if (!s.player) {
    const dead = cur && cur.button === s.number ? el("span", { class: "pk-dead" }, "dead button") : "";
    return el("button", { class: "pk-seat empty", style, "data-seat": s.number, onclick: () => openSeat(s) },
      el("span", { class: "pk-no" }, s.number), badges, el("span", { class: "pk-free" }, "free"), dead);
  }
  const inHand = cur && cur.seats.find(h => h.seat === s.number && h.player_id === s.player.id);
  const next = s.next || {};
  let status, cls = "";
  if (s.away) {
    cls = "away";
    status = el("span", { class: "pk-status" }, "Away ", el("span", { class: "pk-timer", "data-since": s.away_since }, mmss(s.away_since)));
  } else if (inHand && inHand.status === "dealt") {
    cls = "dealt";
    const posted = cur.postings.filter(p => p.seat === s.number);
    status = el("span", { class: "pk-status" }, posted.length ? postingsText(posted) : "in the hand");
  } else if (inHand && inHand.status === "waiting") {
    cls = "waiting";
    status = el("span", { class: "pk-status" }, inHand.note || "waits");
  } else if (preview && next.status === "dealt") {
    cls = "dealt";
    status = el("span", { class: "pk-status" }, next.postings.length ? postingsText(next.postings) : "in");
  } else {
    cls = "waiting";
    status = el("span", { class: "pk-status" }, cur ? "not in this hand" : (next.note || "waits"));
  }
  let extra = "";
  if (s.away) {
    const o = owesText(s.owes);
    if (o) extra = el("span", { class: "pk-owes" }, `owes ${o}`);
  } else if (!preview && next.status === "waiting") {
    extra = el("span", { class: "pk-owes next" }, `next: ${next.note || "waits"}`);
  } else if (!preview && next.status === "dealt" && (s.kind !== "in" || inHand?.status !== "dealt")) {
    const owing = next.postings.filter(p => !["small_blind", "big_blind", "third_blind"].includes(p.kind));
    extra = el("span", { class: "pk-owes next" }, `next: ${owing.length ? postingsText(owing) : "plays"}`);
  }
  const tickets = el("span", { class: "pk-tix", title: `${s.tickets} missed-blind tickets` },
    Array.from({ length: state.rules.tickets_to_forfeit }, (_, i) => el("i", { class: i < s.tickets ? "on" : "" })));
  const warn = s.warnings ? el("span", { class: "pk-warn", title: "warnings today" }, `⚠ ${s.warnings}/${state.rules.warnings_to_ban}`) : "";
  const tag = s.kind !== "in" && !s.away ? el("span", { class: "pk-kind" }, { new: "new", far: "seat change", must_move: "must-move", returning: "back" }[s.kind] || s.kind) : "";
  return el("button", { class: `pk-seat ${cls}`, style, "data-seat": s.number, onclick: () => openSeat(s) },
    el("span", { class: "pk-no" }, s.number), badges,
    el("span", { class: "pk-name" }, s.player.name), tag, status, extra,
    el("span", { class: "pk-marks" }, tickets, warn));
}

// --- centre: New hand, straddle ---------------------------------------------------------------------
function center() {
  const last = state.last_hand;
  const next = state.next_hand;
  const items = [];
  items.push(el("button", { class: "btn primary pk-new", id: "pk-new-hand", disabled: !next,
    onclick: () => act("POST", "/hands", {}, "New hand") }, "New hand"));
  const line = (h, dealtFirst) => {
    const bits = [`D ${h.button}${h.dead_button ? " (dead)" : ""}`, h.dead_small ? "no SB" : `SB ${h.small}`, `BB ${h.big}`];
    if (h.third) bits.push(`3rd ${h.third}`);
    if (h.heads_up) bits.push("heads-up");
    return bits.join(" · ");
  };
  if (last) items.unshift(el("p", { class: "pk-cur-line" }, `Hand #${last.number}: ${line(last)}`));
  if (next) {
    items.push(el("p", { class: "pk-next-line" }, `Next: ${line(next)}${next.new_game ? " · new game" : ""}`));
  } else {
    items.push(el("p", { class: "pk-error" }, state.next_hand_error || "No hand possible"));
  }
  if (last && !last.straddle) {
    const dealt = last.seats.filter(s => s.status === "dealt").map(s => s.seat);
    if (dealt.length >= 3) {
      const n = state.table.seat_count;
      const utg = [...dealt].sort((a, b) => ((a - last.big + n) % n) - ((b - last.big + n) % n))
        .find(x => x !== last.big);
      items.push(el("button", { class: "btn pk-straddle", id: "pk-straddle",
        onclick: () => act("POST", `/hands/${last.id}/straddle`, {}, "Straddle") },
        `Seat ${utg} straddles ${money(state.rules.straddle)}`));
    }
  } else if (last && last.straddle) {
    items.push(el("p", { class: "pk-muted" }, `Seat ${last.straddle} straddled · acts last preflop`));
  }
  return items;
}

function nextList() {
  const next = state.next_hand;
  if (!next) return [el("li", { class: "pk-muted" }, state.next_hand_error || "—")];
  const name = seat => (state.seats.find(s => s.number === seat)?.player?.name) || "";
  const rows = next.postings.map(p => el("li", { "data-seat": p.seat },
    el("b", {}, `Seat ${p.seat}`), ` ${name(p.seat)} · ${KIND[p.kind] || p.kind} `, el("b", {}, money(p.amount)),
    p.live ? "" : el("span", { class: "pk-muted" }, " dead")));
  for (const s of state.seats.filter(s => s.player && s.next && s.next.status === "waiting")) {
    rows.push(el("li", { class: "pk-muted", "data-seat": s.number }, `Seat ${s.number} ${s.player.name} · ${s.next.note || "waits"}`));
  }
  for (const m of next.misses) {
    rows.push(el("li", { class: "pk-miss", "data-seat": m.seat },
      `Seat ${m.seat} ${name(m.seat)} misses the ${BLIND[m.blind]}${m.ticket ? " → ticket" : ""}`));
  }
  if (next.first_to_act) rows.push(el("li", { class: "pk-muted" }, `First to act: seat ${next.first_to_act}`));
  return rows;
}

function ticketList() {
  const rows = state.tickets.filter(t => t.kind !== "void");
  if (!rows.length) return [el("li", { class: "pk-muted" }, "None")];
  return rows.slice(0, 12).map(t => el("li", { class: `pk-ticket ${t.voided ? "voided" : ""}`, "data-ticket": t.id },
    el("span", {}, el("b", {}, `Seat ${t.seat}`), ` ${t.player} · ${t.blind ? BLIND[t.blind] : "by hand"}`,
      t.ticket ? "" : " (no ticket)", el("small", {}, " " + new Date(t.at).toLocaleTimeString("de-CH", { hour: "2-digit", minute: "2-digit" }))),
    t.voided ? el("span", { class: "pk-muted" }, "voided") :
      el("button", { class: "btn small", onclick: () => ask(`Void ticket · seat ${t.seat}`,
        ["He was at the table", "Wrong seat", "Blind was posted"],
        reason => act("POST", `/tickets/${t.id}/void`, { reason }, "Ticket voided")) }, "Void")));
}

function render() {
  const t = state.table;
  root.querySelector("#pk-hand").textContent = state.last_hand ? `Hand #${state.last_hand.number}` : "No hand yet";
  const policy = { bern: "Missed blinds: Bern room rules", online_network: "Missed blinds: online network rules", swiss_online: "Missed blinds: Swiss online rules" };
  root.querySelector("#pk-rules").textContent =
    `${policy[state.rules.policy] || state.rules.policy} · ${state.rules.dead_button ? "dead" : "moving"} button · blinds ${money(t.small_blind)}/${money(t.big_blind)}`;
  root.querySelector("#pk-seats").replaceChildren(...state.seats.map(seatCard));
  root.querySelector("#pk-center").replaceChildren(...center());
  root.querySelector("#pk-next").replaceChildren(...nextList());
  root.querySelector("#pk-tickets").replaceChildren(...ticketList());
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
    state = await api(method, base + path, body);
    render();
    if (done) document.getElementById("pk").dataset.last = done;   // routine: no toast over the table
  } catch (e) {
    toast(e.message, "error");
  }
}

async function refresh() {
  try { state = await api("GET", base); render(); } catch (e) { toast(e.message, "error"); }
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

function ask(title, presets, then, { textLabel = "Other reason", seat } = {}) {
  const input = el("input", { name: "reason", placeholder: textLabel, maxlength: 200 });
  const go = reason => { closeSheet(); then(reason); };
  sheet(title, [
    el("div", { class: "pk-actions" }, presets.map(p => el("button", { class: "btn big", onclick: () => go(p) }, p))),
    el("div", { class: "pk-other" }, input,
      el("button", { class: "btn primary", onclick: () => { if (input.value.trim()) go(input.value.trim()); else input.focus(); } }, "OK")),
  ]);
}

function openSeat(s) {
  const here = `/seats/${s.number}`;
  const buttonHere = el("button", { class: "btn big", onclick: () => {
    if (!state.last_hand) { closeSheet(); act("POST", "/button", { seat: s.number }, `Button on seat ${s.number}`); }
    else ask(`Button to seat ${s.number}`, ["Button was misplaced", "Start a new game"], reason => act("POST", "/button",
      { seat: s.number, reason, new_game: reason === "Start a new game" }, `Button on seat ${s.number}`));
  } }, "Put the button here");
  if (!s.player) {
    sheet(`Seat ${s.number} · free`, [el("div", { class: "pk-actions" }, buttonHere)], s.number);
    return;
  }
  const info = [];
  if (s.away) info.push(el("p", {}, "Away for ", el("b", { class: "pk-timer", "data-since": s.away_since }, mmss(s.away_since))));
  if (s.owes && s.owes.reason) info.push(el("p", { class: "pk-muted" }, s.owes.reason));
  if (s.owes && (s.owes.total || s.owes.wait_for_bb)) info.push(el("p", {}, "To play: ", el("b", {}, owesText(s.owes))));
  info.push(el("p", { class: "pk-muted" }, `Tickets ${s.tickets}/${state.rules.tickets_to_forfeit} · warnings ${s.warnings}/${state.rules.warnings_to_ban}`));
  const actions = [];
  const then = done => () => { closeSheet(); act("POST", done[0], done[1], done[2]); };
  if (s.away) {
    actions.push(el("button", { class: "btn big primary", "data-action": "back", onclick: then([here + "/back", {}, `Seat ${s.number} is back`]) }, "Back"));
    if (s.owes && s.owes.total && !s.owes.wait_for_bb) {
      actions.push(el("button", { class: "btn big", "data-action": "back-wait", onclick: then([here + "/back", { wait_for_bb: true }, `Seat ${s.number} back, waits for the big blind`]) }, "Back · waits for BB"));
    }
  } else {
    actions.push(el("button", { class: "btn big", "data-action": "away", onclick: then([here + "/away", {}, `Seat ${s.number} is away`]) }, "Away"));
    if (s.kind !== "in" && s.owes && s.owes.total && !s.owes.wait_for_bb) {
      actions.push(s.wait_for_bb
        ? el("button", { class: "btn big", "data-action": "post-now", onclick: then([here + "/entry", { wait_for_bb: false }, "Posts now"]) }, `Posts now (${owesText(s.owes)})`)
        : el("button", { class: "btn big", "data-action": "wait-bb", onclick: then([here + "/entry", { wait_for_bb: true }, "Waits for the big blind"]) }, "Waits for BB"));
    }
  }
  actions.push(buttonHere);
  actions.push(el("button", { class: "btn big", "data-action": "ticket", onclick: () => ask(`Ticket · seat ${s.number}`,
    ["Missed blind not recorded"], reason => act("POST", here + "/tickets", { reason }, "Ticket recorded")) }, "Hand a ticket"));
  actions.push(el("button", { class: "btn big danger", "data-action": "warning", onclick: () => warn(s) }, "Warning"));
  sheet(`Seat ${s.number} · ${s.player.name}`, [...info, el("div", { class: "pk-actions" }, actions)], s.number);
}

function warn(s) {
  const note = el("input", { name: "note", placeholder: "What happened (required for other)", maxlength: 300 });
  const give = async reason => {
    if (reason === "other" && !note.value.trim()) { note.focus(); return; }
    closeSheet();
    try {
      const r = await api("POST", `${base}/seats/${s.number}/warnings`, { reason, note: note.value.trim() });
      toast(r.banned ? `${s.player.name}: ${r.count} warnings — must leave the poker area` : `Warning ${r.count}/${state.rules.warnings_to_ban} for ${s.player.name}`,
        r.banned ? "error" : "warning");
      await refresh();
    } catch (e) { toast(e.message, "error"); }
  };
  sheet(`Warning · seat ${s.number} · ${s.player.name}`, [
    el("p", { class: "pk-muted" }, `${s.warnings} so far today; at ${state.rules.warnings_to_ban} he must leave the poker area.`),
    el("div", { class: "pk-actions" }, reasons.map(r => el("button", { class: `btn big ${r.code === "other" ? "" : ""}`,
      "data-reason": r.code, onclick: () => give(r.code) }, r.text))),
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
  socket.on("alert", a => { if (a.table_id === Number(root.dataset.tableId)) toast(a.message, a.severity); });
  socket.on("connect", refresh);
  return socket;
}
