// A round laid out again for a dispute: the cards as dealt (pictures), the replay by the house rules,
// every frame, state change, bet, decision and transfer in time order, and the pit boss's rulings.
import { api, connect, el, money, toast } from "./live.js";
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

const pad = (n, w = 2) => String(n).padStart(w, "0");
function time(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}
const SIDE = { player: "Player", banker: "Banker", tie: "Tie" };
const TYPES = { frame: "Device frame", card: "Card", event: "State", bet: "Bet", transfer: "Transfer",
  settlement: "Settlement", ruling: "Ruling", approval: "Second pit boss" };
const FILTERS = [["frame", "Frames"], ["card", "Cards"], ["event", "States & decisions"], ["bet", "Bets"],
  ["transfer", "Transfers"], ["ruling", "Rulings"]];

// --- the cards as dealt ---------------------------------------------------------------------------

function cardBox(c, selectable) {
  const cls = ["tl-card"];
  if (c.corrected) cls.push("corrected");
  if (selectable && picked === c.step) cls.push("picked");
  const box = el("span", { class: cls.join(" "), "data-step": c.step ?? "", title: c.step ? `card ${c.step} of the deal` : "" },
    cardEl(c.card), el("small", {}, c.corrected ? `was ${c.was}` : c.step ? `#${c.step}` : ""));
  if (selectable && c.step) {
    box.classList.add("pickable");
    box.addEventListener("click", () => { picked = c.step; renderLayout(); renderForm("correct"); });
  }
  return box;
}

function layoutView(lay, selectable) {
  if (!lay) return el("p", { class: "empty" }, "Nothing dealt.");
  if (lay.kind === "roulette") {
    return lay.number === null || lay.number === undefined ? el("p", { class: "empty" }, "No number yet.")
      : el("div", { class: "wheel-result" }, ball(lay.number, "big"), el("span", { class: "muted" }, ` ${lay.colour}`));
  }
  if (lay.kind === "baccarat") {
    const hand = side => el("div", { class: `bac-hand ${lay.winner === side ? "won" : ""}`, "data-side": side },
      el("h3", {}, SIDE[side], lay.totals[side] !== null ? el("span", { class: "total" }, String(lay.totals[side])) : ""),
      el("div", { class: "card-row" }, lay[side].map(c => cardBox(c, selectable))));
    return el("div", { class: "bac-layout" }, hand("player"), hand("banker"),
      lay.winner ? el("p", { class: "result-line" }, lay.winner === "tie" ? "Tie" : `${SIDE[lay.winner]} wins`) : null);
  }
  const dealer = el("div", { class: "dealer-box" }, el("h3", {}, "Dealer",
    lay.dealer_total ? el("span", { class: "total" }, String(lay.dealer_total)) : ""),
    el("div", { class: "card-row" }, lay.dealer.map(c => cardBox(c, selectable))));
  const board = lay.kind === "casino_holdem" ? el("div", { class: "board-box" }, el("h3", {}, "Board"),
    el("div", { class: "card-row" }, lay.board.map(c => cardBox(c, selectable)))) : null;
  const seats = el("div", { class: "seat-boxes" }, lay.seats.map(s => el("div", { class: "seat-box", "data-seat": s.seat },
    el("h3", {}, `Seat ${s.seat}`),
    s.hands.map(h => el("div", { class: "bj-hand" },
      s.hands.length > 1 ? el("span", { class: "muted" }, `hand ${h.hand} `) : "",
      el("span", { class: "card-row" }, h.cards.map(c => cardBox(c, selectable))),
      h.total ? el("span", { class: "total" }, String(h.total)) : "")),
    s.decisions.length ? el("p", { class: "muted" }, s.decisions.join(", ").replaceAll("_", " ")) : null)));
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
    return `${res.number}` + (r ? ` (bare number ${r.bare ?? "–"}, state-5 line ${r.five ?? "–"})` : "");
  }
  if (kind === "baccarat") return res.winner === "tie" ? `Tie ${res.player_total}-${res.banker_total}`
    : `${SIDE[res.winner]} wins, player ${res.player_total} banker ${res.banker_total}`;
  if (res.dealer) return `dealer ${res.dealer.join(" ")}` + (res.board ? `, board ${res.board.join(" ")}` : "");
  return JSON.stringify(res);
}

