// The tournament tablet (floor, cage, pit): pick a tournament; register players (receipt with the
// seat); start, pause and resume the clock; record players out on a hand with their chips at the start
// of it and the pot's winner; make the moves the tables need; offer a deal and take each agreement;
// cancel. Everything goes through /api/tournaments and is refreshed live, never reloaded.
import { api, connect, el, newestOnly, placeKeeping, redrawKeeping, refill, toast } from "./live.js";
import { playerPicker } from "./player_picker.js";
import { _, money, number, onLanguage, pgettext, term } from "./i18n.js";
import { askValue, confirmAction } from "./confirm.js";

const MANAGE = ["floor_manager", "admin"];
const REGISTER = ["floor_manager", "cashier", "admin"];

function button(label, onclick, cls = "btn") {
  return el("button", { class: cls, type: "button", onclick }, label);
}

function field(label, input) {
  return el("label", { class: "tn-field" }, el("span", {}, label), input);
}

async function act(fn, okText) {
  try { const out = await fn(); if (okText) toast(okText, "ok"); return out; } catch (e) { toast(e.message, "error"); return null; }
}

// Hand for hand at the bubble: which hand, which tables have played it.
export function handForHand(c) {
  if (!c.hand_for_hand) return null;
  const text = !c.hand_in_play
    ? (c.hand_for_hand_hand ? _("Hand for hand · hand {hand} over: waiting for the next deal", { hand: c.hand_for_hand_hand })
                            : _("Hand for hand · waiting for the first deal"))
    : _("Hand for hand · hand {hand}: {done} of {tables} tables done", { hand: c.hand_for_hand_hand, done: c.tables_done.length, tables: c.tables_in_play.length });
  return el("p", { class: "tn-hfh", role: "status" }, el("strong", {}, text));
}

function clockCard(t, role, reload) {
  const c = t.clock;
  const level = c.on_break ? _("Break") : c.level ? _("Level {n}", { n: c.level }) : _("Registration");
  const blinds = c.big_blind ? `${number(c.small_blind)} / ${number(c.big_blind)}${c.ante ? " · " + number(c.ante) : ""}` : "—";
  const manage = MANAGE.includes(role);
  const controls = [];
  if (manage && t.status === "registering") {
    controls.push(button(_("Start: draw the seats"), () => act(() => api("POST", `/api/tournaments/${t.id}/start`), _("Seats drawn")).then(reload), "btn primary tn-start"));
  }
  if (manage && t.status === "running" && c.hand_for_hand) {
    if (!c.hand_in_play) {
      controls.push(button(_("Deal the next hand at every table"), () => act(() => api("POST", `/api/tournaments/${t.id}/hand-for-hand/deal`)).then(reload), "btn primary tn-deal-hand"));
    } else {
      for (const n of c.tables_in_play.filter(n => !c.tables_done.includes(n))) {
        controls.push(button(_("Table {n} has played the hand", { n }), () => act(() => api("POST", `/api/tournaments/${t.id}/tables/${n}/hand-done`)).then(reload), "btn small tn-hand-done"));
      }
    }
  } else if (manage && t.status === "running") {
    if (c.late_registration_open) {
      controls.push(button(_("Close late registration"), async () => {
        if (!(await confirmAction(_("Close late registration?"),
          _("No more entries or re-entries. The players out so far are placed and paid."), _("Close late registration")))) return;
        act(() => api("POST", `/api/tournaments/${t.id}/close-registration`), _("Late registration closed")).then(reload);
      }, "btn tn-close-registration"));
    }
    controls.push(c.paused
      ? button(_("Resume the clock"), () => act(() => api("POST", `/api/tournaments/${t.id}/resume`)).then(reload), "btn primary")
      : button(_("Pause the clock"), async () => {
          const reason = await askValue(_("Pause the clock"), _("Why is the clock paused?"), { confirmLabel: _("Pause the clock") });
          if (reason) act(() => api("POST", `/api/tournaments/${t.id}/pause`, { reason })).then(reload);
        }));
  }
  return el("section", { class: "card tn-clock", "data-status": t.status },
    el("h2", {}, t.name, " ", el("span", { class: "tn-status" }, term(t.status))),
    el("p", { class: "tn-level" }, level, " · ", blinds, c.paused ? el("strong", { class: "tn-paused" }, " · ", _("Paused: {reason}", { reason: _(c.pause_reason) })) : null),
    handForHand(c),
    el("p", {}, _("{left} players left of {entries} entries · prize pool {pool}",
                  { left: c.players_left, entries: c.entries, pool: money(c.prize_pool) })),
    el("p", { class: "tn-payouts" }, c.payouts.map((p, i) => el("span", { class: "tn-pay" }, `${i + 1}. ${money(p)}`))),
    el("div", { class: "tn-row" }, ...controls,
      el("a", { class: "btn ghost", href: `/tournaments/${t.id}/clock` }, _("Clock on the board")),
      el("a", { class: "btn ghost", href: `/tournaments/${t.id}/results` }, _("Results"))));
}

