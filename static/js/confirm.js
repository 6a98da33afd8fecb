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

// Asking for one value (a reason, a name, a count) in the app's own dialog, never the browser's
// prompt: the answer, or null when the person said no (Cancel or Escape). An empty answer is no answer.
export function askValue(title, label, { value = "", type = "text", confirmLabel = _("OK"), inputmode = null } = {}) {
  return new Promise(resolve => {
    const dlg = el("dialog", { class: "fl-sheet confirm-dialog ask-dialog", "aria-labelledby": "ask-title" });
    const input = el("input", { id: "ask-value", class: "tn-input", type, value, inputmode, required: true });
    let answered = false;
    const done = answer => { answered = true; dlg.close(); resolve(answer); };
    const form = el("form", { class: "fl-sheet-body", method: "dialog", onsubmit: ev => {
      ev.preventDefault();
      if (input.value.trim()) done(input.value.trim());
    } },
      el("h2", { id: "ask-title" }, title),
      el("label", { class: "tn-field" }, el("span", {}, label), input),
      el("div", { class: "sheet-actions" },
        el("button", { type: "submit", class: "btn primary big", "data-action": "confirm" }, confirmLabel),
        el("button", { type: "button", class: "btn big", "data-action": "cancel", onclick: () => done(null) }, _("Cancel"))));
    dlg.append(form);
    dlg.addEventListener("close", () => { if (!answered) resolve(null); dlg.remove(); });
    document.body.append(dlg);
    dlg.showModal();
    input.focus();
    input.select?.();
  });
}
