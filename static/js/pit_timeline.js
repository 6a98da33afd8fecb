// A round laid out again for a dispute: the cards as dealt (pictures), the replay by the house rules,
// every frame, state change, bet, decision and transfer in time order, and the pit boss's rulings.
import { amount, api, connect, el, money, newestOnly, toast } from "./live.js";
import { _, clock, ngettext, say, term } from "./i18n.js";
import { ball, cardEl } from "./cards.js";
import { correctionText, pendingItem } from "./pit_rulings.js";
import { rule } from "./pit_rounds.js";

const page = document.getElementById("timeline-page");
const roundId = Number(page.dataset.round);
const kind = page.dataset.kind;
const canRule = page.dataset.canRule === "yes";
const me = Number(page.dataset.me || 0);
let data = JSON.parse(document.getElementById("initial-data").textContent);
let picked = null;     // the card (step) the pit boss says was mis-read
const hidden = new Set();

// House time to the millisecond: frames of one coup arrive within a second.
function time(iso) {
  if (!iso) return "";
  return `${clock(iso, { seconds: true })}.${String(new Date(iso).getMilliseconds()).padStart(3, "0")}`;
}
const SIDE = () => ({ player: _("Player"), banker: _("Banker"), tie: _("Tie") });
const TYPES = () => ({ frame: _("Device frame"), card: _("Card"), event: _("State"), bet: _("Bet"), transfer: _("Transfer"),
  settlement: _("Settlement"), ruling: _("Ruling"), approval: _("Second pit boss") });
const FILTERS = () => [["frame", _("Frames")], ["card", _("Cards")], ["event", _("States & decisions")], ["bet", _("Bets")],
  ["transfer", _("Transfers")], ["ruling", _("Rulings")]];

// --- the cards as dealt ---------------------------------------------------------------------------

function cardBox(c, selectable) {
  const cls = ["tl-card"];
  if (c.corrected) cls.push("corrected");
  if (selectable && picked === c.step) cls.push("picked");
  const box = el("span", { class: cls.join(" "), "data-step": c.step ?? "", title: c.step ? _("card {n} of the deal", { n: c.step }) : "" },
    cardEl(c.card), el("small", {}, c.corrected ? _("was {card}", { card: c.was }) : c.step ? `#${c.step}` : ""));
  if (selectable && c.step) {
    box.classList.add("pickable");
    box.addEventListener("click", () => { picked = c.step; renderLayout(); renderForm("correct"); });
  }
  return box;
}

function layoutView(lay, selectable) {
  if (!lay) return el("p", { class: "empty" }, _("Nothing dealt."));
  if (lay.kind === "roulette") {
    return lay.number === null || lay.number === undefined ? el("p", { class: "empty" }, _("No number yet."))
      : el("div", { class: "wheel-result" }, ball(lay.number, "big"), el("span", { class: "muted" }, ` ${term(lay.colour)}`));
  }
  if (lay.kind === "baccarat") {
    const hand = side => el("div", { class: `bac-hand ${lay.winner === side ? "won" : ""}`, "data-side": side },
      el("h3", {}, SIDE()[side], lay.totals[side] !== null ? el("span", { class: "total" }, String(lay.totals[side])) : ""),
      el("div", { class: "card-row" }, lay[side].map(c => cardBox(c, selectable))));
    return el("div", { class: "bac-layout" }, hand("player"), hand("banker"),
      lay.winner ? el("p", { class: "result-line" }, lay.winner === "tie" ? _("Tie") : lay.winner === "player" ? _("Player wins") : _("Banker wins")) : null);
  }
  const dealer = el("div", { class: "dealer-box" }, el("h3", {}, _("Dealer"),
    lay.dealer_total ? el("span", { class: "total" }, String(lay.dealer_total)) : ""),
    el("div", { class: "card-row" }, lay.dealer.map(c => cardBox(c, selectable))));
  const board = lay.kind === "casino_holdem" ? el("div", { class: "board-box" }, el("h3", {}, _("Board")),
    el("div", { class: "card-row" }, lay.board.map(c => cardBox(c, selectable)))) : null;
  const seats = el("div", { class: "seat-boxes" }, lay.seats.map(s => el("div", { class: "seat-box", "data-seat": s.seat },
    el("h3", {}, _("Seat {seat}", { seat: s.seat })),
    s.hands.map(h => el("div", { class: "bj-hand" },
      s.hands.length > 1 ? el("span", { class: "muted" }, _("hand {n}", { n: h.hand }) + " ") : "",
      el("span", { class: "card-row" }, h.cards.map(c => cardBox(c, selectable))),
      h.total ? el("span", { class: "total" }, String(h.total)) : "")),
    s.decisions.length ? el("p", { class: "muted" }, s.decisions.map(term).join(", ")) : null)));
  return el("div", { class: "card-layout" }, dealer, board, seats);
}