// The last receipt stays on screen across redraws (live updates redraw the whole page).
let lastReceipt = null;

function receiptView(r) {
  if (!r) return [];
  return [el("strong", {}, r.player_name), " · ",
    r.seat ? _("table {table}, seat {seat}", { table: r.table, seat: r.seat }) : term(r.status), " · ", money(r.total),
    r.entry_number > 1 ? el("span", {}, " · ", _("re-entry {n}", { n: r.entry_number - 1 })) : null, " ",
    el("a", { class: "btn small", href: `/tournaments/${r.tournament_id}/entries/${r.entry_id}/receipt`, target: "_blank" },
      _("Print the receipt"))];
}

// Registering: the player picker used everywhere (any part of a name or card number), then one tap on
// the player. The card is made once per tournament and kept in place across live redraws, so the list
// is never redrawn under a finger; only the receipt changes.
let registerBox = null;      // { tid, node, receipt }

function registerCard(t, data, reload) {
  if (!registerBox || registerBox.tid !== t.id) {
    const paid = el("select", { id: "tn-paid", class: "tn-input" },
      el("option", { value: "cash" }, _("cash at the desk")), el("option", { value: "balance" }, _("from his balance")));
    const receipt = el("div", { id: "tn-receipt", class: "tn-receipt", "aria-live": "polite" });
    const picker = playerPicker({ listAll: false, limit: 12, onPick: async p => {
      const r = await act(() => api("POST", `/api/tournaments/${t.id}/entries`, { player_id: p.id, paid_with: paid.value }));
      if (!r) return;
      lastReceipt = r;
      picker.clear();
      picker.input.focus();
      refill(receipt, receiptView(r));
      reload();
    } });
    picker.input.id = "tn-player";
    picker.input.classList.add("tn-input");
    const node = el("section", { class: "card tn-register", "data-keep": `register-${t.id}` }, el("h3", {}, _("Register")),
      el("div", { class: "tn-row" }, field(_("Player"), picker.input), field(_("Paid with"), paid)), picker.results, receipt);
    registerBox = { tid: t.id, node, receipt };
  }
  refill(registerBox.receipt, lastReceipt && lastReceipt.tournament_id === t.id ? receiptView(lastReceipt) : []);
  return registerBox.node;
}

// Rebuys and the add-on, while the structure offers them: the floor or the cage sells the chips.
function buyButtons(t, role, e, reload) {
  if (!REGISTER.includes(role) || t.status !== "running" || e.status !== "seated") return [];
  const buy = (kind, label) => button(label, async () => {
    const input = document.querySelector(`.tn-chips[data-entry="${e.id}"]`);
    const now = await askValue(label, _("Chips {player} has now", { player: e.player_name }),
      { value: input ? input.value : String(e.chips), type: "number", inputmode: "numeric", confirmLabel: label });
    if (now === null) return;
    act(() => api("POST", `/api/tournaments/${t.id}/entries/${e.id}/purchases`, { kind, chips_now: Number(now), paid_with: "cash" }),
      kind === "rebuy" ? _("Rebuy paid") : _("Add-on paid")).then(reload);
  }, `btn small tn-${kind.replace("_", "-")}`);
  const out = [];
  if (t.clock.rebuy_open) out.push(" ", buy("rebuy", _("Rebuy")));
  if (t.clock.add_on_open && !e.add_ons) out.push(" ", buy("add_on", _("Add-on")));
  return out;
}

