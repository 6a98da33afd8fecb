// The pit boss's review of warnings and bans: who gave each, why, who lifted it and why; lift with a reason.
import { api, connect, el, toast } from "./live.js";
import { _, term, when as whenAt } from "./i18n.js";

const root = document.getElementById("conduct-review");
const canLift = root.dataset.canLift === "yes";
const days = document.getElementById("days");
const when = iso => whenAt(iso);

function liftCell(url, label, done) {
  if (!canLift) return el("td", {});
  const cell = el("td", { class: "lift" });
  const open = () => {
    const input = el("input", { name: "lift-reason", placeholder: _("Reason"), maxlength: 300 });
    const ok = el("button", { class: "btn small primary", "data-action": "confirm-lift", onclick: async () => {
      if (!input.value.trim()) { toast(_("Say why it is lifted"), "warning"); input.focus(); return; }
      try { await api("POST", url, { reason: input.value.trim() }); toast(done); load(); } catch (e) { toast(e.message, "error"); }
    } }, _("Lift"));
    cell.replaceChildren(input, ok);
    input.focus();
  };
  cell.append(el("button", { class: "btn small", "data-action": "lift", onclick: open }, label));
  return cell;
}

async function load() {
  let data;
  try { data = await api("GET", `/api/pit/conduct?days=${days.value}`); } catch (e) { toast(e.message, "error"); return; }
  document.querySelector("#bans-table tbody").replaceChildren(...(data.bans.length ? data.bans.map(b => el("tr", { "data-ban": b.id, class: b.state },
    el("td", {}, el("b", {}, b.player)), el("td", {}, b.reason), el("td", {}, b.decided_by_name || _("system")),
    el("td", {}, when(b.starts_at)), el("td", {}, b.expires_at ? when(b.expires_at) : _("until lifted")),
    el("td", {}, el("span", { class: `badge ${b.state}` }, term(b.state)),
      b.lifted_at ? el("div", { class: "muted" }, _("by {who}: {reason}", { who: b.lifted_by_name || "?", reason: b.lift_reason })) : ""),
    b.state === "in_force" ? liftCell(`/api/pit/conduct/bans/${b.id}/lift`, _("Lift ban"), _("Ban on {player} lifted", { player: b.player })) : el("td", {})))
    : [el("tr", {}, el("td", { colspan: 7, class: "empty" }, _("No ban.")))]));
  document.querySelector("#warnings-table tbody").replaceChildren(...(data.warnings.length ? data.warnings.map(w => el("tr", { "data-warning": w.id, class: w.lifted_at ? "lifted" : "" },
    el("td", {}, when(w.at)), el("td", {}, el("b", {}, w.player)), el("td", {}, w.table_number ? _("Table {table}", { table: w.table_number }) : ""),
    el("td", {}, term(w.reason), w.note ? el("span", { class: "muted" }, `: ${w.note}`) : "", w.ban_id ? el("span", { class: "tag warn" }, _("led to a ban")) : ""),
    el("td", {}, w.given_by || _("system"), w.terminal ? el("span", { class: "muted" }, ` @ ${w.terminal}`) : ""),
    el("td", {}, w.lifted_at ? el("span", {}, el("span", { class: "badge lifted" }, _("lifted")), el("div", { class: "muted" }, _("by {who}: {reason}", { who: w.lifted_by || "?", reason: w.lift_reason })))
      : el("span", { class: "badge in_force" }, _("counts"))),
    w.lifted_at ? el("td", {}) : liftCell(`/api/pit/conduct/warnings/${w.id}/lift`, _("Lift"), _("Warning lifted"))))
    : [el("tr", {}, el("td", { colspan: 7, class: "empty" }, _("No warning.")))]));
}

days.addEventListener("change", load);
load();
const socket = connect();
for (const ev of ["conduct.changed", "bans.changed"]) socket.on(ev, load);
