// The admin's floor layout: games at their limits and the tables that deal them, created and changed
// in place (no reloads). Amounts are typed in the house currency and sent as whole cents.
import { api, el, toast } from "./live.js";
import { _, amount, term } from "./i18n.js";

// "5", "5.5", "5.50" or "5,50" -> 550 cents; anything else (a sign, an exponent, three decimals) null.
export function toCents(text) {
  const m = String(text ?? "").trim().match(/^(\d{1,7})(?:[.,](\d{1,2}))?$/);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] || "0").padEnd(2, "0"));
}

function asText(cents) {
  return cents ? `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}` : "";
}

function limits(g) {
  return g.kind === "poker"
    ? _("{variant} {structure}, blinds {small}/{big}", { variant: term(g.variant), structure: term(g.structure),
        small: amount(g.small_blind), big: amount(g.big_blind) })
    : _("bets {min} to {max}", { min: amount(g.min_bet), max: amount(g.max_bet) });
}

export function startLayout(root) {
  let data = JSON.parse(document.getElementById("layout-data").textContent);
  const gameForm = root.querySelector("#la-game-form");
  const tableForm = root.querySelector("#la-table-form");
  let editingGame = null;     // a game's id while its form changes it
  let editingTable = null;    // a table's number

  function showKind() {
    const poker = gameForm.kind.value === "poker";
    gameForm.querySelectorAll("[data-for]").forEach(row => { row.hidden = (row.dataset.for === "poker") !== poker; });
  }

  function mode(form, changing) {
    const h = form.querySelector("h3");
    h.textContent = changing ? h.dataset.change : h.dataset.new;
    form.querySelector("[data-cancel]").hidden = !changing;
    form.querySelector(".error").hidden = true;
  }

  function draw() {
    root.querySelector("#la-games").replaceChildren(...(data.games.length ? data.games.map(g => el("li",
      { "data-game": g.id, class: g.id === editingGame ? "editing" : "" },
      el("div", { class: "la-main" }, el("strong", {}, g.name), el("div", { class: "la-sub" }, `${term(g.kind)} · ${limits(g)}`)),
      el("button", { class: "btn small", type: "button", onclick: () => editGame(g) }, _("Change"))))
      : [el("li", { class: "empty" }, _("No game yet: a table deals a game, so start here."))]));
    root.querySelector("#la-tables").replaceChildren(...(data.tables.length ? data.tables.map(t => el("li",
      { "data-table": t.number, class: t.number === editingTable ? "editing" : "" },
      el("div", { class: "la-main" }, el("strong", {}, _("Table {n}", { n: t.number })), ` · ${t.name}`,
        el("div", { class: "la-sub" }, `${t.game} · ${_("{n} seats", { n: t.seats })} · ${term(t.status)}`)),
      el("button", { class: "btn small", type: "button", onclick: () => editTable(t) }, _("Change"))))
      : [el("li", { class: "empty" }, _("No table yet."))]));
    const select = tableForm.game_id;
    const chosen = select.value;
    select.replaceChildren(...data.games.map(g => el("option", { value: g.id }, `${g.name} · ${term(g.kind)}`)));
    if (chosen) select.value = chosen;
  }

  function editGame(g) {
    editingGame = g.id;
    for (const f of ["name", "kind", "variant", "structure"]) if (g[f]) gameForm[f].value = g[f];
    for (const f of ["small_blind", "big_blind", "min_bet", "max_bet"]) gameForm[f].value = asText(g[f]);
    gameForm.kind.disabled = data.tables.some(t => t.game_id === g.id);   // its tables deal this kind
    mode(gameForm, true); showKind(); draw();
    gameForm.name.focus();
  }

  function editTable(t) {
    editingTable = t.number;
    tableForm.number.value = t.number; tableForm.number.disabled = true;
    tableForm.name.value = t.name; tableForm.seats.value = t.seats; tableForm.game_id.value = t.game_id;
    mode(tableForm, true); draw();
    tableForm.name.focus();
  }

  function reset(form) {
    form.reset();
    if (form === gameForm) { editingGame = null; gameForm.kind.disabled = false; showKind(); }
    else { editingTable = null; tableForm.number.disabled = false; }
    mode(form, false); draw();
  }

  function refuse(form, message, field) {
    const box = form.querySelector(".error");
    box.textContent = message; box.hidden = false;
    if (field && form[field]) form[field].focus();
  }

  async function send(form, method, url, body, done) {
    try {
      data = await api(method, url, body);
      toast(done, "ok");
      reset(form);
    } catch (e) {
      refuse(form, e.message, e.data && e.data.field);
    }
  }

  gameForm.addEventListener("submit", ev => {
    ev.preventDefault();
    const kind = gameForm.kind.value;
    const body = { name: gameForm.name.value.trim() };
    if (!editingGame) body.kind = kind;
    const money = kind === "poker" ? ["small_blind", "big_blind"] : ["min_bet", "max_bet"];
    for (const f of money) {
      const cents = toCents(gameForm[f].value);
      if (cents === null) return refuse(gameForm, _("Type an amount such as 5 or 5.50."), f);
      body[f] = cents;
    }
    if (kind === "poker") { body.variant = gameForm.variant.value; body.structure = gameForm.structure.value; }
    if (editingGame) send(gameForm, "PATCH", `/api/layout/games/${editingGame}`, body, _("Game saved."));
    else send(gameForm, "POST", "/api/layout/games", body, _("Game saved."));
  });

  tableForm.addEventListener("submit", ev => {
    ev.preventDefault();
    const number = Number(tableForm.number.value), seats = Number(tableForm.seats.value);
    if (!Number.isInteger(number) || number < 1) return refuse(tableForm, _("A table number is a whole number."), "number");
    if (!Number.isInteger(seats) || seats < 1) return refuse(tableForm, _("Seats are a whole number."), "seats");
    if (!tableForm.game_id.value) return refuse(tableForm, _("Create a game first."), "game_id");
    const body = { name: tableForm.name.value.trim(), seats, game_id: Number(tableForm.game_id.value) };
    if (editingTable) send(tableForm, "PATCH", `/api/layout/tables/${editingTable}`, body, _("Table saved."));
    else send(tableForm, "POST", "/api/layout/tables", { number, ...body }, _("Table saved."));
  });

  gameForm.kind.addEventListener("change", showKind);
  gameForm.querySelector("[data-cancel]").addEventListener("click", () => reset(gameForm));
  tableForm.querySelector("[data-cancel]").addEventListener("click", () => reset(tableForm));
  showKind(); draw();
  window.__layout = { data: () => data };
}

const root = document.getElementById("layout-admin");
if (root) startLayout(root);