// A bust in two taps: tick the player out (two on one hand: tick both), then tap the pot's winner
// among the players at his table; his chips at the start of the hand are his last count. The last
// winner at each table is kept and comes first (the same player again after a split pot).
const lastWinner = new Map();    // table number -> entry id of the last pot winner there
let redrawBust = () => {};

// what is ticked is what the boxes on screen show (a live redraw keeps them: redrawKeeping)
const ticked = () => new Set([...document.querySelectorAll(".tn-out:checked")].map(x => Number(x.value)));

function bustPanel(t, playing, reload) {
  const built = el("div", { class: "tn-bust", id: "tn-bust", "aria-live": "polite" });
  // a live redraw may keep the panel already on screen (same markup): a tick fills that one
  const fill = (panel = document.getElementById("tn-bust") || built) => {
    const outTicked = ticked();
    const out = playing.filter(e => outTicked.has(e.id));
    if (!out.length) {
      refill(panel, [el("p", { class: "hint" }, _("Tap a player out, then the winner of the pot"))]);
      return;
    }
    const tables = new Set(out.map(e => e.table));
    const last = [...tables].map(n => lastWinner.get(n));
    const mates = playing.filter(e => tables.has(e.table) && !outTicked.has(e.id))
      .sort((a, b) => (last.includes(b.id) - last.includes(a.id)) || a.table - b.table || a.seat - b.seat);
    const send = async w => {
      const chips = id => Number(document.querySelector(`.tn-chips[data-entry="${id}"]`)?.value || playing.find(e => e.id === id).chips);
      const r = await act(() => api("POST", `/api/tournaments/${t.id}/busts`, {
        busts: out.map(e => ({ entry_id: e.id, chips_at_start: chips(e.id) })), winners: [w.id] }));
      if (!r) return;
      lastWinner.set(w.table, w.id);
      toast(r.eliminations.map(x => x.place ? _("place {place}", { place: x.place })
        : _("out: placed when late registration closes")).join(", "), "ok");
      reload();
    };
    // refill: the buttons stay the same nodes while unchanged, so a tap across a live redraw lands
    refill(panel, [el("p", {}, el("strong", {}, _("{players} out: pot won by", { players: out.map(e => e.player_name).join(", ") }))),
      el("div", { class: "tn-row" }, mates.map(w => el("button", { type: "button", "data-entry": w.id, onclick: () => send(w),
        class: `btn tn-winner${last.includes(w.id) ? " primary" : ""}` }, `${w.player_name} · ${w.table}/${w.seat}`)))]);
  };
  redrawBust = () => fill();
  fill(built);
  return built;
}

