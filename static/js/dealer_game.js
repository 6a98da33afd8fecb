// The dealer terminal of a live game: the round, its timer, cards as they are read, decisions, seat bets.
import { amount, api, connect, el, money, newestOnly, refill, toast } from "./live.js";
import { _, term } from "./i18n.js";
import { RED as RED_SET, ball, cardEl } from "./cards.js";
import { startSeatPlayers } from "./seat_players.js";
import { startRelief } from "./dealer_relief.js";

const root = document.getElementById("terminal");
const tableNo = root.dataset.table;
const kind = root.dataset.kind;
const initial = JSON.parse(document.getElementById("initial-data").textContent);
let state = initial.state;
const layout = initial.layout || {};

const SPOTS = {
  roulette: Object.keys(layout),
  baccarat: ["player", "banker", "tie", "player_pair", "banker_pair"],
  blackjack: ["bet"],
  casino_holdem: ["ante", "aa_bonus"],
};
const label = s => term(s);

// The round's state comes back from the dealer's actions and from the refreshes of the live feed.
const answered = newestOnly();

async function call(method, url, body) {
  try {
    return await answered(api(method, url, body), out => { if (out && out.round !== undefined) { state = out; render(); } });
  } catch (e) { toast(e.message, "error"); throw e; }
}
// A button's tap: a refusal (a 409 while a round runs) is the toast above, not an uncaught page error.
const tap = (method, url, body) => call(method, url, body).catch(() => {});

// --- controls ---
document.getElementById("btn-open").addEventListener("click", () => tap("POST", `/api/tables/${tableNo}/round/open`, {}));
document.getElementById("btn-close").addEventListener("click", () => tap("POST", `/api/tables/${tableNo}/round/close`, {}));
document.getElementById("btn-shoe")?.addEventListener("click", () => tap("POST", `/api/tables/${tableNo}/shoe`, {}));
document.getElementById("card-form")?.addEventListener("submit", async ev => {
  ev.preventDefault();
  const input = ev.target.elements.card;
  const card = input.value.trim();
  input.value = "";          // cleared at once: the next card may be typed while this one is sent
  if (!card) return;
  try { await call("POST", `/api/tables/${tableNo}/round/card`, { card }); } catch (e) { if (!input.value) input.value = card; }
  input.focus();
});

const spotSel = document.getElementById("spot-select");
const numSel = document.getElementById("numbers-select");
spotSel.replaceChildren(...SPOTS[kind].map(s => el("option", { value: s }, label(s))));
function fillNumbers() {
  if (!numSel) return;
  const sets = layout[spotSel.value] || [];
  numSel.replaceChildren(...sets.map((nums, i) => el("option", { value: i }, nums.length > 6 ? `${nums[0]}…${nums[nums.length - 1]}` : nums.join("-"))));
  numSel.disabled = sets.length <= 1;
}
spotSel.addEventListener("change", fillNumbers);
fillNumbers();
document.getElementById("bet-form").addEventListener("submit", async ev => {
  ev.preventDefault();
  const f = ev.target.elements;
  const body = { spot: f.spot.value, seat: Number(f.seat.value), amount: Math.round(Number(f.amount.value) * 100),
    idempotency_key: `${tableNo}-${Date.now()}-${Math.random().toString(36).slice(2)}` };
  if (numSel && !numSel.disabled) body.numbers = layout[f.spot.value][Number(f.numbers.value)];
  try { await api("POST", `/api/tables/${tableNo}/bets`, body); await refresh(); toast(_("Seat {seat}: {spot} {amount}", { seat: body.seat, spot: label(body.spot), amount: money(body.amount) })); }
  catch (e) { toast(e.message, "error"); }
});

// --- rendering ---
// "seat:3:2" -> "seat 3 hand 2", "dealer", "board": where the next card goes.
function cardTarget(t) {
  const m = /^seat:(\d+)(?::(\d+))?$/.exec(t);
  if (!m) return term(t);
  return m[2] ? _("seat {seat} hand {hand}", { seat: m[1], hand: m[2] }) : _("seat {seat}", { seat: m[1] });
}
function timerText(until) {
  const left = Math.max(0, Math.ceil((new Date(until) - Date.now()) / 1000));
  return `${left}s`;
}

function cardsFor(r, target) {
  return (r.cards || []).filter(c => c.accepted && c.target === target).map(c => cardEl(c.card));
}

