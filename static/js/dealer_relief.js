// The dealer terminal's line about the rotation: who deals, when his break is due, who relieves him.
import { api, el, newestOnly } from "./live.js";
import { _ } from "./i18n.js";
import { countdown } from "./rotation.js";

export function startRelief(box, tableNo, socket) {
  let row = null;
  function draw() {
    if (!row || !row.dealer) { box.replaceChildren(_("No dealer on the rotation at this table.")); return; }
    box.replaceChildren(el("span", {}, _("Dealer: {name}", { name: row.dealer })),
      row.due_at ? el("span", { class: "countdown" }, " · " + _("break {when}", { when: countdown(row.due_at) })) : "",
      row.incoming ? el("strong", { class: "incoming" }, " · " + _("relieved by {name}", { name: row.incoming })) : "");
  }
  const answered = newestOnly();
  async function load() {
    try { await answered(api("GET", `/api/tables/${tableNo}/dealer`), r => { row = r; draw(); }); } catch (e) { box.replaceChildren(""); }
  }
  socket.on("rotation.changed", load);
  socket.on("connect", load);
  setInterval(draw, 1000);
  load();
}