function entriesCard(t, role, reload) {
  const playing = t.entries.filter(e => e.status === "seated");
  const canBust = MANAGE.includes(role) && t.status === "running";
  const rows = [...t.entries].sort((a, b) => (a.table ?? 99) - (b.table ?? 99) || (a.seat ?? 0) - (b.seat ?? 0) || (a.place ?? 0) - (b.place ?? 0))
    .filter(e => e.status !== "refunded").map(e => el("tr", { "data-entry": e.id, "data-status": e.status },
      el("td", {}, canBust && e.status === "seated" ? el("input", { type: "checkbox", class: "tn-out", value: e.id,
        onchange: () => redrawBust(),
        "aria-label": _("{player} is out", { player: e.player_name }) }) : ""),
      el("td", {}, e.player_name, e.number > 1 ? ` (${e.number})` : "",
        e.rebuys ? el("span", { class: "tn-bought" }, " · ", _("rebuys: {n}", { n: e.rebuys })) : null,
        e.add_ons ? el("span", { class: "tn-bought" }, " · ", _("add-on")) : null,
        ...buyButtons(t, role, e, reload)),
      el("td", { class: e.banned ? "tn-banned" : "" }, term(e.banned ? "out:banned" : e.status)),
      el("td", { class: "num" }, e.table ?? ""), el("td", { class: "num" }, e.seat ?? ""),
      el("td", { class: "num" }, canBust && e.status === "seated"
        ? el("input", { type: "number", min: 1, class: "tn-chips", "data-entry": e.id, value: e.chips, inputmode: "numeric",
                      "aria-label": _("chips of {player}", { player: e.player_name }) }) : (e.status === "seated" ? number(e.chips) : "")),
      el("td", { class: "num" }, e.place ?? ""), el("td", { class: "num" }, e.prize ? money(e.prize) : ""),
      el("td", { class: "num" }, e.bounties_won ? money(e.bounties_won) : "")));
  const table = el("table", { class: "tn-entries" },
    el("thead", {}, el("tr", {}, el("th", {}, ""), el("th", {}, _("Player")), el("th", {}, _("Status")), el("th", {}, _("Table")),
      el("th", {}, _("Seat")), el("th", {}, _("Chips")), el("th", {}, pgettext("finishing place", "Place")), el("th", {}, _("Prize")), el("th", {}, _("Bounties")))),
    el("tbody", {}, rows));
  const parts = [el("h3", {}, _("Players")), table];
  if (canBust) parts.push(countsRow(t, playing, reload));
  if (canBust) parts.push(bustPanel(t, playing, reload));
  return el("section", { class: "card tn-players", "data-keep": `players-${t.id}` }, ...parts);
}

// Chip counts, a table at a time: the chips typed in the players' rows of that table are kept; the
// counts not adding up to the chips in play (a stack mistyped, a table not counted since) are flagged.
function countsRow(t, playing, reload) {
  const c = t.clock;
  const numbers = [...new Set(playing.map(e => e.table))].sort((a, b) => a - b);
  const save = n => act(() => api("POST", `/api/tournaments/${t.id}/chips`, { table: n,
    stacks: playing.filter(e => e.table === n).map(e => ({ entry_id: e.id,
      chips: Number(document.querySelector(`.tn-chips[data-entry="${e.id}"]`).value) })) }),
    _("Count of table {n} kept", { n })).then(reload);
  return el("div", { class: "tn-counts" },
    el("p", { class: c.counts_add_up ? "tn-count-ok" : "tn-count-off", role: "status" },
      c.counts_add_up ? _("Chip counts add up to the {chips} chips in play", { chips: number(c.chips_in_play) })
        : _("Chip counts add up to {counted}, not the {chips} chips in play: count again", { counted: number(c.chips_counted), chips: number(c.chips_in_play) })),
    el("div", { class: "tn-row" }, numbers.map(n => button(_("Save the count of table {n}", { n }), () => save(n), "btn tn-save-count"))));
}

function movesCard(t, role, reload) {
  if (!t.moves.length) return null;
  return el("section", { class: "card tn-moves", "aria-live": "polite", "data-keep": `moves-${t.id}` }, el("h3", {}, _("Moves to make")),
    el("ul", {}, t.moves.map(m => el("li", { "data-move": m.id },
      el("strong", {}, m.player_name), " ",
      _("table {ft} seat {fs} → table {tt} seat {ts}", { ft: m.from_table, fs: m.from_seat, tt: m.to_table, ts: m.to_seat }),
      " · ", term(m.reason), " ",
      MANAGE.includes(role) ? button(_("Done"), () => act(() => api("POST", `/api/tournaments/${t.id}/moves/${m.id}/done`)).then(reload), "btn small") : null))));
}

// Money that waits for a second person (the ledger's check): a floor manager or a pit boss approves,
// never the one who asked (the server answers 403 to him).
const APPROVE = ["floor_manager", "pit_boss"];

