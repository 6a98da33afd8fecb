// The tournament clock on the TV board: level, blinds and ante, time left (counted down here from the
// server's reading, re-read on every live change), next level, next break, players, average stack,
// prize pool and payouts; the pause and its reason. Never reloaded.
import { api, connect, el, newestOnly } from "./live.js";
import { _, languages, money, number, onLanguage, setLanguage } from "./i18n.js";

function mmss(seconds) {
  if (seconds === null || seconds === undefined) return "—";
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const two = n => String(n).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(r)}` : `${two(m)}:${two(r)}`;
}

function blinds(sb, bb, ante) {
  if (bb === null || bb === undefined) return "—";
  const base = `${number(sb)} / ${number(bb)}`;
  return ante ? _("{blinds} · ante {ante}", { blinds: base, ante: number(ante) }) : base;
}

export function render(root, s, since) {
  const gone = s.paused || !s.started ? 0 : (Date.now() - since) / 1000;
  const stat = (label, value, cls = "") => el("div", { class: `tc-stat ${cls}` }, el("span", { class: "tc-label" }, label),
    el("span", { class: "tc-value" }, value));
  const title = s.on_break ? (s.break_note ? _("Break · {note}", { note: s.break_note }) : _("Break"))
    : s.level ? _("Level {n}", { n: s.level }) : _("Registration");
  root.replaceChildren(
    el("h1", { class: "tc-name" }, s.name),
    el("div", { class: `tc-main${s.paused ? " paused" : ""}` },
      el("div", { class: "tc-level", "data-level": s.level ?? "" }, title),
      el("div", { class: "tc-time", "data-seconds": Math.round(s.seconds_left - gone) },
        s.started ? mmss(s.seconds_left - gone) : "—"),
      el("div", { class: "tc-blinds" }, blinds(s.small_blind, s.big_blind, s.ante)),
      s.hand_for_hand ? el("div", { class: "tc-hfh" }, s.hand_in_play
        ? _("Hand for hand · hand {hand}", { hand: s.hand_for_hand_hand }) : _("Hand for hand")) : null,
      s.paused && !s.hand_for_hand ? el("div", { class: "tc-paused" }, _("Paused: {reason}", { reason: _(s.pause_reason) })) : null),
    el("div", { class: "tc-stats" },
      stat(_("Next level"), s.next_level ? blinds(s.next_small_blind, s.next_big_blind, s.next_ante) : "—"),
      stat(_("Next break"), s.seconds_to_next_break === null ? "—" : mmss(s.seconds_to_next_break - gone)),
      stat(_("Players"), _("{left} of {entries}", { left: s.players_left, entries: s.entries }), "tc-players"),
      stat(_("Average stack"), number(s.average_stack)),
      stat(_("Prize pool"), money(s.prize_pool), "tc-pool"),
      stat(_("Late registration"), s.late_registration_open
        ? (s.seconds_to_late_registration_end === null ? _("open") : mmss(s.seconds_to_late_registration_end - gone))
        : _("closed"))),
    el("ol", { class: "tc-payouts" }, s.payouts.map((p, i) => el("li", {},
      el("span", { class: "place" }, _("{n}.", { n: i + 1 })), el("span", { class: "prize" }, money(p))))));
}

export function start(root, seconds) {
  let state = JSON.parse(document.getElementById("clock-data").textContent);
  let since = Date.now();
  const id = root.dataset.tournament;
  const draw = () => render(root, state, since);
  draw();
  onLanguage(draw);
  const langs = languages();
  if (langs.length > 1 && seconds) {
    let i = 0;
    setInterval(() => { i = (i + 1) % langs.length; setLanguage(langs[i]); }, seconds * 1000);
  }
  setInterval(draw, 1000);
  const answered = newestOnly();
  const refresh = async () => {
    try { await answered(api("GET", `/api/tournaments/${id}/clock`), s => { state = s; since = Date.now(); draw(); }); } catch (e) { /* keep the last */ }
  };
  const socket = connect();
  for (const ev of ["tournament.clock", "tournament.entries", "tournament.bust", "tournament.hand_for_hand", "connect"]) {
    socket.on(ev, msg => { if (!msg || String(msg.tournament_id) === String(id)) refresh(); });
  }
  return socket;
}