function renderReplay() {
  const rp = data.replay;
  const box = document.getElementById("replay-view");
  if (!rp.result) { box.replaceChildren(el("p", { class: "empty" }, "Nothing to replay: no complete set of cards or readings.")); return; }
  const verdict = rp.result_matches === null ? el("p", { class: "verdict unknown" }, "Not settled from a device result: nothing to compare.")
    : rp.result_matches ? el("p", { class: "verdict ok" }, "✓ Matches the result that was settled")
      : el("p", { class: "verdict bad" }, "✗ Differs from the result that was settled: ", resultText(rp.settled_result));
  const pays = rp.payouts_match === null ? null : rp.payouts_match ? el("p", { class: "verdict ok" }, "✓ Every bet was paid as the rules say")
    : el("p", { class: "verdict bad" }, `✗ ${rp.bets.filter(b => !b.matches).length} bet(s) paid differently from the rules`);
  box.replaceChildren(el("p", {}, "Recomputed from the recorded ", kind === "roulette" ? "wheel readings" : "cards", ": ",
    el("strong", { id: "replay-result" }, resultText(rp.result))), verdict, pays || "",
    rp.bets.length ? el("table", { class: "pit-table compact" },
      el("thead", {}, el("tr", {}, el("th", {}, "Bet"), el("th", {}, "Spot"), el("th", { class: "num" }, "Rules pay"), el("th", { class: "num" }, "Settled"))),
      el("tbody", {}, rp.bets.map(b => el("tr", { class: b.matches ? "" : "bad" }, el("td", {}, `#${b.bet_id}`), el("td", {}, b.spot + (b.seat ? ` seat ${b.seat}` : "")),
        el("td", { class: "num" }, money(b.replay_returns)), el("td", { class: "num" }, money(b.settled_returned)))))) : "");
}

// --- rulings -----------------------------------------------------------------------------------

const STATE = { applied: "applied", pending: "waits for a second pit boss", rejected: "rejected", withdrawn: "withdrawn" };
function renderRulings() {
  const list = document.getElementById("rulings-list");
  const items = data.rulings.map(r => r.state === "pending"
    ? pendingItem(r, { canRule, me, done: refresh })
    : el("li", { class: `ruling ${r.state}`, "data-ruling": r.id },
      el("header", {}, el("h3", {}, `${r.kind} · ${STATE[r.state]}`), el("span", { class: "amount" }, money(r.amount))),
      el("p", {}, el("b", {}, r.decided_by_name), ` — ${r.reason}`, r.kind === "correct" ? el("span", { class: "muted" }, ` (${correctionText(r)})`) : ""),
      el("p", { class: "muted" }, `${time(r.at)} · ${r.terminal}`,
        r.approval ? ` · ${r.approval.decision} by ${r.approval.by_name}${r.approval.reason ? ": " + r.approval.reason : ""}` : "")));
  list.replaceChildren(...(items.length ? items : [el("li", { class: "empty" }, "No ruling on this round.")]));
}

let formKind = null;
function renderForm(k = formKind) {
  formKind = k;
  const box = document.getElementById("ruling-form");
  const st = data.round.status;
  if (!canRule) { box.replaceChildren(el("p", { class: "muted" }, "Only a pit boss rules on a round.")); return; }
  if (data.pending) { box.replaceChildren(); return; }
  const allowed = { confirm: ["held", "result", "settled", "voided"].includes(st), correct: ["held", "settled"].includes(st),
    void: st !== "voided" };
  const choose = el("div", { class: "kind-buttons" }, [["confirm", "Confirm the result"], ["correct", "Correct a mis-read"], ["void", "Void the round"]]
    .map(([k2, label]) => el("button", { type: "button", class: `btn ${formKind === k2 ? "primary" : ""}`, "data-kind": k2,
      disabled: !allowed[k2], onclick: () => { if (k2 !== "correct") picked = null; renderForm(k2); renderLayout(); } }, label)));
  const fields = [];
  const reason = el("input", { name: "reason", placeholder: "Reason (required)", maxlength: 500 });
  let body = null;
  if (formKind === "correct") {
    if (kind === "roulette") {
      const number = el("input", { name: "number", type: "number", min: 0, max: 36, placeholder: "The real number" });
      fields.push(el("label", {}, "The ball was really in", number));
      body = () => number.value === "" ? null : { number: Number(number.value) };
    } else {
      const real = el("input", { name: "real_card", placeholder: "e.g. 4C", maxlength: 3, size: 4 });
      const whole = kind === "baccarat" ? el("input", { name: "cards", placeholder: "or the whole coup in shoe order: 2H 7S 3D KC 4C" }) : null;
      fields.push(el("p", { class: "hint" }, picked ? `Card #${picked} was really:` : "Tap the mis-read card above, then say what it really was."),
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
      if (why.length < 3) { toast("Say why (a few words)", "warning"); reason.focus(); return; }
      const extra = body ? body() : {};
      if (body && !extra) { toast("Say what was mis-read and what it really was", "warning"); return; }
      try {
        await rule(roundId, { kind: formKind, reason: why, ...extra }, `Ruling recorded on round ${data.round.number}`);
        picked = null; formKind = null; await refresh();
      } catch (e) { toast(e.message, "error"); }
    } }, { confirm: "Confirm", correct: "Correct and re-settle", void: "Void: return every bet" }[formKind] || "");
  const threshold = Number(page.dataset.threshold || 0);
  box.replaceChildren(choose, formKind ? el("div", { class: "ruling-fields" }, ...fields, reason, submit,
    el("p", { class: "hint" }, `A void or correction moving more than ${money(threshold)} waits for a second pit boss.`)) : "");
}

