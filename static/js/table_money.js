// A table's chips: the dealer terminal's buy-ins, counts, fills and credits; the pit's sheet of a
// table and gaming day; the cage's queue. One module, three pages (data-mode); everything shown comes
// from the API, and each change anywhere redraws it (live: table_money.changed, slip.changed).
import { api, connect, el, newestOnly, refill, toast } from "./live.js";
import { _, amount, clock, hold, money, term } from "./i18n.js";

const data = JSON.parse(document.getElementById("tm-data").textContent);
const mode = data.mode;
const show = newestOnly();

// "125", "125.50", "125,5" -> cents; anything else -> null (never a float sent as money)
export function toCents(text) {
  const m = /^\s*(\d{1,9})(?:[.,](\d{1,2}))?\s*$/.exec(text || "");
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] || "0").padEnd(2, "0"));
}

const KIND = () => ({ fill: _("Fill"), credit: _("Credit"), opening: _("Opening count"), closing: _("Closing count"),
                      interim: _("Interim count") });
const STATE = () => ({ requested: _("requested"), issued: _("issued by the cage"), received: _("received"),
                       cancelled: _("cancelled") });
const dash = v => (v === null || v === undefined ? "–" : amount(v));
const chipsText = chips => Object.entries(chips).sort((a, b) => Number(b[0]) - Number(a[0]))
  .map(([d, n]) => `${n} × ${amount(Number(d))}`).join(" · ");

async function act(method, url, body, done) {
  try { const out = await api(method, url, body); toast(done(out)); refresh(); return out; }
  catch (e) { toast(e.message, "error"); return null; }
}

function reason(what) {
  const text = window.prompt(_("Why cancel slip {serial}?", { serial: what }));
  return text && text.trim() ? text.trim() : null;
}

function slipItem(s, { forCage = false } = {}) {
  const actions = [];
  const cancel = url => el("button", { class: "btn danger", "data-action": "cancel", onclick: () => {
    const why = reason(s.serial);
    if (why) act("POST", url, { reason: why }, () => _("Slip {serial} cancelled", { serial: s.serial }));
  } }, _("Cancel"));
  if (forCage && s.state === "requested") {
    actions.push(el("button", { class: "btn primary", "data-action": "issue", onclick: () =>
      act("POST", `/api/slips/${s.serial}/issue`, {}, () => _("Slip {serial} issued", { serial: s.serial })) }, _("Issue")));
  }
  if (!forCage && mode === "table" && s.state === "issued") {
    actions.push(el("button", { class: "btn primary", "data-action": "receive", onclick: () =>
      act("POST", `/api/tables/${data.table}/slips/${s.serial}/receive`, {}, () => _("Slip {serial} received", { serial: s.serial })) },
      s.kind === "fill" ? _("Receive the fill") : _("Hand the credit over")));
  }
  if (!forCage && mode === "pit" && (s.state === "requested" || s.state === "issued") && !s.approved_by_name) {
    actions.push(el("button", { class: "btn", "data-action": "approve", onclick: () =>
      act("POST", `/api/slips/${s.serial}/approve`, {}, () => _("Slip {serial} approved", { serial: s.serial })) }, _("Approve")));
  }
  if (s.state === "requested" || s.state === "issued") {
    actions.push(cancel(forCage || mode === "pit" ? `/api/slips/${s.serial}/cancel` : `/api/tables/${data.table}/slips/${s.serial}/cancel`));
  }
  actions.push(el("a", { class: "btn ghost", href: `/slips/${s.serial}/print`, target: "_blank" }, _("Print")));
  return el("li", { class: `tm-slip state-${s.state}`, "data-serial": s.serial, "data-state": s.state },
    el("div", {}, el("strong", {}, `${KIND()[s.kind]} ${_("No. {serial}", { serial: s.serial })}`),
      forCage ? ` · ${_("Table {n}", { n: s.table })}` : "", " · ", el("span", { class: "amount" }, money(s.total)),
      el("div", { class: "muted" }, chipsText(s.chips)),
      el("div", { class: "muted" }, `${STATE()[s.state]} · ${s.requested_by_name} ${clock(s.requested_at)}`
        + (s.approved_by_name ? ` · ${_("approved by {name}", { name: s.approved_by_name })}` : "")
        + (s.issued_by_name ? ` · ${s.issued_by_name}` : "") + (s.received_by_name ? ` · ${s.received_by_name}` : "")
        + (s.cancel_reason ? ` · ${s.cancel_reason}` : ""))),
    el("div", { class: "tm-item-actions" }, actions));
}