function dealCard(t, role, reload) {
  const waiting = t.deal && t.deal.status === "agreed";
  if (!(MANAGE.includes(role) || (waiting && APPROVE.includes(role))) || t.status !== "running") return null;
  const seated = t.entries.filter(e => e.status === "seated");
  if (seated.length > t.clock.payouts.length || t.clock.late_registration_open) return null;
  const name = id => (t.entries.find(e => e.id === id) || {}).player_name;
  const parts = [el("h3", {}, _("Deal"))];
  if (waiting) {
    const d = t.deal;
    parts.push(el("table", { class: "tn-deal" }, el("tbody", {}, d.entry_ids.map((id, i) => el("tr", { "data-entry": id },
      el("td", {}, name(id)), el("td", { class: "num" }, number(d.stacks[i])), el("td", { class: "num tn-amount" }, money(d.amounts[i])),
      el("td", {}, _("agreed")))))),
      el("p", { class: "hint tn-deal-waiting", role: "status" },
        _("Everyone agreed: a second person, not the one who recorded the agreements, approves the payouts.")),
      el("div", { class: "tn-row" },
        APPROVE.includes(role) ? button(_("Approve the payouts"), () => act(() => api("POST", `/api/tournaments/${t.id}/deals/${d.id}/approve`),
          _("Deal paid")).then(reload), "btn primary tn-deal-approve") : null,
        button(_("Withdraw the offer"), () => act(() => api("POST", `/api/tournaments/${t.id}/deals/${d.id}/withdraw`, { reason: "declined" })).then(reload), "btn ghost")));
  } else if (!MANAGE.includes(role)) {
    return null;
  } else if (t.deal && t.deal.status === "offered") {
    const d = t.deal;
    parts.push(el("table", { class: "tn-deal" }, el("tbody", {}, d.entry_ids.map((id, i) => el("tr", { "data-entry": id },
      el("td", {}, name(id)), el("td", { class: "num" }, number(d.stacks[i])), el("td", { class: "num tn-amount" }, money(d.amounts[i])),
      el("td", {}, d.agreed.includes(id) ? _("agreed")
        : button(_("Agrees"), () => act(() => api("POST", `/api/tournaments/${t.id}/deals/${d.id}/agree`, { entry_id: id })).then(reload), "btn small tn-agree")))))),
      d.save ? el("p", {}, _("{save} kept back for the winner", { save: money(d.save) })) : null,
      button(_("Withdraw the offer"), () => act(() => api("POST", `/api/tournaments/${t.id}/deals/${d.id}/withdraw`, { reason: "declined" })).then(reload), "btn ghost"));
  } else {
    const method = el("select", { id: "tn-deal-method", class: "tn-input" },
      el("option", { value: "icm" }, term("icm")), el("option", { value: "chip_chop" }, term("chip_chop")));
    const go = () => act(() => api("POST", `/api/tournaments/${t.id}/deals`, { method: method.value, save: 0,
      stacks: seated.map(e => ({ entry_id: e.id, chips: Number(document.querySelector(`.tn-chips[data-entry="${e.id}"]`).value) })) })).then(reload);
    parts.push(el("p", {}, _("Everyone left is in the money: the chips entered above make the deal.")),
      el("div", { class: "tn-row" }, field(_("Method"), method), button(_("Compute the deal"), go, "btn primary tn-deal-compute")));
  }
  return el("section", { class: "card tn-deal-card" }, ...parts);
}

// Cancellation: the rule, the settlement it gives each player still in (from the chips entered above),
// then a confirmation before anything is paid. The players already out get nothing.
const CANCEL = ["floor_manager", "pit_boss", "admin"];
const CANCEL_RULES = ["fees_and_bounty_back", "fees_back", "online_room", "refund", "sit_and_go", "random_prize"];
let cancelPreview = null;   // {tournament, rule, shares}: kept across live redraws

