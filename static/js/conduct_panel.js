// Floor tablet panel: give warnings, see and lift warnings and bans, follow missed-blind tickets.
// Data from /api/conduct/panel; refreshed live on "conduct.changed", "bans.changed" and "poker.changed".
import { api, connect, el, toast } from "./live.js";

const time = iso => new Date(iso).toLocaleTimeString("de-CH", { hour: "2-digit", minute: "2-digit" });
const BLIND = { small: "small blind", big: "big blind", third: "third blind" };

function liftButton(label, url, done) {
  // Lifting needs a reason: the button opens an inline reason field.
  const box = el("span", { class: "lift" });
  const open = () => {
    const input = el("input", { name: "lift-reason", placeholder: "Reason", maxlength: 300 });
    const ok = el("button", { class: "btn small primary", onclick: async () => {
      if (!input.value.trim()) { input.focus(); return; }
      try { await api("POST", url, { reason: input.value.trim() }); toast(done); } catch (e) { toast(e.message, "error"); }
    } }, "OK");
    box.replaceChildren(input, ok);
    input.focus();
  };
  box.append(el("button", { class: "btn small", onclick: open }, label));
  return box;
}

export function startConductPanel(root) {
  const form = root.querySelector("#conduct-warn");
  const players = new Map();
  let data = { bans: [], warnings: [], tickets: [], reasons: [], warnings_to_ban: 3 };

  function render() {
    const select = form.querySelector("select[name=reason]");
    if (!select.options.length) select.replaceChildren(...data.reasons.map(r => el("option", { value: r.code }, r.text)));
    root.querySelector("#conduct-bans").replaceChildren(...(data.bans.length ? data.bans.map(b => el("li", { class: "ban", "data-ban": b.id },
      el("span", {}, el("b", {}, b.player), " ", b.reason,
        el("span", { class: "meta" }, `by ${b.decided_by_name || "system"} · until ${b.expires_at ? new Date(b.expires_at).toLocaleString("de-CH") : "lifted"}`)),
      liftButton("Lift", `/api/conduct/bans/${b.id}/lift`, `Ban on ${b.player} lifted`))) : [el("li", {}, "None")]));
    root.querySelector("#conduct-warnings").replaceChildren(...(data.warnings.length ? data.warnings.map(w => el("li", { class: w.lifted_at ? "lifted" : "", "data-warning": w.id },
      el("span", {}, el("b", {}, w.player), ` ${w.reason_text}${w.note ? ": " + w.note : ""}`,
        el("span", { class: "meta" }, `${time(w.at)} · ${w.given_by || ""}${w.lifted_at ? " · lifted: " + w.lift_reason : ""}`)),
      w.lifted_at ? "" : liftButton("Lift", `/api/conduct/warnings/${w.id}/lift`, "Warning lifted"))) : [el("li", {}, "None")]));
    root.querySelector("#conduct-tickets").replaceChildren(...(data.tickets.length ? data.tickets.slice(0, 10).map(t => el("li", { class: t.voided ? "lifted" : "" },
      el("span", {}, el("b", {}, t.player), ` table ${t.table_number} seat ${t.seat} · ${t.blind ? BLIND[t.blind] : "by hand"}`,
        el("span", { class: "meta" }, time(t.at) + (t.voided ? " · voided" : ""))))) : [el("li", {}, "None")]));
  }

  async function refresh() {
    try { data = await api("GET", "/api/conduct/panel"); render(); } catch (e) { toast(e.message, "error"); }
  }

  form.querySelector("input[name=player]").addEventListener("input", async e => {
    const q = e.target.value.trim();
    if (q.length < 2) return;
    try {
      const found = await api("GET", `/api/players?q=${encodeURIComponent(q)}`);
      found.forEach(p => players.set(`${p.name} (${p.card_number})`, p.id));
      root.querySelector("#conduct-players").replaceChildren(...found.map(p => el("option", { value: `${p.name} (${p.card_number})` })));
    } catch (err) { /* keep typing */ }
  });
  form.addEventListener("submit", async e => {
    e.preventDefault();
    const label = form.player.value.trim();
    const id = players.get(label);
    if (!id) { toast("Pick the player from the list", "error"); return; }
    try {
      const r = await api("POST", "/api/conduct/warnings", { player_id: id, reason: form.reason.value, note: form.note.value.trim() });
      toast(r.banned ? `${r.warning.player}: ${r.count} warnings — banned for the rest of the gaming day` : `Warning ${r.count}/${data.warnings_to_ban} for ${r.warning.player}`,
        r.banned ? "error" : "warning");
      form.reset();
      refresh();
    } catch (err) { toast(err.message, "error"); }
  });

  const socket = connect();
  ["conduct.changed", "bans.changed", "poker.changed", "connect"].forEach(ev => socket.on(ev, refresh));
  refresh();
}