function countItem(v) {
  const c = v.count;
  const verify = !c.verified && mode === "pit"
    ? el("button", { class: "btn primary", "data-action": "verify", onclick: () =>
      act("POST", `/api/tables/${data.table}/counts/${c.id}/verify`, {}, () => _("Count verified")) }, _("Verify"))
    : null;
  const diff = v.difference === null ? "" : v.difference === 0 ? _("as the ledger expects")
    : _("{difference} against the {expected} the ledger expects", { difference: money(v.difference), expected: money(v.expected) });
  return el("li", { class: `tm-count ${c.verified ? "verified" : "unverified"}`, "data-count": c.id, "data-kind": c.kind },
    el("div", {}, el("strong", {}, KIND()[c.kind]), " · ", el("span", { class: "amount" }, money(c.total)),
      el("div", { class: "muted" }, chipsText(c.chips)),
      el("div", { class: v.difference ? "neg" : "muted", "data-col": "difference" }, diff),
      el("div", { class: "muted" }, `${c.counted_by_name} ${clock(c.counted_at)} · `
        + (c.verified ? _("verified by {name}", { name: c.verified_by_name }) : _("not verified: not a count yet")))),
    el("div", { class: "tm-item-actions" }, verify));
}

function figures(d) {
  const item = (label, value, col) => [el("div", { class: "tm-fig" }, el("dt", {}, label),
    el("dd", { "data-col": col, class: "num" }, value))];
  return [
    ...item(_("Drop"), amount(d.drop) + (d.counted_drop === null ? ` (${_("not counted")})` : ""), "drop"),
    ...item(_("Buy-ins recorded"), amount(d.recorded_drop), "recorded"),
    ...(d.drop_difference === null ? [] : item(_("Drop against the buy-ins"), amount(d.drop_difference), "drop-difference")),
    ...item(_("Fills"), amount(d.fills), "fills"), ...item(_("Credits"), amount(d.credits), "credits"),
    ...item(_("Opening"), dash(d.opening), "opening"), ...item(_("Closing"), dash(d.closing), "closing"),
    ...item(_("Win"), dash(d.win), "win"), ...item(_("Hold"), hold(d.hold), "hold"),
    ...item(_("Rounds' win"), dash(d.rounds_win), "rounds-win"),
    ...item(_("Difference"), dash(d.difference), "difference"),
  ];
}

function shiftItem(s, i) {
  return el("li", { class: "tm-shift", "data-shift": i + 1 },
    el("strong", {}, _("Shift {n}", { n: i + 1 })), " ",
    `${_("Opening")} ${amount(s.opening.total)} · ${_("Closing")} ${dash(s.closing && s.closing.total)} · `
    + `${_("Fills")} ${amount(s.fills)} · ${_("Credits")} ${amount(s.credits)} · ${_("Buy-ins recorded")} ${amount(s.drop)} · `
    + `${_("Win")} ${dash(s.inventory_win)} · ${_("Rounds' win")} ${amount(s.rounds_win)} · `,
    el("span", { "data-col": "difference", class: s.difference ? "neg" : "" }, `${_("Difference")} ${dash(s.difference)}`));
}

function render(sheet) {
  today = sheet.gaming_day;
  const dayInput = document.getElementById("tm-day");
  if (dayInput && !dayInput.value) dayInput.value = today;
  refill(document.getElementById("tm-figures"), figures(sheet.day));
  const due = document.getElementById("tm-count-due");
  if (due) {
    due.hidden = !sheet.count_due;
    due.textContent = sheet.count_due ? _("Count the tray: {name} took the table at {time}", {
      name: sheet.count_due.dealer_name, time: clock(sheet.count_due.since) }) : "";
  }
  refill(document.getElementById("tm-slips"), sheet.slips.slice().reverse().map(s => slipItem(s)));
  refill(document.getElementById("tm-counts"), sheet.counts.slice().reverse().map(countItem));
  refill(document.getElementById("tm-shifts"), sheet.day.shifts.map(shiftItem));
  refill(document.getElementById("tm-buyins"), sheet.buy_ins.slice().reverse().map(b => el("li", { "data-buy-in": b.id },
    `${money(b.amount)} · ${term(b.method)}` + (b.seat ? ` · ${_("seat {seat}", { seat: b.seat })}` : "") + ` · ${b.recorded_by_name} ${clock(b.at)}`)));
  const drop = document.getElementById("tm-drop");
  if (drop) {
    const d = sheet.drop_count;
    refill(drop, d ? [el("p", { "data-drop": d.id }, `${money(d.total)} · ${d.counted_by_name} · `
      + (d.verified_by_name ? _("verified by {name}", { name: d.verified_by_name }) : _("not verified: not a count yet")),
      d.verified_by_name ? null : el("button", { class: "btn primary", "data-action": "verify-drop", onclick: () =>
        act("POST", `/api/drop-counts/${d.id}/verify`, {}, () => _("Drop count verified")) }, _("Verify")))] : []);
    document.getElementById("tm-drop-form").hidden = !!d;
  }
}