function cancelCard(t, role, reload) {
  if (!CANCEL.includes(role) || !["registering", "running"].includes(t.status)) return null;
  const req = t.cancel_request;
  if (req) {
    const turnDown = async () => {
      const reason = await askValue(_("Turn it down"), _("Why is the cancellation turned down?"), { confirmLabel: _("Turn it down") });
      if (reason) act(() => api("POST", `/api/tournaments/${t.id}/cancel/reject`, { reason })).then(reload);
    };
    return el("section", { class: "card tn-cancel tn-cancel-waiting" }, el("h3", {}, _("Cancel the tournament")),
      el("p", { role: "status" }, _("{name} asks to cancel ({rule}): {reason}. A second person, not the one who asked, approves before anything is paid.",
        { name: req.requested_by, rule: term(`cancel:${req.rule || "refund"}`), reason: req.reason })),
      el("div", { class: "tn-row" },
        APPROVE.includes(role) ? button(_("Approve the cancellation"), () => act(() => api("POST", `/api/tournaments/${t.id}/cancel/approve`),
          _("Cancelled and settled")).then(() => { cancelPreview = null; reload(); }), "btn danger tn-cancel-approve") : null,
        button(_("Turn it down"), turnDown, "btn ghost")));
  }
  const stacks = () => t.entries.filter(e => e.status === "seated").map(e => ({
    entry_id: e.id, chips: Number(document.querySelector(`.tn-chips[data-entry="${e.id}"]`)?.value || e.chips) }));
  const rule = el("select", { id: "tn-cancel-rule", class: "tn-input" },
    CANCEL_RULES.map(r => el("option", { value: r, selected: cancelPreview?.rule === r ? "selected" : null }, term(`cancel:${r}`))));
  const pay = async (chosen) => {
    const reason = await askValue(_("Cancel the tournament"), _("Why is the tournament cancelled?"), { confirmLabel: _("Next") });
    if (!reason) return;
    if (!(await confirmAction(_("Cancel the tournament"), _("Cancel {name} and pay these amounts? This cannot be undone.", { name: t.name }),
      _("Cancel and pay")))) return;
    act(() => api("POST", `/api/tournaments/${t.id}/cancel`, { reason, stacks: t.status === "running" ? stacks() : [], rule: chosen }))
      .then(out => {
        if (out) toast(out.pending ? _("Waiting for a second person to approve the cancellation") : _("Cancelled and settled"), "ok");
        cancelPreview = null; reload();
      });
  };
  if (t.status === "registering") {
    return el("section", { class: "card tn-cancel" }, el("h3", {}, _("Cancel the tournament")),
      el("p", {}, _("Before the start every entry gets back all it paid.")),
      button(_("Cancel the tournament"), () => pay(null), "btn danger ghost"));
  }
  const preview = async () => {
    const shares = await act(() => api("POST", `/api/tournaments/${t.id}/cancellation`, { stacks: stacks(), rule: rule.value }));
    if (shares) { cancelPreview = { tournament: t.id, rule: rule.value, shares }; reload(); }
  };
  const parts = [el("h3", {}, _("Cancel the tournament")),
    el("div", { class: "tn-row" }, field(_("Rule"), rule), button(_("Show the settlement"), preview, "btn"))];
  if (cancelPreview && cancelPreview.tournament === t.id) {
    const name = id => (t.entries.find(e => e.id === id) || {}).player_name;
    parts.push(el("table", { class: "tn-entries tn-settlement" },
      el("thead", {}, el("tr", {}, el("th", {}, _("Player")), el("th", {}, _("Refund")), el("th", {}, _("Bounty")),
        el("th", {}, _("Next prize")), el("th", {}, _("Equal share")), el("th", {}, _("By chips")), el("th", {}, _("Total")))),
      el("tbody", {}, cancelPreview.shares.map(s => el("tr", { "data-entry": s.entry_id }, el("td", {}, name(s.entry_id)),
        ...[s.refund, s.bounty, s.next_prize, s.equal_share, s.chip_share].map(v => el("td", { class: "num" }, money(v))),
        el("td", { class: "num tn-amount" }, money(s.total)))))),
      el("p", { class: "hint" }, _("The players already out get nothing more.")),
      button(_("Confirm and pay: {rule}", { rule: term(`cancel:${cancelPreview.rule}`) }), () => pay(cancelPreview.rule), "btn danger tn-cancel-confirm"));
  }
  return el("section", { class: "card tn-cancel" }, ...parts);
}

