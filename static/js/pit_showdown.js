// The pit boss's poker showdown tool: enter the hand, see who wins each pot, record the ruling.
import { api, el, money, toast } from "./live.js";
import { _, clock, term } from "./i18n.js";
import { cardRow } from "./cards.js";

const form = document.getElementById("showdown");
const rows = document.getElementById("seat-rows");
const initial = JSON.parse(document.getElementById("initial-data").textContent);

const cents = text => Math.round(parseFloat(String(text).replace(",", ".") || "0") * 100);

function seatRow(n) {
  return el("tr", { class: "seat-row" },
    el("td", {}, el("input", { name: "seat", inputmode: "numeric", value: n, size: 3, "aria-label": _("Seat number") })),
    el("td", {}, el("input", { name: "hole", placeholder: "AS KD", "aria-label": _("Hole cards") })),
    el("td", {}, el("input", { name: "put_in", inputmode: "decimal", value: "0", "aria-label": _("Put in") })),
    el("td", {}, el("input", { name: "folded", type: "checkbox", "aria-label": _("Folded") })),
    el("td", {}, el("button", { type: "button", class: "btn small ghost", "aria-label": _("remove seat"), onclick: e => e.target.closest("tr").remove() }, "✕")));
}
for (let n = 1; n <= 3; n++) rows.append(seatRow(n));
document.getElementById("add-seat").onclick = () => rows.append(seatRow(rows.children.length + 1));

const syncVariant = () => {
  const opt = form.table_number.selectedOptions[0];
  if (opt && opt.dataset.variant) form.variant.value = opt.dataset.variant;
};
form.table_number.addEventListener("change", syncVariant);
syncVariant();

// The dealer terminal's hands: pick one to fill the hand number and the seats dealt in, in order
// from the left of the button, with what each posted before the cards.
let hands = [];
const handPick = document.getElementById("hand-pick");
async function loadHands() {
  try { hands = await api("GET", `/api/pit/poker/hands?table_number=${form.table_number.value}`); }
  catch (e) { hands = []; }
  handPick.replaceChildren(el("option", { value: "" }, hands.length ? _("— pick a hand —") : _("— no hand on the terminal —")),
    ...hands.map(h => el("option", { value: h.number }, _("#{n} · {time} · button {button} · {count} dealt in",
      { n: h.number, time: clock(h.started_at), button: h.button ?? "–", count: h.seats.length }))));
}
handPick.addEventListener("change", () => {
  const h = hands.find(x => String(x.number) === handPick.value);
  if (!h) return;
  form.hand_ref.value = String(h.number);
  rows.replaceChildren(...h.seats.map(s => {
    const tr = seatRow(s.seat);
    tr.querySelector("[name=put_in]").value = (s.posted / 100).toFixed(2);
    tr.title = s.player || "";
    return tr;
  }));
});
form.table_number.addEventListener("change", loadHands);
loadHands();

function body() {
  const boards = [form.board1.value, form.board2.value].map(s => s.trim()).filter(Boolean);
  const seats = [...rows.querySelectorAll("tr")].map(tr => ({
    seat: parseInt(tr.querySelector("[name=seat]").value, 10),
    hole: tr.querySelector("[name=hole]").value,
    put_in: cents(tr.querySelector("[name=put_in]").value),
    folded: tr.querySelector("[name=folded]").checked,
  }));
  return { table_number: parseInt(form.table_number.value, 10), variant: form.variant.value, seats, boards, rake: form.rake.value.trim() ? cents(form.rake.value) : null };
}

function showResult(res, sent) {
  document.getElementById("result").hidden = false;
  document.getElementById("pots").replaceChildren(...res.pots.map((p, i) =>
    el("li", {}, `${i === 0 ? _("Main pot") : _("Side pot {n}", { n: i })}: ` + _("{amount} — seats {seats}", { amount: money(p.amount), seats: p.eligible.join(", ") }))));
  document.getElementById("won").replaceChildren(...sent.seats.map(s => el("li", { "data-seat": s.seat },
    el("strong", {}, _("Seat {seat}", { seat: s.seat }) + " "), s.hole ? cardRow(s.hole) : "", " ",
    el("span", { class: "muted" }, (res.hands[String(s.seat)] || [s.folded ? "folded" : ""]).filter(Boolean).map(h => term(`hand:${h}`)).join(" / ")),
    " ", el("span", { class: "won" }, money(res.won[String(s.seat)] || 0)))));
}

let last = null;
form.addEventListener("submit", async e => {
  e.preventDefault();
  const sent = body();
  try { showResult(await api("POST", "/api/pit/poker/showdown", sent), sent); last = sent; }
  catch (err) { toast(err.message, "error"); }
});

function renderRulings(list) {
  if (!list.length) { document.getElementById("rulings").replaceChildren(el("li", { class: "empty hint" }, _("No ruling yet."))); return; }
  document.getElementById("rulings").replaceChildren(...list.map(r => el("li", { class: "alert info", "data-ruling": r.id },
    el("span", {}, _("Table {table}, hand {hand}", { table: r.table_number, hand: r.hand_ref }),
      r.hand ? el("span", { class: "muted" }, " " + _("({time}, button {button}: {players})", { time: clock(r.hand.started_at), button: r.hand.button ?? "–", players: r.hand.seats.map(s => s.player).join(", ") })) : "", ": ",
      Object.entries(r.result.won).filter(([, v]) => v > 0).map(([s, v]) => _("seat {seat} wins {amount}", { seat: s, amount: money(v) })).join(", "),
      el("span", { class: "muted" }, ` — ${r.reason}`)))));
}
renderRulings(initial.rulings);

document.getElementById("record").addEventListener("click", async () => {
  if (!last) return;
  try {
    const r = await api("POST", "/api/pit/poker/rulings", { ...last, hand_ref: form.hand_ref.value, reason: document.getElementById("reason").value });
    toast(_("Ruling {id} recorded", { id: r.id }));
    renderRulings(await api("GET", "/api/pit/poker/linked-rulings"));
  } catch (err) { toast(err.message, "error"); }
});