function renderLayout() {
  const selectable = canRule && !data.pending && ["held", "settled"].includes(data.round.status) && kind !== "roulette";
  document.getElementById("layout-view").replaceChildren(layoutView(data.layout, selectable && formKind === "correct"));
  const corr = document.getElementById("tl-corrected");
  corr.hidden = !data.corrected_layout;
  if (data.corrected_layout) document.getElementById("corrected-view").replaceChildren(layoutView(data.corrected_layout, false));
}

// --- the replay --------------------------------------------------------------------------------

function resultText(res) {
  if (!res) return "";
  if (kind === "roulette") {
    const r = res.readings;
    return `${res.number}` + (r ? " " + _("(bare number {bare}, state-5 line {five})", { bare: r.bare ?? "–", five: r.five ?? "–" }) : "");
  }
  if (kind === "baccarat") return res.winner === "tie" ? _("Tie {player}-{banker}", { player: res.player_total, banker: res.banker_total })
    : _("{side} wins, player {player} banker {banker}", { side: SIDE()[res.winner], player: res.player_total, banker: res.banker_total });
  if (res.dealer) return _("dealer {cards}", { cards: res.dealer.join(" ") }) + (res.board ? ", " + _("board {cards}", { cards: res.board.join(" ") }) : "");
  return JSON.stringify(res);
}

function renderReplay() {
  const rp = data.replay;
  const box = document.getElementById("replay-view");
  if (!rp.result) { box.replaceChildren(el("p", { class: "empty" }, _("Nothing to replay: no complete set of cards or readings."))); return; }
  const verdict = rp.result_matches === null ? el("p", { class: "verdict unknown" }, _("Not settled from a device result: nothing to compare."))
    : rp.result_matches ? el("p", { class: "verdict ok" }, "✓ " + _("Matches the result that was settled"))
      : el("p", { class: "verdict bad" }, "✗ " + _("Differs from the result that was settled:") + " ", resultText(rp.settled_result));
  const pays = rp.payouts_match === null ? null : rp.payouts_match ? el("p", { class: "verdict ok" }, "✓ " + _("Every bet was paid as the rules say"))
    : el("p", { class: "verdict bad" }, "✗ " + ngettext("{n} bet paid differently from the rules", "{n} bets paid differently from the rules", rp.bets.filter(b => !b.matches).length));
  box.replaceChildren(el("p", {}, (kind === "roulette" ? _("Recomputed from the recorded wheel readings:") : _("Recomputed from the recorded cards:")) + " ",
    el("strong", { id: "replay-result" }, resultText(rp.result))), verdict, pays || "",
    rp.bets.length ? el("table", { class: "pit-table compact" },
      el("thead", {}, el("tr", {}, el("th", {}, _("Bet")), el("th", {}, _("Spot")), el("th", { class: "num" }, _("Rules pay")), el("th", { class: "num" }, _("Settled")))),
      el("tbody", {}, rp.bets.map(b => el("tr", { class: b.matches ? "" : "bad" }, el("td", {}, `#${b.bet_id}`), el("td", {}, term(b.spot) + (b.seat ? " " + _("seat {seat}", { seat: b.seat }) : "")),
        el("td", { class: "num" }, amount(b.replay_returns)), el("td", { class: "num" }, amount(b.settled_returned)))))) : "");
}

// --- rulings -----------------------------------------------------------------------------------

const STATE = () => ({ applied: _("applied"), pending: _("waits for a second pit boss"), rejected: _("rejected"), withdrawn: _("withdrawn") });
function renderRulings() {
  const list = document.getElementById("rulings-list");
  const items = data.rulings.map(r => r.state === "pending"
    ? pendingItem(r, { canRule, me, done: refresh })
    : el("li", { class: `ruling ${r.state}`, "data-ruling": r.id },
      el("header", {}, el("h3", {}, `${term(r.kind)} · ${STATE()[r.state]}`), el("span", { class: "amount" }, money(r.amount))),
      el("p", {}, el("b", {}, r.decided_by_name), ` — ${r.reason}`, r.kind === "correct" ? el("span", { class: "muted" }, ` (${correctionText(r)})`) : ""),
      el("p", { class: "muted" }, `${time(r.at)} · ${r.terminal}`,
        r.approval ? " · " + _("{decision} by {who}", { decision: term(r.approval.decision), who: r.approval.by_name }) + (r.approval.reason ? ": " + r.approval.reason : "") : "")));
  list.replaceChildren(...(items.length ? items : [el("li", { class: "empty" }, _("No ruling on this round."))]));
}

