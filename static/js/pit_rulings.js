// A ruling waiting for a second pit boss: who made it, what it moves, and approve / reject
// (the one who made it may only withdraw it). Shared by the console and the round's timeline.
import { api, el, money, toast } from "./live.js";
import { _, clock, term } from "./i18n.js";
import { confirmAction } from "./confirm.js";

const KIND = () => ({ void: _("Void"), correct: _("Correction"), confirm: _("Confirmation") });

export function correctionText(r) {
  const c = r.correction || {};
  if (c.number !== undefined) return _("number {n}", { n: c.number });
  if (c.cards) return _("cards {cards}", { cards: c.cards.join(" ") });
  if (c.replace) return Object.entries(c.replace).map(([step, card]) => _("card {step} is {card}", { step, card })).join(", ");
  return "";
}

export function pendingItem(r, { canRule, me, done }) {
  const reason = el("input", { name: "answer", placeholder: _("Reason"), maxlength: 300 });
  const answer = async (what, body, msg) => {
    try { await api("POST", `/api/pit/rulings/${r.id}/${what}`, body); toast(msg); done && done(); }
    catch (e) { toast(e.message, "error"); }
  };
  const own = r.decided_by === me;
  let actions = null;
  if (canRule && !own) {
    actions = el("div", { class: "held-actions" },
      el("button", { class: "btn primary", "data-action": "approve", onclick: async () => {
        // approving moves the money at once: one tap asks first, with what moves
        const what = _("{kind} at table {table} round {n}: {amount}", { kind: KIND()[r.kind] || term(r.kind),
          table: r.table_number, n: r.round_number, amount: money(r.amount) });
        if (!(await confirmAction(_("Approve and apply this ruling?"), what, _("Approve"))))
          return;
        answer("approve", { reason: reason.value.trim() }, _("Ruling {id} approved and applied", { id: r.id }));
      } }, _("Approve")),
      reason,
      el("button", { class: "btn danger", "data-action": "reject", onclick: () => {
        if (!reason.value.trim()) { toast(_("Say why you reject it"), "warning"); reason.focus(); return; }
        answer("reject", { reason: reason.value.trim() }, _("Ruling {id} rejected: nothing moves", { id: r.id }));
      } }, _("Reject")));
  } else if (canRule && own) {
    actions = el("div", { class: "held-actions" },
      el("span", { class: "muted" }, _("Your ruling: another pit boss must approve it.")), reason,
      el("button", { class: "btn", "data-action": "withdraw", onclick: () => {
        if (!reason.value.trim()) { toast(_("Say why you withdraw it"), "warning"); reason.focus(); return; }
        answer("reject", { reason: reason.value.trim() }, _("Ruling {id} withdrawn", { id: r.id }));
      } }, _("Withdraw")));
  }
  return el("li", { class: "pending-ruling", "data-ruling": r.id },
    el("header", {},
      el("h3", {}, `${KIND()[r.kind] || term(r.kind)} · ` + _("table {table} round {n}", { table: r.table_number, n: r.round_number })),
      el("span", { class: "amount" }, money(r.amount))),
    el("p", {}, el("b", {}, r.decided_by_name), ` — ${r.reason}`, r.kind === "correct" ? el("span", { class: "muted" }, ` (${correctionText(r)})`) : ""),
    el("p", { class: "muted" }, `${clock(r.at, { seconds: true })} · ` + _("round was {status}", { status: term(r.round_status) }) + " · ",
      el("a", { href: `/pit/rounds/${r.round_id}` }, _("timeline"))),
    actions);
}