// --- bets, timeline, transfers, audit ---------------------------------------------------------------

function who(x) {
  return [x.by, x.terminal ? `@ ${x.terminal}` : ""].filter(Boolean).join(" ");
}

function renderBets() {
  const tb = document.querySelector("#bets-table tbody");
  tb.replaceChildren(...(data.bets.length ? data.bets.map(b => el("tr", { "data-bet": b.id },
    el("td", {}, `#${b.id}`),
    el("td", {}, b.player ? `${b.player} (${b.player_id})` : "", b.seat ? ` seat ${b.seat}${b.hand > 1 ? "/" + b.hand : ""}` : ""),
    el("td", {}, b.spot, b.numbers && b.numbers.length < 37 ? el("span", { class: "muted" }, ` ${b.numbers.join("-")}`) : ""),
    el("td", { class: "num" }, money(b.amount)),
    el("td", {}, time(b.at)),
    el("td", {}, who(b), el("span", { class: "muted" }, ` (${b.source})`)),
    el("td", { class: "num" }, b.settled_returned === null ? "–" : money(b.settled_returned)),
    el("td", { class: "num" }, b.corrections ? money(b.corrections) : "–"),
    el("td", { class: "num" }, b.returned_now === null ? "–" : money(b.returned_now))))
    : [el("tr", {}, el("td", { colspan: 9, class: "empty" }, "No bet."))]));
  const t = data.totals;
  document.querySelector("#bets-table tfoot").replaceChildren(el("tr", {}, el("th", { colspan: 3 }, "Total"),
    el("th", { class: "num" }, money(t.staked)), el("th", { colspan: 4 }), el("th", { class: "num" }, t.returned === null ? "–" : money(t.returned))));
}

function details(e) {
  switch (e.type) {
    case "frame": return [el("span", { class: "muted" }, `${e.device} `), el("code", { class: "raw" }, e.raw || "(no bytes)"),
      " → ", el("span", { class: "decoded" }, e.decoded)];
    case "card": return [cardEl(e.card), ` ${e.source}`, e.target ? ` → ${e.target}` : "", e.step ? el("span", { class: "muted" }, ` #${e.step}`) : "",
      e.accepted ? "" : el("span", { class: "reason" }, ` refused: ${e.reason}`)];
    case "event": {
      const d = e.data || {};
      const text = e.kind === "decision" ? `seat ${d.seat} ${String(d.action).replaceAll("_", " ")}${d.amount ? " " + money(d.amount) : ""}`
        : e.to ? `${e.from || "—"} → ${e.to}` : e.kind.replaceAll("_", " ");
      const extra = d.reason ? ` (${d.reason})` : d.winner ? ` (${d.winner})` : d.number !== undefined ? ` (${d.number})` : "";
      return [el("b", {}, text), extra];
    }
    case "bet": return [`${e.spot}`, e.seat ? ` seat ${e.seat}` : "", e.player ? ` · ${e.player}` : "", " ", el("b", {}, money(e.amount))];
    case "transfer": return [`${e.kind} `, el("b", {}, money(e.amount)), ` ${e.from_label} → ${e.to_label}`, e.bet_id ? el("span", { class: "muted" }, ` bet #${e.bet_id}`) : ""];
    case "settlement": return [el("b", {}, e.outcome), ` ${e.bets} bets, staked ${money(e.staked)}, returned ${money(e.returned)}`,
      e.commission ? `, commission ${money(e.commission)}` : "", e.reason ? ` (${e.reason})` : ""];
    case "ruling": return [el("b", {}, `${e.kind} (${STATE[e.state]})`), ` ${e.reason}`, e.amount ? ` · ${money(e.amount)}` : ""];
    case "approval": return [el("b", {}, e.decision), e.reason ? ` ${e.reason}` : ""];
    default: return [JSON.stringify(e)];
  }
}