let formKind = null;
function renderForm(k = formKind) {
  formKind = k;
  const box = document.getElementById("ruling-form");
  const st = data.round.status;
  if (!canRule) { box.replaceChildren(el("p", { class: "muted" }, _("Only a pit boss rules on a round."))); return; }
  if (data.pending) { box.replaceChildren(); return; }
  const allowed = { confirm: ["held", "result", "settled", "voided"].includes(st), correct: ["held", "settled"].includes(st),
    void: st !== "voided" };
  const choose = el("div", { class: "kind-buttons" }, [["confirm", _("Confirm the result")], ["correct", _("Correct a mis-read")], ["void", _("Void the round")]]
    .map(([k2, label]) => el("button", { type: "button", class: `btn ${formKind === k2 ? "primary" : ""}`, "data-kind": k2,
      disabled: !allowed[k2], onclick: () => { if (k2 !== "correct") picked = null; renderForm(k2); renderLayout(); } }, label)));
  const fields = [];
  const reason = el("input", { name: "reason", placeholder: _("Reason (required)"), maxlength: 500 });
  let body = null;
  if (formKind === "correct") {
    if (kind === "roulette") {
      const number = el("input", { name: "number", type: "number", min: 0, max: 36, placeholder: _("The real number") });
      fields.push(el("label", {}, _("The ball was really in"), number));
      body = () => number.value === "" ? null : { number: Number(number.value) };
    } else {
      const real = el("input", { name: "real_card", placeholder: _("e.g. 4C"), maxlength: 3, size: 4, "aria-label": _("the real card") });
      const whole = kind === "baccarat" ? el("input", { name: "cards", placeholder: _("or the whole coup in shoe order: 2H 7S 3D KC 4C") }) : null;
      fields.push(el("p", { class: "hint" }, picked ? _("Card #{n} was really:", { n: picked }) : _("Tap the mis-read card above, then say what it really was.")),
        picked ? real : "", whole || "");
      body = () => {
        if (whole && whole.value.trim()) return { cards: whole.value.trim().split(/[\s,]+/) };
        if (!picked || !real.value.trim()) return null;
        return { replace: { [String(picked)]: real.value.trim().toUpperCase() } };
      };
    }
  }
  const submit = el("button", { class: `btn ${formKind === "void" ? "danger" : "primary"}`, "data-action": "rule", type: "button",
    onclick: async () => {
      const why = reason.value.trim();
      if (why.length < 3) { toast(_("Say why (a few words)"), "warning"); reason.focus(); return; }
      const extra = body ? body() : {};
      if (body && !extra) { toast(_("Say what was mis-read and what it really was"), "warning"); return; }
      try {
        await rule(roundId, { kind: formKind, reason: why, ...extra }, _("Ruling recorded on round {n}", { n: data.round.number }));
        picked = null; formKind = null; await refresh();
      } catch (e) { toast(e.message, "error"); }
    } }, { confirm: _("Confirm"), correct: _("Correct and re-settle"), void: _("Void: return every bet") }[formKind] || "");
  const threshold = Number(page.dataset.threshold || 0);
  box.replaceChildren(choose, formKind ? el("div", { class: "ruling-fields" }, ...fields, reason, submit,
    el("p", { class: "hint" }, _("A void or correction moving more than {amount} waits for a second pit boss.", { amount: money(threshold) }))) : "");
}

// --- bets, timeline, transfers, audit ---------------------------------------------------------------

function who(x) {
  return [x.by, x.terminal ? `@ ${x.terminal}` : ""].filter(Boolean).join(" ");
}