function roundView(r) {
  if (!r) return [el("p", { class: "hint" }, _("No round yet. Open betting to start one."))];
  const res = r.result || {};
  if (kind === "roulette") {
    return [el("div", { class: "wheel-result" },
      res.number !== undefined ? ball(res.number, "big") : el("span", { class: "ball pending big" }, "–"),
      // a wheel that sends only its numbers has no spin counter: once its number is in, nothing is awaited
      el("div", {}, r.spin ? el("p", {}, _("Spin {n}", { n: r.spin }))
        : res.number === undefined ? el("p", {}, state.entry_by_hand ? _("Waiting for the number keyed by hand") : _("Waiting for the wheel")) : null,
        res.number !== undefined ? el("p", { class: "result-line" }, _("Winning number {n}", { n: res.number })) : null))];
  }
  if (kind === "baccarat") {
    const side = (name, cls) => el("div", { class: `bac-hand ${cls} ${res.winner === name ? "won" : ""}` },
      el("h3", {}, name === "player" ? _("Player") : _("Banker"),
        res[`${name}_total`] !== undefined ? el("span", { class: "total" }, res[`${name}_total`]) : null),
      el("div", { class: "cards" }, cardsFor(r, name)));
    return [el("div", { class: "bac-table" }, side("player", "p"), side("banker", "b")),
      res.winner ? el("p", { class: `result-line ${res.winner}` }, `${res.winner === "tie" ? _("Tie") : res.winner === "player" ? _("Player wins") : _("Banker wins")}`
        + (res.player_pair ? " · " + term("player_pair") : "") + (res.banker_pair ? " · " + term("banker_pair") : "")) : null];
  }
  const flow = r.flow;
  if (!flow) return [el("p", { class: "hint" }, r.status === "betting" ? _("Bets are open.") : "")];
  const exp = flow.expecting || [];
  const seats = Object.entries(flow.seats).map(([seat, s]) => {
    const active = (exp[0] === "decision" || exp[0] === "insurance") && (Array.isArray(exp[1]) ? exp[1].includes(Number(seat)) : exp[1] === Number(seat));
    const hands = kind === "blackjack"
      ? s.hands.map((h, i) => el("div", { class: `bj-hand ${active && exp[2] === i + 1 ? "turn" : ""}` },
          el("div", { class: "cards" }, h.cards.map(cardEl)),
          el("span", { class: "total" }, h.total ? (h.total > 21 ? _("{total} bust", { total: h.total }) : h.total) : ""),
          h.doubled ? el("span", { class: "tag" }, _("doubled")) : null))
      : [el("div", { class: "cards" }, s.cards.map(cardEl)), s.decision ? el("span", { class: `tag ${s.decision}` }, term(s.decision)) : null];
    return el("div", { class: `seat-box ${active ? "active" : ""}`, "data-seat": seat },
      el("h3", {}, _("Seat {seat}", { seat }), active ? el("span", { class: "turn-tag" }, _("to act")) : null), ...hands,
      s.insurance ? el("span", { class: "tag" }, _("insured {amount}", { amount: money(s.insurance) })) : null);
  });
  const dealer = el("div", { class: "dealer-box" }, el("h3", {}, _("Dealer")), el("div", { class: "cards" }, (flow.dealer || []).map(cardEl)),
    kind === "casino_holdem" ? el("div", {}, el("h3", {}, _("Board")), el("div", { class: "cards" }, (flow.board || []).map(cardEl))) : null);
  const waiting = exp[0] === "card" ? _("Next card: {target}", { target: cardTarget(exp[1]) })
    : exp[0] === "decision" ? (kind === "blackjack" ? _("Seat {seat} to decide", { seat: exp[1] }) : _("Call or fold: seats {seats}", { seats: exp[1].join(", ") }))
    : exp[0] === "insurance" ? _("Seat {seat}: insurance?", { seat: exp[1] }) : _("Round complete");
  return [dealer, el("div", { class: "seats-row" }, seats), el("p", { class: "next-line" }, waiting)];
}

function decisionButtons(r) {
  const flow = r && r.flow;
  if (!flow || r.status !== "dealing") return [];
  const exp = flow.expecting || [];
  const go = (seat, action, hand) => tap("POST", `/api/tables/${tableNo}/round/decision`, { seat, action, hand: hand ?? null });
  if (kind === "blackjack" && (exp[0] === "decision" || exp[0] === "insurance")) {
    return [el("p", {}, (exp[2] ? _("Seat {seat} · hand {hand}", { seat: exp[1], hand: exp[2] }) : _("Seat {seat}", { seat: exp[1] })) + ":"),
      ...flow.options.map(o => el("button", { class: `btn big-ish ${o === "stand" || o === "no_insurance" ? "" : "primary"}`,
        "data-action": o, onclick: () => go(exp[1], o, exp[0] === "decision" ? exp[2] : null) }, term(o)))];
  }
  if (kind === "casino_holdem" && exp[0] === "decision") {
    return exp[1].map(seat => el("div", { class: "che-decide" }, el("span", {}, _("Seat {seat}", { seat })),
      el("button", { class: "btn primary", "data-action": "call", onclick: () => go(seat, "call") }, _("Call")),
      el("button", { class: "btn", "data-action": "fold", onclick: () => go(seat, "fold") }, _("Fold"))));
  }
  return [];
}

