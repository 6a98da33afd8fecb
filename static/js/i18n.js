// The page's language: strings from the same catalogs as the server (the page embeds, as JSON, the
// translations its modules use: floor/web/i18n.py i18n_data), money written as the server writes it, and
// times by Intl in the house timezone, 24-hour. Mark a string with _("Seat {seat}", { seat: 3 }).
const data = JSON.parse(document.getElementById("i18n-data")?.textContent || "{}");
const catalogs = data.catalogs || {};
let lang = data.lang || "en";
const listeners = [];

export const house = { currency: data.currency || "CHF", timezone: data.timezone || "UTC" };

export function language() { return lang; }
export function locale() { return (data.locales || {})[lang] || data.locale || lang; }
export function languages() { return Object.keys(catalogs); }

// The TV board shows several languages in turn: every module re-renders on a change.
export function setLanguage(next) {
  if (!catalogs[next] || next === lang) return;
  lang = next;
  document.documentElement.lang = next;
  relabel();
  listeners.forEach(fn => fn(next));
}
export function onLanguage(fn) { listeners.push(fn); }

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in params && params[k] !== undefined && params[k] !== null ? String(params[k]) : m));
}

function lookup(msgid) {
  const found = (catalogs[lang] || {})[msgid];
  return found === undefined || found === "" ? msgid : found;
}

export function _(msgid, params) {
  const found = lookup(msgid);
  return fill(Array.isArray(found) ? found[0] : found, params);
}

// The same English word meaning two things ("Seat" a player / a "Seat" number): a context tells them apart.
export function pgettext(context, msgid, params) {
  const found = (catalogs[lang] || {})[`${context}\u0004${msgid}`];
  return fill(found === undefined || found === "" ? msgid : found, params);
}

export function ngettext(one, many, n, params = {}) {
  const forms = (catalogs[lang] || {})[one];
  const which = new Intl.PluralRules(locale()).select(n) === "one" ? 0 : 1;
  const text = Array.isArray(forms) && forms[which] ? forms[which] : (which === 0 ? one : many);
  return fill(text, { n, ...params });
}

// A code of the floor's vocabulary (role, status, game, bet spot) in words.
export function term(code) {
  if (code === null || code === undefined) return "";
  const found = (catalogs[lang] || {})[`term:${code}`] ?? (catalogs.en || {})[`term:${code}`];
  return found || String(code).replaceAll("_", " ");
}

// Elements written by the server with data-t="msgid" follow a language change (the board).
export function relabel(root = document) {
  root.querySelectorAll("[data-t]").forEach(node => { node.textContent = _(node.dataset.t); });
}

// --- money and time: one place, the house currency and timezone ----------------------------------------
const cache = new Map();
function fmt(kind, make) {
  const key = `${lang}|${kind}`;
  if (!cache.has(key)) cache.set(key, make(locale()));
  return cache.get(key);
}

// Money as the server writes it (floor/web/i18n.py money_format: its separators and where the currency
// goes, per language): the browser's Intl writes Swiss French money with a point where the server
// and the tables write a comma. Intl only where a page came without the server's format.
function grouped(hundredths, f) {   // whole numbers only: no float rounding on the way
  const abs = Math.abs(Math.round(hundredths));
  const whole = String(f.digits ? Math.floor(abs / 100) : Math.round(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, f.group);
  return f.digits ? `${whole}${f.decimal}${String(abs % 100).padStart(2, "0").padEnd(f.digits, "0")}` : whole;
}
function moneyFormat() { return (data.money || {})[lang]; }

export function money(cents) {
  if (cents === null || cents === undefined) return "–";
  const f = moneyFormat();
  if (f) {
    const [before, after] = cents < 0 ? f.money_negative : f.money;
    return `${before}${grouped(cents, f)}${after}`;
  }
  return fmt("money", l => new Intl.NumberFormat(l, { style: "currency", currency: house.currency })).format(cents / 100);
}

// Cents as a plain amount (no currency sign) where the heading or the setting says the currency.
export function amount(cents) {
  if (cents === null || cents === undefined) return "–";
  const f = moneyFormat();
  if (f) {
    const [before, after] = cents < 0 ? f.amount_negative : ["", ""];
    return `${before}${grouped(cents, f)}${after}`;
  }
  return fmt("amount", l => {
    const digits = new Intl.NumberFormat(l, { style: "currency", currency: house.currency }).resolvedOptions().maximumFractionDigits;
    return new Intl.NumberFormat(l, { minimumFractionDigits: digits, maximumFractionDigits: digits });
  }).format(cents / 100);
}

// A hold in hundredths of a percent (1234) with the same separators: 12.34 %, 12,34 %.
export function hold(basisPoints) {
  if (basisPoints === null || basisPoints === undefined) return "–";
  const f = moneyFormat() || { digits: 2, decimal: ".", group: "", amount_negative: ["-", ""] };
  const [before, after] = basisPoints < 0 ? f.amount_negative : ["", ""];
  return `${before}${grouped(basisPoints, { ...f, digits: 2 })}${after}\u00a0%`;
}

export function clock(iso, { seconds = false } = {}) {
  if (!iso) return "";
  const f = fmt(seconds ? "clock-s" : "clock", l => new Intl.DateTimeFormat(l, { timeZone: house.timezone, hour: "2-digit",
    minute: "2-digit", ...(seconds ? { second: "2-digit" } : {}), hourCycle: "h23" }));
  return f.format(new Date(iso));
}

export function when(iso) {
  if (!iso) return "";
  return fmt("when", l => new Intl.DateTimeFormat(l, { timeZone: house.timezone, day: "2-digit", month: "2-digit",
    hour: "2-digit", minute: "2-digit", hourCycle: "h23" })).format(new Date(iso));
}

// A gaming day (YYYY-MM-DD) as the language writes dates.
export function day(iso) {
  if (!iso) return "";
  return fmt("day", l => new Intl.DateTimeFormat(l, { timeZone: "UTC", day: "numeric", month: "short", year: "numeric" }))
    .format(new Date(`${String(iso).slice(0, 10)}T12:00:00Z`));
}

export function number(n) {
  return fmt("number", l => new Intl.NumberFormat(l)).format(n);
}

// A domain message kept as its template and typed values (an alert's data.msg): said in the page's
// language, values formatted for the reader. The page embeds the templates (i18n_data names the
// domain module that raises them).
const TERM_KEYS = new Set(["status", "status2", "kind", "role", "outcome", "decision", "spot", "structure", "action", "what"]);
function sayValue(key, v) {
  if (v && typeof v === "object") {
    if ("msg" in v) return say(v.msg);
    if ("money" in v) return money(v.money);
    if ("term" in v) return term(v.term);
    if ("time" in v) return clock(v.time);
  }
  if (typeof v === "string" && TERM_KEYS.has(key.replace(/\d+$/, ""))) return term(v);
  return v;
}
export function say(msg, fallback = "") {
  if (!msg || !msg.template) return fallback;
  const params = {};
  for (const [k, v] of Object.entries(msg.params || {})) params[k] = sayValue(k, v);
  return _(msg.template, params);
}
