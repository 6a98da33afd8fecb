// A player's pass on his own phone: each list he is on with his place and his wait (as the board says
// it), and his call, in large type with a countdown of the house's response time; "on my way" or "take
// me off this list". Live without reloading: his own room on /live is sent his own state (the shape
// /api/pass/<token> answers) whenever his lists change, and the page draws it as it comes, without
// asking the server again (hundreds of phones asking at once would load it for nothing). A phone that
// slept asks /api/pass/<token> when it wakes (and when its connection comes back): what it missed is
// read from the server, never replayed.
import { api, el, newestOnly, refill } from "./live.js";
import { _, amount, clock, term } from "./i18n.js";
import { waitText } from "./wait_text.js";
import { confirmAction } from "./confirm.js";

const token = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const base = `/api/pass/${encodeURIComponent(token)}`;
let state = JSON.parse(document.getElementById("pass-data").textContent);
let offset = 0;                       // server time - phone time, for the countdown
let ended = null;                     // the sentence of a pass that ended
const $ = id => document.getElementById(id);

const mmss = ms => { const s = Math.max(0, Math.round(ms / 1000)); return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`; };
const serverNow = () => Date.now() + offset;
const limit = g => [term(g.structure), g.small_blind != null && g.big_blind ? `${amount(g.small_blind)}/${amount(g.big_blind)}` : null]
  .filter(Boolean).join(" · ");

// ---------- alerts: asked once, when the page is first opened ----------
const ASKED = "floorman-pass-alerts";
let audio = null;
const allowed = () => localStorage.getItem(ASKED) === "yes";
function beep() {
  if (!allowed()) return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    audio.resume && audio.resume();
    for (const [at, f] of [[0, 880], [0.25, 1175], [0.5, 880]]) {
      const o = audio.createOscillator(), g = audio.createGain();
      o.frequency.value = f; g.gain.value = 0.2;
      o.connect(g).connect(audio.destination);
      o.start(audio.currentTime + at); o.stop(audio.currentTime + at + 0.18);
    }
  } catch (e) { /* no sound on this phone */ }
}
function buzz() { if (allowed() && navigator.vibrate) navigator.vibrate([300, 150, 300, 150, 300]); }
function askOnce() {
  const box = $("pass-ask");
  if (localStorage.getItem(ASKED)) return;
  box.hidden = false;
  box.querySelector("[data-action=allow-alerts]").addEventListener("click", () => {
    localStorage.setItem(ASKED, "yes");
    box.hidden = true;
    beep();                                    // unlocks sound on this page (a tap), and lets him hear it
    if (navigator.vibrate) navigator.vibrate(80);
  });
  box.querySelector("[data-action=deny-alerts]").addEventListener("click", () => { localStorage.setItem(ASKED, "no"); box.hidden = true; });
}

// A call rings once, when the page first sees it (arriving live or found on waking).
const RUNG = "floorman-pass-rung";
function ringNew(calls) {
  const rung = new Set(JSON.parse(sessionStorage.getItem(RUNG) || "[]"));
  let fresh = false;
  for (const l of calls) {
    const key = `${l.entry_id}@${l.call.called_at}`;
    if (!rung.has(key)) { rung.add(key); fresh = true; }
  }
  sessionStorage.setItem(RUNG, JSON.stringify([...rung].slice(-20)));
  if (fresh) { beep(); buzz(); }
}

// ---------- actions ----------
async function send(action, entryId) {
  try {
    const next = await api("POST", `${base}/entries/${entryId}/${action}`, {});
    show(next);
  } catch (e) {
    if (e.status === 410 || e.status === 404) return end(e.message);
    note(e.message);
    refresh();
  }
}
function note(text) {
  const foot = $("pass-foot");
  foot.textContent = text;
  foot.classList.add("error");
  setTimeout(() => { foot.classList.remove("error"); footer(); }, 6000);
}
const takeOff = l => async () => {
  if (await confirmAction(_("Take you off the {game} list?", { game: l.game.name }),
    _("You lose your place ({place}). Your other lists stay.", { place: l.place }), _("Take me off"))) send("take-off", l.entry_id);
};

// ---------- drawing ----------
function callView(l) {
  const c = l.call;
  return [
    el("h1", {}, _("You are called!")),
    el("p", { class: "where" }, _("Table {table} · seat {seat}", { table: c.table, seat: c.seat })),
    el("p", { class: "game" }, `${l.game.name} · ${limit(l.game)}`),
    el("p", { class: "countdown", id: "pass-countdown", "data-expires": c.expires_at }, mmss(Date.parse(c.expires_at) - serverNow())),
    el("p", { class: "countdown-label" }, _("left to reach the table (from {time})", { time: clock(c.called_at) })),
    c.on_my_way_at
      ? el("p", { class: "answered", "data-answered": "on-my-way" }, _("The floor knows you are on your way."))
      : null,
    el("div", { class: "pass-call-actions" },
      c.on_my_way_at ? null : el("button", { type: "button", class: "btn primary big", "data-action": "on-my-way",
        onclick: () => send("on-my-way", l.entry_id) }, _("On my way")),
      el("button", { type: "button", class: "btn big", "data-action": "take-off", onclick: takeOff(l) }, _("Take me off this list"))),
  ];
}

function listCard(l) {
  const eta = waitText(l.estimated_wait_minutes, l.estimated_wait_range);
  return el("article", { class: `pass-list ${l.status}`, "data-entry": l.entry_id, "data-place": l.place },
    el("h2", {}, l.game.name),
    el("p", { class: "limit" }, limit(l.game)),
    l.status === "called"
      ? el("p", { class: "eta" }, _("Called to table {table}", { table: l.call.table }))
      : [el("div", { class: "place-line" },
          el("span", { class: "place" }, _("No. {place}", { place: l.place })),
          el("span", { class: "of" }, _("of {n} on the list", { n: l.waiting }))),
         el("p", { class: `eta${l.estimated_wait_minutes === 0 ? " free" : ""}` },
           l.estimated_wait_minutes === null || l.estimated_wait_minutes === undefined
             ? _("Wait: not known yet") : _("Wait: {wait}", { wait: eta }))],
    l.status === "called" ? null
      : el("button", { type: "button", class: "btn", "data-action": "take-off", onclick: takeOff(l) }, _("Take me off this list")));
}

function footer() {
  $("pass-foot").textContent = _("This pass works until {time}, or until you are seated.", { time: clock(state.expires_at) });
}

// Why a pass ended, in the phone's language (the same sentences as its 410 answer); the pushed message,
// in the house's language, if the code is new to this page.
const ENDED = {
  pass_revoked: () => _("the floor has withdrawn this pass"),
  pass_done: () => _("this pass has ended: you are on no waiting list now"),
  pass_expired: () => _("this pass ended with the gaming day"),
};

function show(next) {
  if (ended) return;
  if (state && Date.parse(next.at) < Date.parse(state.at)) return;   // older than shown: an answer overtaken by a push
  state = next;
  offset = Date.parse(state.at) - Date.now();
  const calls = state.lists.filter(l => l.call);
  const box = $("pass-call");
  box.hidden = !calls.length;
  if (calls.length) {
    box.dataset.table = calls[0].call.table;
    box.dataset.seat = calls[0].call.seat;
    refill(box, callView(calls[0]));
  } else {
    box.replaceChildren();
  }
  refill($("pass-lists"), state.lists.length ? state.lists.map(listCard)
    : [el("p", { class: "pass-empty" }, _("You are on no waiting list now."))]);
  document.documentElement.dataset.places = state.lists.map(l => `${l.entry_id}:${l.status === "called" ? "called" : l.place}`).join(",");
  footer();
  ringNew(calls);
}

function end(message) {
  ended = message;
  $("pass-call").hidden = true;
  $("pass-ask").hidden = true;
  $("pass-foot").textContent = "";
  $("pass-lists").replaceChildren(el("div", { class: "pass-ended", "data-code": "ended" },
    el("h1", {}, _("This pass has ended")), el("p", {}, message),
    el("p", { class: "hint" }, _("Ask the floor for a new one if you are still waiting for a seat."))));
  document.documentElement.dataset.places = "ended";
  socket && socket.disconnect();
}

const answered = newestOnly();
let pending = null;
function refresh() {
  if (ended) return;
  clearTimeout(pending);
  pending = setTimeout(async () => {
    try {
      await answered(api("GET", base), show);
    } catch (e) {
      if (e.status === 410 || e.status === 404) end(e.message);
    }
  }, 30);
}

setInterval(() => {
  const c = document.getElementById("pass-countdown");
  if (c) c.textContent = mmss(Date.parse(c.dataset.expires) - serverNow());
}, 1000);

// ---------- live ----------
let socket = null;
let pushes = 0;                       // counted on <html data-pushed>: a test waits on that count
function live() {
  socket = window.io("/live", { transports: ["websocket", "polling"], auth: { pass: token } });
  const dot = $("live-dot");
  dot.classList.add("off");
  socket.on("connect", () => { dot.classList.add("on"); refresh(); });    // a reconnect catches up
  socket.on("disconnect", () => dot.classList.remove("on"));
  socket.on("connect_error", () => { dot.classList.remove("on"); refresh(); });
  socket.on("pass.changed", pushed => {         // his own state, or why his pass ended
    if (pushed && pushed.error) return end(ENDED[pushed.error] ? ENDED[pushed.error]() : pushed.message);
    if (pushed && pushed.lists) { show(pushed); document.documentElement.dataset.pushed = String(++pushes); }
  });
}
document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") refresh(); });
window.addEventListener("pageshow", refresh);
window.addEventListener("online", refresh);

askOnce();
show(state);
live();