// --- entry by hand: the pit boss switched the table off its device; the dealer keys the result ---
const DEVICE = () => ({ roulette: _("The wheel"), baccarat: _("The shoe"), blackjack: _("The card scanner"), casino_holdem: _("The card scanner") });
let picked = { number: null, rank: null, suit: null };
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
const SUITS = () => [["S", "♠", _("spades")], ["H", "♥", _("hearts")], ["D", "♦", _("diamonds")], ["C", "♣", _("clubs")]];
// the numbers as on the layout: three rows (3, 6 … 36 at the top), twelve columns
const LAYOUT_ORDER = [3, 2, 1].flatMap(row => Array.from({ length: 12 }, (_x, col) => col * 3 + row));
const rankLabel = x => x === "T" ? "10" : x;

function numberPad(r) {
  const can = r && r.status === "locked" && !r.keyed;
  const key = n => el("button", { type: "button", class: `pad-key num-${n === 0 ? "green" : RED_SET.has(n) ? "red" : "black"} ${picked.number === n ? "picked" : ""}`,
    "data-number": n, disabled: !can, onclick: () => { picked.number = n; renderHand(); } }, String(n));
  const grid = el("div", { class: "number-pad" }, el("div", { class: "zero-row" }, key(0)),
    el("div", { class: "number-grid" }, LAYOUT_ORDER.map(key)));
  const send = el("button", { type: "button", class: "btn primary pad-send", "data-action": "send-number", disabled: !can || picked.number === null,
    onclick: async () => {
      const n = picked.number;
      try { await call("POST", `/api/tables/${tableNo}/round/number`, { number: n }); picked.number = null; renderHand(); }
      catch (e) { renderHand(); }
    } }, picked.number === null ? _("Tap the winning number") : _("Send number {n}", { n: picked.number }));
  const hint = !r || r.status === "betting" || r.status === "settled" || r.status === "voided"
    ? _("Open betting, call no more bets, then key the number where the ball lies.") : "";
  return [hint ? el("p", { class: "hint" }, hint) : null, grid, send];
}

function cardPad(r) {
  const can = r && r.status === "dealing" && !r.keyed;
  const ranks = el("div", { class: "rank-row" }, RANKS.map(x => el("button", { type: "button", class: `pad-key ${picked.rank === x ? "picked" : ""}`,
    "data-rank": x, disabled: !can, onclick: () => { picked.rank = x; renderHand(); } }, rankLabel(x))));
  const suits = el("div", { class: "suit-row" }, SUITS().map(([code, sign, name]) => el("button", { type: "button",
    class: `pad-key suit ${code === "H" || code === "D" ? "red" : "black"} ${picked.suit === code ? "picked" : ""}`,
    "data-suit": code, disabled: !can, "aria-label": name, onclick: () => { picked.suit = code; renderHand(); } }, sign)));
  const card = picked.rank && picked.suit ? picked.rank + picked.suit : null;
  const send = el("button", { type: "button", class: "btn primary pad-send", "data-action": "send-card", disabled: !can || !card,
    onclick: async () => {
      try { await call("POST", `/api/tables/${tableNo}/round/card`, { card }); picked.rank = picked.suit = null; renderHand(); }
      catch (e) { renderHand(); }
    } }, card ? [_("Enter card"), " ", cardEl(card)] : _("Tap the rank, then the suit"));
  const hint = !r || !["dealing"].includes(r.status) ? _("Open betting, call no more bets, then key each card as it is dealt.") : "";
  return [hint ? el("p", { class: "hint" }, hint) : null, ranks, suits, send];
}

function keyedText(r) {
  const res = r.keyed.result || {};
  if (kind === "roulette") return [ball(res.number, "big"), " ", _("Number {n} keyed by {who}: waiting for a floor manager or pit boss to confirm. Nothing is paid before.", { n: res.number, who: r.keyed.keyed_by.join(", ") })];
  return [_("Result keyed by {who}: waiting for a floor manager or pit boss to confirm. Nothing is paid before.", { who: r.keyed.keyed_by.join(", ") })];
}