function renderBets() {
  const tb = document.querySelector("#bets-table tbody");
  tb.replaceChildren(...(data.bets.length ? data.bets.map(b => el("tr", { "data-bet": b.id },
    el("td", {}, `#${b.id}`),
    el("td", {}, b.player ? `${b.player} (${b.player_id})` : "", b.seat ? " " + _("seat {seat}", { seat: b.seat }) + (b.hand > 1 ? "/" + b.hand : "") : ""),
    el("td", {}, term(b.spot), b.numbers && b.numbers.length < 37 ? el("span", { class: "muted" }, ` ${b.numbers.join("-")}`) : ""),
    el("td", { class: "num" }, amount(b.amount)),
    el("td", {}, time(b.at)),
    el("td", {}, who(b), el("span", { class: "muted" }, ` (${term(b.source)})`)),
    el("td", { class: "num" }, b.settled_returned === null ? "–" : amount(b.settled_returned)),
    el("td", { class: "num" }, b.corrections ? amount(b.corrections) : "–"),
    el("td", { class: "num" }, b.returned_now === null ? "–" : amount(b.returned_now))))
    : [el("tr", {}, el("td", { colspan: 9, class: "empty" }, _("No bet.")))]));
  const t = data.totals;
  document.querySelector("#bets-table tfoot").replaceChildren(el("tr", {}, el("th", { colspan: 3 }, _("Total")),
    el("th", { class: "num" }, amount(t.staked)), el("th", { colspan: 4 }), el("th", { class: "num" }, t.returned === null ? "–" : amount(t.returned))));
}

// Where a card came from or went: "shoe", "player1" (the player's first card), "seat:3:2".
function place(code) {
  const m = /^([a-z_]+?):?(\d+)?(?::(\d+))?$/.exec(code || "");
  if (!m) return code || "";
  if (m[1] === "seat" && m[2]) return m[3] ? _("seat {seat} hand {hand}", { seat: m[2], hand: m[3] }) : _("seat {seat}", { seat: m[2] });
  return term(m[1]) + (m[2] ? ` ${m[2]}` : "");
}

function details(e) {
  switch (e.type) {
    case "frame": return [el("span", { class: "muted" }, `${e.device} `), el("code", { class: "raw" }, e.raw || _("(no bytes)")),
      " → ", el("span", { class: "decoded" }, e.decoded)];
    case "card": return [cardEl(e.card), ` ${place(e.source)}`, e.target ? ` → ${place(e.target)}` : "", e.step ? el("span", { class: "muted" }, ` #${e.step}`) : "",
      e.accepted ? "" : el("span", { class: "reason" }, " " + _("refused: {reason}", { reason: e.reason }))];
    case "event": {
      const d = e.data || {};
      const text = e.kind === "decision" ? `${_("seat {seat}", { seat: d.seat })} ${term(d.action)}${d.amount ? " " + money(d.amount) : ""}`
        : e.to ? `${e.from ? term(e.from) : "—"} → ${term(e.to)}` : term(e.kind);
      if (d.msg) return [el("b", {}, text), " ", say(d.msg)];   // a switch to entry by hand and back
      if (e.kind === "entered_by_hand" || e.kind === "keyed_by_hand") {
        const res = d.result || {};
        const what = res.number !== undefined ? ` ${res.number}` : res.winner ? ` ${term(res.winner)}` : "";
        return [el("b", { class: "by-hand-mark" }, text + what), " ", e.kind === "entered_by_hand"
          ? _("keyed by {keyer}, confirmed by {confirmer}", { keyer: (d.keyed_by || []).join(", "), confirmer: d.confirmed_by })
          : _("keyed by {keyer}", { keyer: (d.keyed_by || []).join(", ") })];
      }
      const extra = d.reason ? ` (${d.reason})` : d.winner ? ` (${term(d.winner)})` : d.number !== undefined ? ` (${d.number})` : "";
      return [el("b", {}, text), extra];
    }
    case "bet": return [term(e.spot), e.seat ? " " + _("seat {seat}", { seat: e.seat }) : "", e.player ? ` · ${e.player}` : "", " ", el("b", {}, money(e.amount))];
    case "transfer": return [`${term(e.kind)} `, el("b", {}, money(e.amount)), ` ${e.from_label} → ${e.to_label}`, e.bet_id ? el("span", { class: "muted" }, " " + _("bet #{id}", { id: e.bet_id })) : ""];
    case "settlement": return [el("b", {}, term(e.outcome)), " " + _("{n} bets, staked {staked}, returned {returned}", { n: e.bets, staked: money(e.staked), returned: money(e.returned) }),
      e.commission ? ", " + _("commission {amount}", { amount: money(e.commission) }) : "", e.reason ? ` (${e.reason})` : ""];
    case "ruling": return [el("b", {}, `${term(e.kind)} (${STATE()[e.state]})`), ` ${e.reason}`, e.amount ? ` · ${money(e.amount)}` : ""];
    case "approval": return [el("b", {}, term(e.decision)), e.reason ? ` ${e.reason}` : ""];
    default: return [JSON.stringify(e)];
  }
}

