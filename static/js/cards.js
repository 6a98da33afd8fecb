// Playing cards drawn as small tiles: rank and suit symbol, red for hearts and diamonds.
import { el } from "./live.js";

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

export function cardTile(code) {
  const c = String(code).trim().toUpperCase().replace(/^10/, "T");
  const rank = c[0] === "T" ? "10" : c[0];
  const suit = c[1];
  return el("span", { class: `card-tile ${suit === "H" || suit === "D" ? "red" : "black"}`, title: c, "data-card": c },
    el("span", { class: "rank" }, rank), el("span", { class: "suit" }, SUITS[suit] || "?"));
}

export function cardRow(codes) {
  const list = Array.isArray(codes) ? codes : String(codes || "").split(/[\s,]+/).filter(Boolean);
  return el("span", { class: "card-row" }, list.map(cardTile));
}