function dayArg() {
  const input = document.getElementById("tm-day");
  return input && input.value ? `?day=${input.value}` : "";
}

function refresh() {
  if (mode === "cage") {
    return show(api("GET", "/api/slips"), slips => {
      refill(document.getElementById("cage-queue"), slips.map(s => slipItem(s, { forCage: true })));
      document.getElementById("cage-empty").hidden = slips.length > 0;
    }).catch(e => toast(e.message, "error"));
  }
  return show(api("GET", `/api/tables/${data.table}/money${dayArg()}`), render).catch(e => toast(e.message, "error"));
}

function chipInputs() {
  const box = document.getElementById("tm-denoms");
  const total = document.getElementById("tm-chips-total");
  const inputs = data.chips.slice().reverse().map(d => el("input", { type: "number", min: 0, max: 100000, step: 1,
    inputmode: "numeric", name: `chips-${d}`, "data-denomination": d, "aria-label": _("Chips of {value}", { value: amount(d) }) }));
  box.replaceChildren(...data.chips.slice().reverse().map((d, i) => el("label", { class: "tm-denom" },
    el("span", {}, amount(d)), inputs[i])));
  const read = () => {
    const chips = {};
    let sum = 0;
    for (const input of inputs) {
      if (input.value === "") continue;
      const n = Number(input.value);
      if (!Number.isInteger(n) || n < 0) return null;
      if (n) { chips[input.dataset.denomination] = n; sum += n * Number(input.dataset.denomination); }
    }
    return { chips, sum };
  };
  box.addEventListener("input", () => { const r = read(); total.textContent = r ? money(r.sum) : "–"; });
  const clear = () => { for (const input of inputs) input.value = ""; total.textContent = money(0); };
  document.getElementById("tm-chips").addEventListener("click", e => {
    const button = e.target.closest("button[data-action]");
    if (!button) return;
    const r = read();
    if (!r || !Object.keys(r.chips).length) { toast(_("Enter the chips by denomination"), "warning"); return; }
    const kind = button.dataset.kind;
    if (button.dataset.action === "count") {
      act("POST", `/api/tables/${data.table}/counts`, { kind, chips: r.chips }, out => {
        clear(); return _("{what} of {total} entered: a second person verifies it", { what: KIND()[kind], total: money(out.total) });
      });
    } else {
      act("POST", `/api/tables/${data.table}/slips`, { kind, chips: r.chips }, out => {
        clear(); return _("{what} No. {serial} requested", { what: KIND()[kind], serial: out.serial });
      });
    }
  });
}

if (mode !== "cage") {
  chipInputs();
  const buyin = document.getElementById("tm-buyin");
  buyin && buyin.addEventListener("submit", e => {
    e.preventDefault();
    const cents = toCents(buyin.amount.value);
    if (!cents) { toast(_("Enter an amount like 250 or 250.50"), "warning"); return; }
    act("POST", `/api/tables/${data.table}/buy-ins`, { amount: cents, method: buyin.method.value,
      seat: buyin.seat.value ? Number(buyin.seat.value) : null }, out => {
      buyin.amount.value = ""; return _("Buy-in of {amount} recorded", { amount: money(out.amount) });
    });
  });
  const dropForm = document.getElementById("tm-drop-form");
  dropForm && dropForm.addEventListener("submit", e => {
    e.preventDefault();
    const cents = toCents(dropForm.total.value);
    if (cents === null) { toast(_("Enter an amount like 250 or 250.50"), "warning"); return; }
    const day = document.getElementById("tm-day").value || today;
    act("POST", `/api/tables/${data.table}/drop`, { day, total: cents }, () => _("Drop count entered: a second person verifies it"));
  });
  const dayInput = document.getElementById("tm-day");
  const asked = new URLSearchParams(location.search).get("day");
  if (dayInput && asked && /^\d{4}-\d\d-\d\d$/.test(asked)) dayInput.value = asked;
  dayInput && dayInput.addEventListener("change", refresh);
}

let today = "";
const socket = connect(sock => {
  if (mode !== "cage") sock.emit("join_table", { table_id: data.table_id });
  refresh();
});
socket.on("table_money.changed", () => refresh());
socket.on("slip.changed", () => refresh());
socket.on("rotation.changed", m => { if (!m || !m.tables || m.tables.includes(data.table_id)) refresh(); });   // a new dealer may owe a count