function renderTimeline() {
  const tb = document.querySelector("#timeline-table tbody");
  const group = t => (t === "settlement" ? "transfer" : t === "approval" ? "ruling" : t);
  tb.replaceChildren(...data.entries.filter(e => !hidden.has(group(e.type))).map(e => el("tr", { class: `row-${e.type}`, "data-type": e.type },
    el("td", { class: "time" }, time(e.at)),
    el("td", {}, el("span", { class: `tl-type ${e.type}` }, TYPES[e.type] || e.type)),
    el("td", {}, details(e)),
    el("td", { class: "muted" }, e.type === "frame" ? e.device : e.type === "ruling" ? `${e.decided_by_name} @ ${e.terminal}`
      : e.type === "approval" ? `${e.by_name} @ ${e.terminal}` : who(e)))));
  const f = document.getElementById("tl-filters");
  f.replaceChildren(...FILTERS.map(([t, label]) => el("button", { type: "button", class: `chip ${hidden.has(t) ? "" : "on"}`, "data-filter": t,
    onclick: () => { hidden.has(t) ? hidden.delete(t) : hidden.add(t); renderTimeline(); } },
    `${label} ${data.entries.filter(e => group(e.type) === t).length}`)));
}

function renderTransfers() {
  document.querySelector("#transfers-table tbody").replaceChildren(...(data.transfers.length ? data.transfers.map(t =>
    el("tr", { class: t.kind === "correction" ? "correction" : "" }, el("td", {}, time(t.at)), el("td", {}, t.kind),
      el("td", {}, t.from_label), el("td", {}, t.to_label), el("td", { class: "num" }, money(t.amount)),
      el("td", {}, t.bet_id ? `#${t.bet_id}` : ""), el("td", { class: "muted" }, t.memo || "")))
    : [el("tr", {}, el("td", { colspan: 7, class: "empty" }, "No transfer."))]));
}

function renderAudit() {
  document.querySelector("#audit-table tbody").replaceChildren(...data.audit.map(a => el("tr", {},
    el("td", {}, time(a.at)), el("td", {}, a.action), el("td", {}, `${a.by} (${a.role})`), el("td", {}, a.terminal),
    el("td", {}, el("code", { class: "raw" }, (a.after || "").slice(0, 160))))));
}

function renderHead() {
  const r = data.round;
  const st = document.getElementById("tl-status");
  st.className = `round-status ${r.status}`;
  st.textContent = r.status;
  const bits = [{ roulette: "Roulette", baccarat: "Baccarat", blackjack: "Blackjack", casino_holdem: "Casino Hold'em" }[r.kind] || r.kind];
  if (r.coup) bits.push(`coup ${r.coup}`);
  if (r.spin) bits.push(`spin ${r.spin}`);
  bits.push(`opened ${time(r.opened_at)}`);
  if (r.locked_at) bits.push(`no more bets ${time(r.locked_at)}`);
  if (r.ended_at) bits.push(`ended ${time(r.ended_at)}`);
  if (r.held_reason) bits.push(`held: ${r.held_reason}`);
  document.getElementById("tl-facts").textContent = bits.join(" · ");
}

function render() {
  renderHead(); renderLayout(); renderReplay(); renderRulings(); renderForm(); renderBets(); renderTimeline(); renderTransfers(); renderAudit();
}

async function refresh() {
  try { data = await api("GET", `/api/pit/rounds/${roundId}/timeline`); render(); } catch (e) { toast(e.message, "error"); }
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