// A new tournament from the tablet; amounts typed in the house currency, sent in cents.
function createCard(data, role, choose, reload) {
  if (!MANAGE.includes(role)) return null;
  const input = (id, type = "text", attrs = {}) => el("input", { id, type, class: "tn-input", ...attrs });
  const name = input("tn-new-name", "text", { value: _("Daily Turbo") });
  const game = el("select", { id: "tn-new-game", class: "tn-input" }, data.games.map(g => el("option", { value: g.id }, g.name)));
  const buyIn = input("tn-new-buyin", "number", { min: 1, step: "0.01", value: "100" });
  const fee = input("tn-new-fee", "number", { min: 0, step: "0.01", value: "15" });
  const kind = el("select", { id: "tn-new-bounty-kind", class: "tn-input" },
    ["none", "knockout", "progressive"].map(k => el("option", { value: k }, term(k))));
  const bounty = input("tn-new-bounty", "number", { min: 0, step: "0.01", value: "0" });
  const structure = el("select", { id: "tn-new-structure", class: "tn-input" },
    el("option", { value: "daily_turbo" }, _("Daily turbo")), el("option", { value: "weekly_deep_stack" }, _("Weekly deep stack")));
  const reentries = input("tn-new-reentries", "number", { min: 0, value: "1" });
  const seats = input("tn-new-seats", "number", { min: 2, max: 12, value: "9" });
  const guarantee = input("tn-new-guarantee", "number", { min: 0, step: "0.01", value: "0" });
  const tablesIn = input("tn-new-tables", "text", { placeholder: "21, 22, 23", inputmode: "numeric" });
  const rebuyPrice = input("tn-new-rebuy-price", "number", { min: 0, step: "0.01", value: "0" });
  const rebuyChips = input("tn-new-rebuy-chips", "number", { min: 1, value: "20000" });
  const rebuyUntil = input("tn-new-rebuy-until", "number", { min: 1, value: "4" });
  const addOnPrice = input("tn-new-addon-price", "number", { min: 0, step: "0.01", value: "0" });
  const addOnChips = input("tn-new-addon-chips", "number", { min: 1, value: "20000" });
  const addOnAfter = input("tn-new-addon-after", "number", { min: 1, value: "4" });
  const cents = x => Math.round(parseFloat(x.value || "0") * 100);
  const values = () => ({
    rebuy: cents(rebuyPrice) ? { price: cents(rebuyPrice), chips: Number(rebuyChips.value), until_level: Number(rebuyUntil.value) } : null,
    add_on: cents(addOnPrice) ? { price: cents(addOnPrice), chips: Number(addOnChips.value), after_level: Number(addOnAfter.value) } : null,
    name: name.value, game_id: Number(game.value), buy_in: cents(buyIn), fee: cents(fee), bounty_kind: kind.value,
    bounty: cents(bounty), structure: structure.value, max_reentries: Number(reentries.value || 0),
    seats_per_table: Number(seats.value), final_table_size: Number(seats.value), guarantee: cents(guarantee),
    table_numbers: tablesIn.value.split(/[ ,;]+/).filter(Boolean).map(Number),
  });
  const create = async () => {
    const t = await act(() => api("POST", "/api/tournaments", values()), _("Tournament created"));
    if (t) choose(t.id);
  };
  const keep = async () => {
    const label = await askValue(_("Save as a template"), _("Name of the template"), { value: name.value, confirmLabel: _("Save") });
    if (label && await act(() => api("POST", "/api/tournaments/templates", { template_name: label, tournament: values() }),
                           _("Template saved"))) reload();
  };
  return el("details", { id: "tn-create", class: "card tn-create" }, el("summary", { class: "btn ghost" }, _("New tournament")),
    el("div", { class: "tn-row" }, field(_("Name"), name), field(_("Game"), game), field(_("Structure"), structure)),
    el("div", { class: "tn-row" }, field(_("Buy-in"), buyIn), field(_("Fee"), fee), field(_("Bounty"), kind), field(_("Bounty amount"), bounty),
      field(_("Guarantee"), guarantee)),
    el("div", { class: "tn-row" }, field(_("Re-entries per player"), reentries), field(_("Seats per table"), seats),
      field(_("Tables, first to break first"), tablesIn)),
    el("div", { class: "tn-row" }, field(_("Rebuy price (0: none)"), rebuyPrice), field(_("Rebuy chips"), rebuyChips),
      field(_("Rebuys until level"), rebuyUntil), field(_("Add-on price (0: none)"), addOnPrice), field(_("Add-on chips"), addOnChips),
      field(_("Add-on after level"), addOnAfter)),
    el("div", { class: "tn-row" }, button(_("Create"), create, "btn primary"), button(_("Save as a template"), keep, "btn tn-save-template")));
}

