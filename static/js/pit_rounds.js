// Held rounds at the pit: what happened, the bets at stake, and the pit boss's ruling (settle as
// recorded, settle with the real number or cards, void). Every ruling goes through /api/pit: above the
// house threshold it waits for a second pit boss, and the round shows that instead of its actions.
import { api, el, money, newestOnly, toast } from "./live.js";
import { _, ngettext, term } from "./i18n.js";
import { cardEl } from "./cards.js";

export async function rule(roundId, body, done) {
  const r = await api("POST", `/api/pit/rounds/${roundId}/rulings`, body);
  if (r.state === "pending") toast(_("{done}: waits for a second pit boss ({amount})", { done, amount: money(r.amount) }), "warning");
  else toast(done);
  return r;
}

function settleForm(r, reload) {
  const reason = el("input", { name: "reason", placeholder: _("Reason (required)"), maxlength: 200 });
  const needReason = () => {
    if (reason.value.trim().length >= 3) return reason.value.trim();
    toast(_("Say why (a few words)"), "warning"); reason.focus(); return null;
  };
  const act = async (body, done) => {
    const why = needReason();
    if (!why) return;
    try { await rule(r.id, { ...body, reason: why }, done); reload(); } catch (e) { toast(e.message, "error"); }
  };
  const voidBtn = el("button", { class: "btn danger", "data-action": "void", onclick: () =>
    act({ kind: "void" }, _("Round {n} voided: every bet returned", { n: r.number })) }, _("Void: return every bet"));
  const asRecorded = el("button", { class: "btn", "data-action": "confirm", onclick: () =>
    act({ kind: "confirm" }, _("Round {n} settled as recorded", { n: r.number })) }, _("Settle as recorded"));
  let settle = [];
  if (r.kind === "roulette") {
    const number = el("input", { name: "number", type: "number", min: 0, max: 36, placeholder: _("Number 0-36") });
    settle = [number, el("button", { class: "btn primary", "data-action": "settle", onclick: () => {
      if (number.value === "") { toast(_("Give the winning number"), "warning"); number.focus(); return; }
      act({ kind: "correct", number: Number(number.value) }, _("Round {n} settled on {number}", { n: r.number, number: number.value }));
    } }, _("Settle on number"))];
  } else if (r.kind === "baccarat") {
    const cards = el("input", { name: "cards", placeholder: _("Cards in shoe order, e.g. 2H 7S 3D KC 8C") });
    settle = [cards, el("button", { class: "btn primary", "data-action": "settle", onclick: () => {
      const list = cards.value.trim() ? cards.value.trim().split(/[\s,]+/) : null;
      if (!list) { toast(_("Give the cards in shoe order, or settle as recorded"), "warning"); cards.focus(); return; }
      act({ kind: "correct", cards: list }, _("Round {n} settled with these cards", { n: r.number }));
    } }, _("Settle with these cards"))];
  }
  return el("div", { class: "held-actions" }, ...settle, asRecorded, reason, voidBtn);
}

function heldItem(r, canSettle, waiting, reload) {
  const staked = (r.bets || []).reduce((a, b) => a + b.amount, 0);
  const cards = (r.cards || []).filter(c => c.accepted);
  return el("li", { class: "held-round", "data-round": r.id },
    el("header", {}, el("h2", {}, _("Table {table} · {name} · round {n}", { table: r.table.number, name: r.table.name, n: r.number })),
      el("span", { class: "held-tools" }, el("a", { class: "btn small", href: `/pit/rounds/${r.id}` }, _("Timeline")),
        el("span", { class: "round-status held" }, _("held")))),
    el("p", { class: "reason" }, r.held_reason || ""),
    el("p", { class: "facts" }, ngettext("{n} bet", "{n} bets", (r.bets || []).length) + " · " + _("{amount} at stake", { amount: money(staked) }),
      r.spin ? " · " + _("spin {n}", { n: r.spin }) : "", r.coup ? " · " + _("coup {n}", { n: r.coup }) : ""),
    cards.length ? el("div", { class: "cards" }, cards.map(c => cardEl(c.card))) : null,
    waiting ? el("p", { class: "waiting" }, _("{kind} by {who} waits for a second pit boss ({amount})", { kind: term(waiting.kind), who: waiting.decided_by_name, amount: money(waiting.amount) }))
      : canSettle ? settleForm(r, reload) : el("p", { class: "empty" }, _("A pit boss settles or voids it.")));
}

export function startHeld(root, socket) {
  const canSettle = root.dataset.canSettle === "yes";
  const answered = newestOnly();
  const reload = async () => {
    try {
      await answered(Promise.all([api("GET", "/api/rounds/held"), api("GET", "/api/pit/rulings?pending=true").catch(() => [])]),
        ([held, pending]) => {
          const waiting = new Map(pending.map(p => [p.round_id, p]));
          root.replaceChildren(...(held.length ? held.map(r => heldItem(r, canSettle, waiting.get(r.id), reload))
            : [el("li", { class: "empty" }, _("No round is held."))]));
        });
    } catch (e) { toast(e.message, "error"); }
  };
  reload();
  for (const ev of ["round.held", "round.settled", "round.voided", "round.changed", "ruling.changed"]) socket.on(ev, reload);
  return reload;
}
