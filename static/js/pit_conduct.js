// The pit boss's review of warnings and bans: who gave each, why, who lifted it and why; lift with a reason.
import { api, connect, el, toast } from "./live.js";

const root = document.getElementById("conduct-review");
const canLift = root.dataset.canLift === "yes";
const days = document.getElementById("days");
const when = iso => iso ? new Date(iso).toLocaleString("de-CH", { day: "2-digit", month: "2-digit", hour: "2-digit", minute: "2-digit" }) : "";
const STATE = { in_force: "in force", expired: "expired", lifted: "lifted" };

function liftCell(url, label, done) {
  if (!canLift) return el("td", {});
  const cell = el("td", { class: "lift" });
  const open = () => {
    const input = el("input", { name: "lift-reason", placeholder: "Reason", maxlength: 300 });
    const ok = el("button", { class: "btn small primary", "data-action": "confirm-lift", onclick: async () => {
      if (!input.value.trim()) { toast("Say why it is lifted", "warning"); input.focus(); return; }
      try { await api("POST", url, { reason: input.value.trim() }); toast(done); load(); } catch (e) { toast(e.message, "error"); }
    } }, "Lift");
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
    el("td", {}, el("b", {}, b.player)), el("td", {}, b.reason), el("td", {}, b.decided_by_name || "system"),
    el("td", {}, when(b.starts_at)), el("td", {}, b.expires_at ? when(b.expires_at) : "until lifted"),
    el("td", {}, el("span", { class: `badge ${b.state}` }, STATE[b.state]),
      b.lifted_at ? el("div", { class: "muted" }, `by ${b.lifted_by_name || "?"}: ${b.lift_reason}`) : ""),
    b.state === "in_force" ? liftCell(`/api/pit/conduct/bans/${b.id}/lift`, "Lift ban", `Ban on ${b.player} lifted`) : el("td", {})))
    : [el("tr", {}, el("td", { colspan: 7, class: "empty" }, "No ban."))]));
  document.querySelector("#warnings-table tbody").replaceChildren(...(data.warnings.length ? data.warnings.map(w => el("tr", { "data-warning": w.id, class: w.lifted_at ? "lifted" : "" },
    el("td", {}, when(w.at)), el("td", {}, el("b", {}, w.player)), el("td", {}, w.table_number ? `Table ${w.table_number}` : ""),
    el("td", {}, w.reason_text, w.note ? el("span", { class: "muted" }, `: ${w.note}`) : "", w.ban_id ? el("span", { class: "tag warn" }, "led to a ban") : ""),
    el("td", {}, w.given_by || "system", w.terminal ? el("span", { class: "muted" }, ` @ ${w.terminal}`) : ""),
    el("td", {}, w.lifted_at ? el("span", {}, el("span", { class: "badge lifted" }, "lifted"), el("div", { class: "muted" }, `by ${w.lifted_by || "?"}: ${w.lift_reason}`))
      : el("span", { class: "badge in_force" }, "counts")),
    w.lifted_at ? el("td", {}) : liftCell(`/api/pit/conduct/warnings/${w.id}/lift`, "Lift", "Warning lifted")))
    : [el("tr", {}, el("td", { colspan: 7, class: "empty" }, "No warning."))]));
}

days.addEventListener("change", load);
load();
const socket = connect();
for (const ev of ["conduct.changed", "bans.changed"]) socket.on(ev, load);
