// Who sits where at a live-game table: the dealer identifies a player at a seat by his player card
// (typed, or read by the table's scanner) or by picking him, and marks him gone when he leaves.
import { api, el, toast } from "./live.js";
import { _, clock } from "./i18n.js";

export function startSeatPlayers(root, tableNo, socket) {
  const form = root.querySelector("#identify-form");
  const list = root.querySelector("#seated");
  const picks = root.querySelector("#player-picks");

  async function load() {
    try {
      const rows = await api("GET", `/api/tables/${tableNo}/seated`);
      list.replaceChildren(...(rows.length ? rows.map(v => el("li", { "data-seat": v.seat },
        el("strong", {}, _("Seat {seat}", { seat: v.seat })), " ", v.player,
        el("span", { class: "muted" }, " · " + _("since {time}", { time: clock(v.started_at) })),
        el("button", { class: "btn small", type: "button", onclick: () => leave(v.seat) }, _("Left"))))
        : [el("li", { class: "empty" }, _("Nobody identified at this table."))]));
    } catch (e) { toast(e.message, "error"); }
  }

  async function identify(body) {
    const seat = Number(form.elements.seat.value);
    const typed = form.elements.who.value;
    try {
      const v = await api("POST", `/api/tables/${tableNo}/seats/${seat}/player`, body);
      toast(_("Seat {seat}: {name}", { seat, name: v.player }));
      // cleared for the next player, unless the next card was already read into it meanwhile
      if (form.elements.who.value === typed) {
        form.elements.who.value = "";
        picks.replaceChildren();
      }
      load();
    } catch (e) { toast(e.message, "error"); }
  }

  async function leave(seat) {
    try { await api("DELETE", `/api/tables/${tableNo}/seats/${seat}/player`); load(); } catch (e) { toast(e.message, "error"); }
  }

  form.addEventListener("submit", async ev => {
    ev.preventDefault();
    const who = form.elements.who.value.trim();
    if (!who) return;
    let found = [];
    try { found = await api("GET", `/api/tables/${tableNo}/players?q=${encodeURIComponent(who)}`); } catch (e) { toast(e.message, "error"); return; }
    const card = found.find(p => p.card_number === who);
    if (card) return identify({ card_number: who });
    if (found.length === 1) return identify({ player_id: found[0].id });
    picks.replaceChildren(...(found.length ? found.map(p => el("button", { class: "btn", type: "button",
      onclick: () => identify({ player_id: p.id }) }, `${p.name} · ${p.card_number}`))
      : [el("span", { class: "muted" }, _("No player found."))]));
  });

  // the table's scanner read a player card: the dealer says at which seat he sits
  socket.on("scanner.player_card", msg => {
    form.elements.who.value = msg.card_number;
    toast(msg.player ? _("Player card: {name}. Choose his seat and identify.", { name: msg.player })
      : _("Unknown player card {card}.", { card: msg.card_number }), msg.player ? "info" : "error");
  });
  for (const ev of ["visit.started", "visit.ended"]) socket.on(ev, load);
  socket.on("connect", load);
  load();
  return { load };
}
