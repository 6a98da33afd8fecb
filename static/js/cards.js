// Playing cards and roulette numbers as small DOM pieces, shared by the dealer terminal, the board and the pit.
import { el } from "./live.js";

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const RED = new Set([1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36]);

export function cardEl(code) {
  if (!code || code === "??") return el("span", { class: "pcard back" }, "");
  const rank = code.slice(0, -1) === "T" ? "10" : code.slice(0, -1);
  const suit = code.slice(-1);
  // the code stays in data-card (for the page's own scripts and tests), never in what a person reads
  return el("span", { class: `pcard ${suit === "H" || suit === "D" ? "red" : "black"}`, "data-card": code }, rank, SUITS[suit] || suit);
}

export function numberColour(n) {
  return n === 0 ? "green" : RED.has(n) ? "red" : "black";
}

export function ball(n, extra = "") {
  return el("span", { class: `ball ${numberColour(n)} ${extra}` }, String(n));
}

export function cardRow(codes) {
  const list = Array.isArray(codes) ? codes : String(codes || "").toUpperCase().replace(/10/g, "T").split(/[\s,]+/).filter(Boolean);
  return el("span", { class: "card-row" }, list.map(cardEl));
}
