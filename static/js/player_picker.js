// Picking a player wherever one is picked (a waiting list, a warning): type part of a name or of a
// card number, in any order, and tap the player. One search as the typing pauses; a slow answer to an
// older query never replaces a newer one.
import { api, el, toast } from "./live.js";
import { _ } from "./i18n.js";

export const playerLabel = p => `${p.name} · ${p.card_number}`;

export function playerPicker({ onPick, isDisabled = () => false, name = "q", listAll = true, limit = 20 }) {
  const input = el("input", { type: "search", name, autocomplete: "off", placeholder: _("part of a name or card number"),
    "aria-label": _("Find a player") });
  const results = el("ul", { class: "search-results" });
  let timer = null;
  let asked = 0;
  async function search() {
    const query = input.value.trim();
    const mine = ++asked;
    if (!query && !listAll) { results.replaceChildren(); delete results.dataset.query; return; }
    try {
      const players = (await api("GET", `/api/players?q=${encodeURIComponent(query)}`)).slice(0, limit);
      if (mine !== asked) return;
      results.dataset.query = query;   // what the list answers: a tap waits for the answer to what was typed
      results.replaceChildren(...(players.length ? players.map(p => el("li", {},
        el("button", { type: "button", class: `btn big${isDisabled(p) ? " listed" : ""}`, "data-player": p.id, disabled: isDisabled(p),
          onclick: () => onPick(p) }, playerLabel(p))))
        : [el("li", { class: "hint" }, _("No player found."))]));
    } catch (e) { toast(e.message, "error"); }
  }
  input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(search, 150); });
  search();
  return { input, results, search, clear() { input.value = ""; asked++; results.replaceChildren(); delete results.dataset.query; } };
}

// A player-card reader at the podium types the card's number and Enter, like a keyboard; a magnetic
// stripe adds its sentinels (";70000001=…?"): keep the number alone.
export function cardNumberFromReader(raw) {
  const s = (raw || "").trim().replace(/^[;%]/, "").replace(/\?$/, "");
  return s.split("=")[0].split("^")[0].trim();
}
