// The dealer terminal of a tournament table: the blinds and ante of the level in play (from the
// tournament clock), the time left, the players by seat and the button; the dealer ticks the players
// out on a hand, enters their chips at the start of it and the pot's winner; moves to or from this
// table are shown until the floor has made them. Follows every change live.
import { api, connect, el, newestOnly, redrawKeeping, toast } from "./live.js";
import { _, number, onLanguage, term } from "./i18n.js";

export function start(root) {
  let view = JSON.parse(document.getElementById("td-data").textContent);
  let since = Date.now();
  const table = root.dataset.table;

  function clockLine(c) {
    const gone = c.paused ? 0 : (Date.now() - since) / 1000;
    const left = Math.max(0, Math.round(c.seconds_left - gone));
    const blinds = c.big_blind ? `${number(c.small_blind)} / ${number(c.big_blind)}` : "—";
    return el("section", { class: "card tn-clock" },
      el("h2", {}, c.name, " · ", c.on_break ? _("Break") : _("Level {n}", { n: c.level })),
      el("p", { class: "td-blinds" }, _("Blinds {blinds}", { blinds }),
        c.ante ? el("span", {}, " · ", c.big_blind_ante ? _("big blind ante {ante}", { ante: number(c.ante) })
                                                        : _("ante {ante}", { ante: number(c.ante) })) : null),
      el("p", { class: "td-time" }, `${String(Math.floor(left / 60)).padStart(2, "0")}:${String(left % 60).padStart(2, "0")}`,
        c.paused && !c.hand_for_hand ? el("strong", { class: "tn-paused" }, " · ", _("Paused: {reason}", { reason: _(c.pause_reason) })) : null),
      hfhLine(c));
  }

  // Hand for hand: deal only when the floor says so; say when this table has played the hand.
  function hfhLine(c) {
    if (!c.hand_for_hand) return null;
    const mine = Number(table);
    if (!c.hand_in_play) return el("p", { class: "td-hfh wait", role: "status" }, el("strong", {}, _("Hand for hand: wait for the floor before dealing")));
    if (c.tables_done.includes(mine)) return el("p", { class: "td-hfh done", role: "status" }, el("strong", {}, _("Hand for hand: hand {hand} played here; wait for the other tables", { hand: c.hand_for_hand_hand })));
    return el("p", { class: "td-hfh deal", role: "status" }, el("strong", {}, _("Hand for hand: deal hand {hand}", { hand: c.hand_for_hand_hand })), " ",
      el("button", { class: "btn primary", type: "button", onclick: async () => {
        try { await api("POST", `/api/tournaments/${view.tournament_id}/tables/${table}/hand-done`, {}); refresh(); } catch (e) { toast(e.message, "error"); }
      } }, _("Hand played, nobody out")));
  }

  // Who posts what at the clock's level (heads-up the button posts the small blind and acts first).
  function postingsLine(h) {
    if (!h) return null;
    const what = { small_blind: _("small blind"), big_blind: _("big blind"), ante: _("ante") };
    return el("section", { class: "card td-hand" },
      el("p", { class: "td-positions" }, _("Button seat {b} · first to act seat {f}", { b: h.button, f: h.first_preflop }),
        h.heads_up ? el("strong", {}, " · ", _("heads-up: the button posts the small blind")) : null),
      el("ul", { class: "td-postings" }, h.postings.map(p => el("li", { "data-seat": p.seat, "data-what": p.what },
        _("seat {seat}: {what} {amount}", { seat: p.seat, what: what[p.what], amount: number(p.amount) })))));
  }

  function render() {
    const v = view;
    const rows = v.seats.map(s => el("tr", { "data-entry": s.entry_id },
      el("td", {}, el("input", { type: "checkbox", class: "tn-out", value: s.entry_id, "aria-label": _("out") })),
      el("td", { class: "num" }, s.seat, s.seat === v.button_seat ? el("span", { class: "td-button", title: _("button") }, " ●") : null),
      el("td", {}, s.player_name),
      el("td", {}, el("input", { type: "number", min: 1, class: "tn-chips", "data-entry": s.entry_id, inputmode: "numeric",
                                 "aria-label": _("chips at the start of the hand") }))));
    const winner = el("select", { id: "td-winner", class: "tn-input" }, v.seats.map(s => el("option", { value: s.entry_id }, `${s.seat} · ${s.player_name}`)));
    const go = async () => {
      const out = [...root.querySelectorAll(".tn-out:checked")].map(x => Number(x.value));
      if (!out.length) { toast(_("Tick the players out"), "error"); return; }
      const busts = out.map(id => ({ entry_id: id, chips_at_start: Number(root.querySelector(`.tn-chips[data-entry="${id}"]`).value) }));
      try {
        await api("POST", `/api/tournaments/${v.tournament_id}/tables/${table}/busts`, { busts, winners: [Number(winner.value)] });
        refresh();
      } catch (e) { toast(e.message, "error"); }
    };
    const moves = v.moves.length ? el("section", { class: "card tn-moves" }, el("h3", {}, _("Moves to make")),
      el("ul", {}, v.moves.map(m => el("li", { "data-move": m.id }, el("strong", {}, m.player_name), " ",
        _("table {ft} seat {fs} → table {tt} seat {ts}", { ft: m.from_table, fs: m.from_seat, tt: m.to_table, ts: m.to_seat }),
        " · ", term(m.reason))))) : null;
    root.replaceChildren(clockLine(v.clock), postingsLine(v.hand) || "", moves || "",
      el("section", { class: "card" }, el("h3", {}, _("Table {n}", { n: v.table })),
        el("table", { class: "tn-entries" }, el("thead", {}, el("tr", {}, el("th", {}, ""), el("th", {}, _("Seat")),
          el("th", {}, _("Player")), el("th", {}, _("Chips at the start of the hand")))), el("tbody", {}, rows)),
        el("div", { class: "tn-row" }, el("label", { class: "tn-field" }, el("span", {}, _("Pot won by")), winner),
          el("button", { class: "btn danger", type: "button", onclick: go }, _("Record the players out on this hand")))));
  }

  const answered = newestOnly();
  async function refresh() {
    try { await answered(api("GET", `/api/tournaments/tables/${table}`), v => { view = v; since = Date.now(); redrawKeeping(root, render); }); }
    catch (e) { if (e.code === "no_tournament") window.location.reload(); }
  }
  render();
  onLanguage(render);
  setInterval(() => { const t = root.querySelector(".tn-clock"); if (t) t.replaceWith(clockLine(view.clock)); }, 1000);
  const socket = connect();
  for (const ev of ["tournament.clock", "tournament.bust", "tournament.seats", "tournament.moves", "tournament.entries", "tournament.hand_for_hand"]) socket.on(ev, refresh);
  return socket;
}