function templatesCard(data, role, choose) {
  if (!MANAGE.includes(role)) return null;
  const box = el("div", { class: "tn-row" });
  const card = el("section", { class: "card tn-templates", hidden: true }, el("h3", {}, _("From a template")), box);
  api("GET", "/api/tournaments/templates").then(list => { card.hidden = !list.length; box.replaceChildren(...list.map(tpl =>
    button(_("New: {name}", { name: tpl.name }), async () => {
      const t = await act(() => api("POST", `/api/tournaments/templates/${tpl.id}/create`, {}));
      if (t) choose(t.id);
    }, "btn tn-from-template"))); }).catch(() => {});
  return card;
}

export function start(root) {
  const data = JSON.parse(document.getElementById("tn-data").textContent);
  let current = data.detail;
  const choose = async id => { current = { id }; await reload(); };
  const answered = newestOnly();
  const reload = () => answered(Promise.all([api("GET", "/api/tournaments"), current ? api("GET", `/api/tournaments/${current.id}`) : null]),
    ([list, detail]) => { data.tournaments = list; current = detail; draw(); });
  // A live update redraws the page: what someone is typing or ticking on this tablet is kept.
  const draw = () => { redrawKeeping(root, render); redrawBust(); };
  function render() {
    const tabs = el("nav", { class: "tn-tabs" }, data.tournaments.map(t =>
      button(`${t.name} · ${term(t.status)}`, () => choose(t.id), `btn${current && current.id === t.id ? " primary" : ""}`)));
    // the moves to make come first and stay in view (sticky) while the floor scrolls the players
    const body = current ? [movesCard(current, data.role, reload), clockCard(current, data.role, reload),
      REGISTER.includes(data.role) && (current.status === "registering" || current.clock.late_registration_open)
        ? registerCard(current, data, reload) : null,
      entriesCard(current, data.role, reload),
      dealCard(current, data.role, reload), cancelCard(current, data.role, reload)]
      : [el("p", {}, _("No tournament yet."))];
    // the players and their moves stay in place while unchanged: "Done" or "Record the players out"
    // tapped as a live update redraws the page still lands
    placeKeeping(root, [tabs, templatesCard(data, data.role, choose), createCard(data, data.role, choose, reload), ...body]);
  }
  draw();
  onLanguage(draw);
  const socket = connect();
  let pending = null;
  const later = msg => {
    if (msg && current && msg.tournament_id !== current.id && msg.tournament_id !== undefined) return;
    clearTimeout(pending);
    pending = setTimeout(reload, 80);
  };
  for (const ev of ["tournament.changed", "tournament.entries", "tournament.clock", "tournament.bust", "tournament.hand_for_hand",
                    "tournament.moves", "tournament.deal", "tournament.seats"]) socket.on(ev, later);
  return socket;
}
