// Playing on by hand: each live-game table with how its results come in (its device or by hand; the
// pit boss switches), and the results keyed at a dealer terminal that wait for a second person (a
// floor manager or a pit boss who keyed none of it) to confirm before the round settles. Live.
import { api, el, newestOnly, toast } from "./live.js";
import { _, clock, term } from "./i18n.js";
import { ball, cardEl } from "./cards.js";

const REASONS = () => [["lost", _("Lost")], ["faulty", _("Faulty")], ["refused", _("Frames refused")]];
const DEVICE = () => ({ wheel: _("the wheel"), shoe: _("the shoe"), scanner: _("the card scanner") });

function resultView(r) {
  const res = (r.keyed && r.keyed.result) || {};
  if (r.kind === "roulette") return el("span", { class: "keyed-result" }, ball(res.number, "big"));
  const cards = (r.cards || []).filter(c => c.accepted).map(c => cardEl(c.card));
  const winner = res.winner ? el("strong", {}, res.winner === "tie" ? _("Tie") : res.winner === "player" ? _("Player wins") : _("Banker wins")) : "";
  return el("span", { class: "keyed-result" }, el("span", { class: "card-row" }, cards), " ", winner);
}

export function startHandEntry(socket, { canSwitch, canConfirm, me }) {
  const tablesRoot = document.getElementById("entry-tables");
  const keyedRoot = document.getElementById("keyed-rounds");
  if (!tablesRoot && !keyedRoot) return;

  // --- the tables and the switch -------------------------------------------------------------
  const tablesAnswered = newestOnly();
  const asking = new Set();   // the tables whose reason form is open
  function tableItem(t) {
    const head = el("div", { class: "entry-head" },
      el("strong", {}, _("Table {table} · {game}", { table: t.number, game: term(t.kind) })),
      el("span", { class: `badge ${t.by_hand ? "by-hand" : "ok"}` }, t.by_hand ? _("entry by hand") : term(t.device)));
    const info = t.by_hand ? el("p", { class: "muted" }, _("Since {time}, by {who}: {reason}", { time: clock(t.since), who: t.switched_by, reason: t.reason })) : null;
    const parts = [head, info];
    if (canSwitch) {
      const send = async body => {
        try {
          await api("POST", `/api/tables/${t.number}/entry`, body);
          asking.delete(t.number);
          toast(body.by_hand ? _("Table {table} plays on by hand", { table: t.number }) : _("Table {table} is back on {device}", { table: t.number, device: DEVICE()[t.device] }));
          loadTables();
        } catch (e) { toast(e.message, "error"); }
      };
      if (t.by_hand) {
        parts.push(el("button", { class: "btn big-touch", "data-action": "back-to-device", onclick: () => send({ by_hand: false }) },
          _("Back to {device}", { device: DEVICE()[t.device] })));
      } else if (asking.has(t.number)) {
        const reason = el("input", { name: "reason", maxlength: 200, placeholder: _("Why (required)") });
        parts.push(el("div", { class: "entry-why" },
          el("p", {}, _("What is wrong with {device}?", { device: DEVICE()[t.device] })),
          el("div", { class: "kind-buttons" }, REASONS().map(([code, label]) => el("button", { type: "button", class: "btn big-touch", "data-reason": code,
            onclick: () => send({ by_hand: true, reason: `${term(t.device)}: ${label}` }) }, label))),
          reason,
          el("div", { class: "kind-buttons" },
            el("button", { class: "btn primary big-touch", "data-action": "switch-by-hand", onclick: () => {
              if (!reason.value.trim()) { toast(_("Say why (a few words)"), "warning"); reason.focus(); return; }
              send({ by_hand: true, reason: reason.value.trim() });
            } }, _("Switch to entry by hand")),
            el("button", { class: "btn big-touch", onclick: () => { asking.delete(t.number); loadTables(); } }, _("Cancel")))));
      } else {
        parts.push(el("button", { class: "btn big-touch", "data-action": "play-by-hand", onclick: () => { asking.add(t.number); loadTables(); } },
          _("Play on by hand")));
      }
    }
    return el("li", { class: `entry-table ${t.by_hand ? "by-hand" : ""}`, "data-table": t.number }, ...parts.filter(Boolean));
  }
  let tables = [];
  const drawTables = () => tablesRoot && tablesRoot.replaceChildren(...tables.map(tableItem));
  async function loadTables() {
    if (!tablesRoot) return;
    try { await tablesAnswered(api("GET", "/api/tables/entry"), list => { tables = list; drawTables(); }); } catch (e) { toast(e.message, "error"); }
  }

  // --- results waiting for a second person ------------------------------------------------------
  const keyedAnswered = newestOnly();
  function keyedItem(r) {
    const mine = (r.keyed.keyed_by_ids || []).includes(me);
    const reason = el("input", { name: "reason", maxlength: 200, placeholder: _("What is wrong (to refuse)") });
    const actions = !canConfirm ? [] : mine ? [el("p", { class: "muted" }, _("You keyed it: a second person confirms."))] : [
      el("button", { class: "btn primary big-touch", "data-action": "confirm-hand", onclick: async () => {
        try {
          const out = await api("POST", `/api/rounds/${r.id}/confirm-hand`, {});
          toast(_("Round {n} at table {table} confirmed: {status}", { n: r.number, table: r.table.number, status: term(out.status) }));
          loadKeyed();
        } catch (e) { toast(e.message, "error"); loadKeyed(); }
      } }, _("Confirm and settle")),
      reason,
      el("button", { class: "btn danger big-touch", "data-action": "refuse-hand", onclick: async () => {
        if (!reason.value.trim()) { toast(_("Say what is wrong"), "warning"); reason.focus(); return; }
        try { await api("POST", `/api/rounds/${r.id}/refuse-hand`, { reason: reason.value.trim() }); toast(_("Refused: the dealer keys it again")); loadKeyed(); }
        catch (e) { toast(e.message, "error"); }
      } }, _("Refuse"))];
    return el("li", { class: "keyed-round", "data-round": r.id },
      el("header", {}, el("h3", {}, _("Table {table} · round {n}", { table: r.table.number, n: r.number })),
        el("span", { class: "tag by-hand" }, _("entered by hand"))),
      el("p", {}, resultView(r)),
      el("p", { class: "muted" }, _("Keyed by {who} at {time}", { who: r.keyed.keyed_by.join(", "), time: clock(r.keyed.at) })),
      el("div", { class: "keyed-actions" }, ...actions));
  }
  async function loadKeyed() {
    if (!keyedRoot) return;
    try {
      await keyedAnswered(api("GET", "/api/rounds/keyed"), list => keyedRoot.replaceChildren(...(list.length ? list.map(keyedItem)
        : [el("li", { class: "empty" }, _("No result entered by hand waits."))])));
    } catch (e) { toast(e.message, "error"); }
  }

  loadTables();
  loadKeyed();
  socket.on("table.entry_mode", () => { loadTables(); loadKeyed(); });
  socket.on("round.keyed", loadKeyed);
  socket.on("round.settled", loadKeyed);
  socket.on("connect", () => { loadTables(); loadKeyed(); });
  return { loadTables, loadKeyed };
}