function renderHand() {
  const panel = document.getElementById("hand-panel");
  const mode = state.entry_by_hand;
  panel.hidden = !mode;
  root.classList.toggle("by-hand", !!mode);
  if (!mode) return;
  const r = state.round;
  document.getElementById("hand-banner").textContent = _("Entry by hand: {device} is not used ({reason}). Key the result here; a second person confirms it.",
    { device: DEVICE()[kind], reason: mode.reason });
  const keyed = document.getElementById("hand-keyed");
  keyed.hidden = !(r && r.keyed);
  keyed.replaceChildren(...(r && r.keyed ? keyedText(r) : []));
  refill(document.getElementById("hand-pad"), (kind === "roulette" ? numberPad(r) : cardPad(r)).filter(Boolean));
}

function render() {
  const r = state.round;
  document.getElementById("round-no").textContent = r ? _("Round {n}", { n: r.number }) + (r.coup ? " · " + _("coup {n}", { n: r.coup }) : "") : "";
  const st = document.getElementById("round-status");
  st.textContent = term(r ? r.status : "idle");
  st.className = `round-status ${r ? r.status : "idle"}`;
  const shoe = document.getElementById("shoe-info");
  if (shoe) shoe.textContent = state.shoe ? _("Shoe {n} · {status}", { n: state.shoe.number, status: term(state.shoe.status) }) : _("No shoe confirmed");
  document.getElementById("round-view").replaceChildren(...roundView(r).filter(Boolean));
  refill(document.getElementById("decisions"), decisionButtons(r));   // a decision tapped mid-update still lands
  const held = document.getElementById("held");
  held.hidden = !(r && r.status === "held");
  if (r && r.status === "held") held.textContent = _("Held for the pit boss: {reason}", { reason: r.held_reason });
  const bets = (r && r.bets) || [];
  document.getElementById("bets").replaceChildren(...bets.map(b => el("tr", { "data-bet": b.id },
    el("td", {}, [b.seat ? _("Seat {seat}", { seat: b.seat }) : "", b.player_id ? _("player {id}", { id: b.player_id }) : ""].filter(Boolean).join(" · ")),
    el("td", {}, label(b.spot), b.numbers && b.numbers.length < 7 ? ` ${b.numbers.join("-")}` : "", b.hand > 1 ? " " + _("(hand {hand})", { hand: b.hand }) : ""),
    el("td", { class: "num" }, amount(b.amount)),
    el("td", { class: `num ${b.paid > 0 ? "won" : ""}` }, b.paid === undefined ? "" : amount(b.paid)))));
  document.getElementById("bets-total").textContent = amount(bets.reduce((a, b) => a + b.amount, 0));
  const settled = r && r.settlement;
  document.getElementById("paid-total").textContent = settled ? amount(settled.returned) : "";
  renderHand();
  tick();
}

function tick() {
  const r = state.round;
  const t = document.getElementById("timer");
  const until = r && (r.status === "betting" ? r.closes_at : r.status === "dealing" ? r.decision_until : null);
  if (until && new Date(until) > Date.now()) {
    t.hidden = false;
    t.textContent = timerText(until);
  } else {
    t.hidden = true;
  }
}
setInterval(tick, 500);

async function refresh() {
  try { await answered(api("GET", `/api/tables/${tableNo}/round`), s => { state = s; render(); }); } catch (e) { toast(e.message, "error"); }
}

render();
const socket = connect(s => s.emit("join_table", { table_id: state.table.id }));
for (const ev of ["round.changed", "round.card", "round.result", "round.settled", "round.voided", "round.held",
  "round.decision", "bet.placed", "shoe.changed", "round.keyed", "table.entry_mode"]) {
  socket.on(ev, msg => { if (!msg || msg.table_id === undefined || msg.table_id === state.table.id) refresh(); });
}
socket.on("connect", refresh);
// the device process fell behind the table's line: bets are refused until it catches up
socket.on("table.betting_paused", msg => {
  if (!msg || msg.table_id !== state.table.id) return;
  if (msg.paused) toast(_("Betting paused: the device process is {ms} ms behind the line of {device}", { ms: msg.behind_ms, device: msg.device }), "error");
  else toast(_("Betting goes on: the device process has caught up with its line"));
});
startSeatPlayers(root, tableNo, socket);
startRelief(document.getElementById("dealer-relief"), tableNo, socket);
window.__terminal = { refresh, state: () => state };
