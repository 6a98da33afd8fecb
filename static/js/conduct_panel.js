// Floor tablet panel: give warnings, see and lift warnings and bans, follow missed-blind tickets.
// Data from /api/conduct/panel; refreshed live on "conduct.changed", "bans.changed" and "poker.changed".
import { api, connect, el, newestOnly, toast } from "./live.js";
import { _, clock, term, when } from "./i18n.js";
import { playerLabel, playerPicker } from "./player_picker.js";
import { sendConfirming } from "./confirm.js";

const time = iso => clock(iso);
const BLIND = () => ({ small: _("small blind"), big: _("big blind"), third: _("third blind") });

function liftButton(label, url, done) {
  // Lifting needs a reason: the button opens an inline reason field.
  const box = el("span", { class: "lift" });
  const open = () => {
    const input = el("input", { name: "lift-reason", placeholder: _("Reason"), maxlength: 300 });
    const ok = el("button", { class: "btn small primary", onclick: async () => {
      if (!input.value.trim()) { input.focus(); return; }
      try { await api("POST", url, { reason: input.value.trim() }); toast(done); } catch (e) { toast(e.message, "error"); }
    } }, _("OK"));
    box.replaceChildren(input, ok);
    input.focus();
  };
  box.append(el("button", { class: "btn small", onclick: open }, label));
  return box;
}

export function startConductPanel(root) {
  const form = root.querySelector("#conduct-warn");
  let data = { bans: [], warnings: [], tickets: [], reasons: [], warnings_to_ban: 3 };

  function render() {
    const select = form.querySelector("select[name=reason]");
    if (!select.options.length) select.replaceChildren(...data.reasons.map(r => el("option", { value: r.code }, term(r.code))));
    root.querySelector("#conduct-bans").replaceChildren(...(data.bans.length ? data.bans.map(b => el("li", { class: "ban", "data-ban": b.id },
      el("span", {}, el("b", {}, b.player), " ", b.reason,
        el("span", { class: "meta" }, _("by {who} · until {until}", { who: b.decided_by_name || _("system"), until: b.expires_at ? when(b.expires_at) : _("lifted") }))),
      liftButton(_("Lift"), `/api/conduct/bans/${b.id}/lift`, _("Ban on {player} lifted", { player: b.player })))) : [el("li", {}, _("None"))]));
    root.querySelector("#conduct-warnings").replaceChildren(...(data.warnings.length ? data.warnings.map(w => el("li", { class: w.lifted_at ? "lifted" : "", "data-warning": w.id },
      el("span", {}, el("b", {}, w.player), ` ${term(w.reason)}${w.note ? ": " + w.note : ""}`,
        el("span", { class: "meta" }, `${time(w.at)} · ${w.given_by || ""}${w.lifted_at ? " · " + _("lifted: {reason}", { reason: w.lift_reason }) : ""}`)),
      w.lifted_at ? "" : liftButton(_("Lift"), `/api/conduct/warnings/${w.id}/lift`, _("Warning lifted")))) : [el("li", {}, _("None"))]));
    root.querySelector("#conduct-tickets").replaceChildren(...(data.tickets.length ? data.tickets.slice(0, 10).map(t => el("li", { class: t.voided ? "lifted" : "" },
      el("span", {}, el("b", {}, t.player), " " + _("table {table} seat {seat}", { table: t.table_number, seat: t.seat }) + ` · ${t.blind ? BLIND()[t.blind] : _("by hand")}`,
        el("span", { class: "meta" }, time(t.at) + (t.voided ? " · " + _("voided") : ""))))) : [el("li", {}, _("None"))]));
  }

  const answered = newestOnly();
  async function refresh() {
    try { await answered(api("GET", "/api/conduct/panel"), d => { data = d; render(); }); } catch (e) { toast(e.message, "error"); }
  }

  // The player: part of a name or card, then a tap; a query that finds one player alone is that player.
  let chosen = null;
  const picker = playerPicker({ name: "player", listAll: false, limit: 6,
    onPick: p => { chosen = p; picker.input.value = playerLabel(p); picker.results.replaceChildren(); } });
  picker.input.addEventListener("input", () => { chosen = null; });
  // The results go below the "Give warning" button (when the page has the place for them): a search
  // answering as the manager taps the button would otherwise push it down under his finger, and the
  // tap would land on a player or on the reason instead.
  const below = root.querySelector("#conduct-results");
  root.querySelector("#conduct-player").replaceChildren(picker.input, ...(below ? [] : [picker.results]));
  if (below) below.replaceChildren(picker.results);
  async function player() {
    if (chosen) return chosen;
    const found = picker.input.value.trim() ? await api("GET", `/api/players?q=${encodeURIComponent(picker.input.value)}`) : [];
    return found.length === 1 ? found[0] : null;
  }
  form.addEventListener("submit", async e => {
    e.preventDefault();
    const typed = picker.input.value;
    try {
      const p = await player();
      if (!p) { toast(_("Pick the player from the list"), "error"); picker.search(); return; }
      const body = { player_id: p.id, reason: form.reason.value, note: form.note.value.trim() };
      const r = await sendConfirming(ban_confirmed => api("POST", "/api/conduct/warnings", { ...body, ban_confirmed }),
        "ban_needs_confirmation", _("Warn and ban {player}?", { player: p.name }), _("Warn and ban"));
      if (!r) return;
      toast(r.banned ? _("{player}: {n} warnings — banned for the rest of the gaming day", { player: r.warning.player, n: r.count })
        : _("Warning {n}/{max} for {player}", { n: r.count, max: data.warnings_to_ban, player: r.warning.player }),
        r.banned ? "error" : "warning");
      // Cleared for the next warning, unless the manager is already typing the next player (the live
      // list shows the warning before this answer comes back): what they typed meanwhile stays.
      if (picker.input.value === typed) {
        form.reset();
        chosen = null;
        picker.clear();
      }
      refresh();
    } catch (err) { toast(err.message, "error"); }
  });

  const socket = connect();
  ["conduct.changed", "bans.changed", "poker.changed", "connect"].forEach(ev => socket.on(ev, refresh));
  refresh();
}
