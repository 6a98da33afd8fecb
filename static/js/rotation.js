// The dealers' rotation: who deals where with the countdown to his break, who relieves him, who
// rests until when; the pit clocks dealers in and out and sends them to a table. Live, no reloads.
import { api, connect, el, newestOnly, toast } from "./live.js";
import { _, clock, term } from "./i18n.js";

export function countdown(iso) {
  const s = Math.round((new Date(iso) - Date.now()) / 1000);
  const a = Math.abs(s);
  const text = `${Math.floor(a / 60)}:${String(a % 60).padStart(2, "0")}`;
  return s >= 0 ? _("in {time}", { time: text }) : _("{time} overdue", { time: text });
}

export function startRotation(root, { canRun }) {
  let board = JSON.parse(document.getElementById("rotation-data").textContent);
  const answered = newestOnly();
  const act = async (url) => {
    try { await answered(api("POST", url, {}), b => { board = b; draw(); }); } catch (e) { toast(e.message, "error"); }
  };
  function draw() {
    root.querySelector("#rotation-tables tbody").replaceChildren(...board.tables.map(t => el("tr", { "data-table": t.table },
      el("td", {}, el("strong", {}, t.table), ` · ${t.name}`),
      el("td", {}, t.dealer || el("span", { class: "muted" }, _("no dealer"))),
      el("td", {}, t.since ? clock(t.since) : ""),
      el("td", { class: "countdown", "data-due": t.dealer ? t.due_at : "" }, t.dealer ? countdown(t.due_at) : ""),
      el("td", {}, t.incoming ? [t.incoming, el("span", { class: "muted" }, " · " + clock(t.relief_at))] : "",
        t.over_max ? el("span", { class: "tag warn", "data-over-max": "" },
          _("stint over {max} min", { max: board.max_on_minutes })) : ""))));
    root.querySelector("#rotation-breaks").replaceChildren(...(board.breaks.length ? board.breaks.map(b => el("li", { "data-dealer": b.dealer_id },
      el("strong", {}, b.dealer), " ", el("span", { class: "muted" }, _("on break since {time}, ready {ready}", { time: clock(b.since), ready: clock(b.ready_at) })),
      canRun ? el("button", { class: "btn small", onclick: () => act(`/api/rotation/dealers/${b.dealer_id}/clock-out`) }, _("Clock out")) : ""))
      : [el("li", { class: "empty" }, _("Nobody on a break."))]));
    const staff = root.querySelector("#rotation-staff");
    if (!staff) return;
    staff.replaceChildren(...board.dealers.map(d => el("li", { "data-dealer": d.id },
      el("span", {}, d.name), " ",
      d.clocked_in ? el("span", { class: "tag" }, _("clocked in"))
        : el("button", { class: "btn small", onclick: () => act(`/api/rotation/dealers/${d.id}/clock-in`) }, _("Clock in")),
      d.clocked_in ? el("select", { "aria-label": _("Send to a table"), onchange: ev => ev.target.value && act(`/api/rotation/dealers/${d.id}/table/${ev.target.value}`) },
        el("option", { value: "" }, _("Send to table…")), ...board.tables.map(t => el("option", { value: t.table }, _("Table {n}", { n: t.table })))) : "",
      d.clocked_in ? el("button", { class: "btn small", onclick: () => act(`/api/rotation/dealers/${d.id}/break`) }, _("Break")) : "")));
  }
  async function reload() {
    try { await answered(api("GET", "/api/rotation"), b => { board = b; draw(); }); } catch (e) { toast(e.message, "error"); }
  }
  draw();
  setInterval(() => root.querySelectorAll(".countdown[data-due]").forEach(td => {
    if (td.dataset.due) td.textContent = countdown(td.dataset.due);
  }), 1000);
  const socket = connect();
  socket.on("rotation.changed", reload);
  socket.on("connect", reload);
  window.__rotation = { reload, board: () => board };
  return { reload };
}

const root = document.getElementById("rotation");
if (root) startRotation(root, { canRun: root.dataset.canRun === "yes" });
