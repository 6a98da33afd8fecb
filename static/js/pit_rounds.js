// Held rounds at the pit: what happened, the bets at stake, and the pit boss's settle or void.
import { api, el, money, toast } from "./live.js";
import { cardEl } from "./cards.js";

function settleForm(r, reload) {
  const act = async (url, body, done) => {
    try { await api("POST", url, body); toast(done); reload(); } catch (e) { toast(e.message, "error"); }
  };
  const reason = el("input", { name: "reason", placeholder: "Reason to void", maxlength: 200 });
  const voidBtn = el("button", { class: "btn danger", "data-action": "void", onclick: () => {
    if (!reason.value.trim()) { toast("Say why the round is voided", "warning"); reason.focus(); return; }
    act(`/api/rounds/${r.id}/void`, { reason: reason.value.trim() }, `Round ${r.number} voided: every bet returned`);
  } }, "Void: return every bet");
  let settle;
  if (r.kind === "roulette") {
    const number = el("input", { name: "number", type: "number", min: 0, max: 36, placeholder: "Number 0-36" });
    settle = [number, el("button", { class: "btn primary", "data-action": "settle", onclick: () =>
      act(`/api/rounds/${r.id}/settle`, { number: Number(number.value) }, `Round ${r.number} settled on ${number.value}`) }, "Settle on number")];
  } else if (r.kind === "baccarat") {
    const cards = el("input", { name: "cards", placeholder: "Cards in shoe order, e.g. 2H 7S 3D KC 8C" });
    settle = [cards, el("button", { class: "btn primary", "data-action": "settle", onclick: () => {
      const list = cards.value.trim() ? cards.value.trim().split(/[\s,]+/) : null;
      act(`/api/rounds/${r.id}/settle`, list ? { cards: list } : {}, `Round ${r.number} settled`);
    } }, "Settle with these cards")];
  } else {
    settle = [el("button", { class: "btn primary", "data-action": "settle", onclick: () =>
      act(`/api/rounds/${r.id}/settle`, {}, `Round ${r.number} settled from the recorded cards`) }, "Settle from recorded cards")];
  }
  return el("div", { class: "held-actions" }, ...settle, reason, voidBtn);
}

function heldItem(r, canSettle, reload) {
  const staked = (r.bets || []).reduce((a, b) => a + b.amount, 0);
  const cards = (r.cards || []).filter(c => c.accepted);
  return el("li", { class: "held-round", "data-round": r.id },
    el("header", {}, el("h2", {}, `Table ${r.table.number} · ${r.table.name} · round ${r.number}`),
      el("span", { class: "round-status held" }, "held")),
    el("p", { class: "reason" }, r.held_reason || ""),
    el("p", { class: "facts" }, `${(r.bets || []).length} bet${(r.bets || []).length === 1 ? "" : "s"} · ${money(staked)} at stake`,
      r.spin ? ` · spin ${r.spin}` : "", r.coup ? ` · coup ${r.coup}` : ""),
    cards.length ? el("div", { class: "cards" }, cards.map(c => cardEl(c.card))) : null,
    canSettle ? settleForm(r, reload) : el("p", { class: "empty" }, "A pit boss settles or voids it."));
}

export function startHeld(root, socket) {
  const canSettle = root.dataset.canSettle === "yes";
  const reload = async () => {
    try {
      const held = await api("GET", "/api/rounds/held");
      root.replaceChildren(...(held.length ? held.map(r => heldItem(r, canSettle, reload))
        : [el("li", { class: "empty" }, "No round is held.")]));
    } catch (e) { toast(e.message, "error"); }
  };
  reload();
  for (const ev of ["round.held", "round.settled", "round.voided", "round.changed"]) socket.on(ev, reload);
  return reload;
}
