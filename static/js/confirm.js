// Asking before a tap that cannot be taken back (close a table, take a player off a list, cancel a
// call, the warning that bans). A dialog of its own, above any sheet already open; Escape says no.
import { el, holdFor, lastTapped } from "./live.js";
import { _ } from "./i18n.js";

export function confirmAction(title, text, confirmLabel) {
  // The button that asked stays the one a double tap cannot repeat: the request sent on "yes" is its.
  const opener = lastTapped();
  return new Promise(resolve => {
    const dlg = el("dialog", { class: "fl-sheet confirm-dialog", role: "alertdialog", "aria-labelledby": "confirm-title" });
    const done = answer => () => { if (answer && opener) holdFor(opener); dlg.close(); resolve(answer); };
    dlg.append(el("div", { class: "fl-sheet-body" },
      el("h2", { id: "confirm-title" }, title),
      text ? el("p", {}, text) : null,
      el("div", { class: "sheet-actions" },
        el("button", { type: "button", class: "btn danger big", "data-action": "confirm", onclick: done(true) }, confirmLabel),
        el("button", { type: "button", class: "btn big", "data-action": "cancel", onclick: done(false) }, _("Cancel")))));
    dlg.addEventListener("cancel", () => resolve(false));
    dlg.addEventListener("close", () => dlg.remove());
    document.body.append(dlg);
    dlg.showModal();
    dlg.querySelector("[data-action=cancel]").focus();
  });
}

// Send once; when the server answers that this needs confirming (the warning that bans), ask with its
// own sentence and send again confirmed.
export async function sendConfirming(send, code, title, confirmLabel) {
  try {
    return await send(false);
  } catch (e) {
    if (e.code !== code) throw e;
    if (!(await confirmAction(title, e.message, confirmLabel))) return null;
    return send(true);
  }
}