function renderTimeline() {
  const tb = document.querySelector("#timeline-table tbody");
  const group = t => (t === "settlement" ? "transfer" : t === "approval" ? "ruling" : t);
  tb.replaceChildren(...data.entries.filter(e => !hidden.has(group(e.type))).map(e => el("tr", { class: `row-${e.type}`, "data-type": e.type },
    el("td", { class: "time" }, time(e.at)),
    el("td", {}, el("span", { class: `tl-type ${e.type}` }, TYPES()[e.type] || e.type)),
    el("td", {}, details(e)),
    el("td", { class: "muted" }, e.type === "frame" ? e.device : e.type === "ruling" ? `${e.decided_by_name} @ ${e.terminal}`
      : e.type === "approval" ? `${e.by_name} @ ${e.terminal}` : who(e)))));
  const f = document.getElementById("tl-filters");
  f.replaceChildren(...FILTERS().map(([t, label]) => el("button", { type: "button", class: `chip ${hidden.has(t) ? "" : "on"}`, "data-filter": t,
    onclick: () => { hidden.has(t) ? hidden.delete(t) : hidden.add(t); renderTimeline(); } },
    `${label} ${data.entries.filter(e => group(e.type) === t).length}`)));
}

function renderTransfers() {
  document.querySelector("#transfers-table tbody").replaceChildren(...(data.transfers.length ? data.transfers.map(t =>
    el("tr", { class: t.kind === "correction" ? "correction" : "" }, el("td", {}, time(t.at)), el("td", {}, term(t.kind)),
      el("td", {}, t.from_label), el("td", {}, t.to_label), el("td", { class: "num" }, amount(t.amount)),
      el("td", {}, t.bet_id ? `#${t.bet_id}` : ""), el("td", { class: "muted" }, t.memo || "")))
    : [el("tr", {}, el("td", { colspan: 7, class: "empty" }, _("No transfer.")))]));
}

function renderAudit() {
  document.querySelector("#audit-table tbody").replaceChildren(...data.audit.map(a => el("tr", {},
    el("td", {}, time(a.at)), el("td", {}, a.action), el("td", {}, `${a.by} (${term(a.role)})`), el("td", {}, a.terminal),
    el("td", {}, el("code", { class: "raw" }, (a.after || "").slice(0, 160))))));
}

function renderHead() {
  const r = data.round;
  const st = document.getElementById("tl-status");
  st.className = `round-status ${r.status}`;
  st.textContent = term(r.status);
  const bits = [term(r.kind)];
  if (r.coup) bits.push(_("coup {n}", { n: r.coup }));
  if (r.spin) bits.push(_("spin {n}", { n: r.spin }));
  bits.push(_("opened {time}", { time: time(r.opened_at) }));
  if (r.locked_at) bits.push(_("no more bets {time}", { time: time(r.locked_at) }));
  if (r.ended_at) bits.push(_("ended {time}", { time: time(r.ended_at) }));
  if (r.held_reason) bits.push(_("held: {reason}", { reason: r.held_reason }));
  const byHand = (r.result || {}).hand_entry;
  if (byHand) bits.push(_("entered by hand: keyed by {keyer}, confirmed by {confirmer}", { keyer: byHand.keyed_by.join(", "), confirmer: byHand.confirmed_by }));
  document.getElementById("tl-facts").textContent = bits.join(" · ");
}

function render() {
  renderHead(); renderLayout(); renderReplay(); renderRulings(); renderForm(); renderBets(); renderTimeline(); renderTransfers(); renderAudit();
}

const answered = newestOnly();
async function refresh() {
  try { await answered(api("GET", `/api/pit/rounds/${roundId}/timeline`), d => { data = d; render(); }); } catch (e) { toast(e.message, "error"); }
}

render();
const socket = connect();
socket.on("connect", () => socket.emit("join_table", { table_id: Number(page.dataset.table) }));
for (const ev of ["round.changed", "round.settled", "round.voided", "round.held", "round.corrected", "round.result", "round.card"]) {
  socket.on(ev, p => { if ((p.id ?? p.round_id) === roundId) refresh(); });
}
socket.on("bet.placed", p => { if (p.round_id === roundId) refresh(); });
socket.on("ruling.changed", p => { if (p.round_id === roundId) refresh(); });
window.__timeline = { refresh };
