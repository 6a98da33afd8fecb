// Shared by every page: the Socket.IO connection to /live and a JSON helper that sends the CSRF token.
// Errors come back in the reader's language (the server translates them). Money and times: i18n.js.
export { amount, money } from "./i18n.js";
export const csrfToken = document.querySelector('meta[name="csrf-token"]')?.content || "";

// One tap, one request: a double tap on a tablet would otherwise send two ("already seated" beside
// "seated"). The button (or the form's submit button) that was tapped is disabled while the requests
// it started are out. Its handler calls api() in the same task as the tap; the requests its code
// sends as each answer arrives (a refresh, the next step) keep it disabled too.
let tapped = null;
export const lastTapped = () => tapped;
export function holdFor(button) {
  tapped = button;
  setTimeout(() => { if (tapped === button) tapped = null; }, 0);
}
function remember(e) {
  const button = e.type === "submit" ? e.submitter : e.target.closest && e.target.closest("button");
  if (button) holdFor(button);
}
document.addEventListener("click", remember, true);
document.addEventListener("submit", remember, true);
const inFlight = new WeakMap();
function busy(button, delta) {
  const n = (inFlight.get(button) || 0) + delta;
  inFlight.set(button, n);
  button.disabled = n > 0;
  button.toggleAttribute("aria-busy", n > 0);
}

export async function api(method, url, body) {
  const button = tapped;
  if (button) busy(button, 1);
  try {
    const res = await fetch(url, {
      method,
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken, "Accept": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
    let data = null;
    try { data = await res.json(); } catch (e) { data = null; }
    if (!res.ok) {
      const err = new Error((data && data.message) || res.statusText);
      err.status = res.status; err.code = data && data.error; err.data = data;
      throw err;
    }
    return data;
  } finally {
    if (button) { busy(button, -1); holdFor(button); }
  }
}

// Answers can come back in another order than they were asked: a refresh asked just before an action
// may be answered after it, with the table as it was before. A view shows an answer only when nothing
// it asked later has been shown, so a live page never steps back to an older state (a terminal that
// did would offer the dealer what is no longer true). Every answer handled, shown or set aside, is
// counted on <html data-answers>: a test waits on that count, never on a clock. The answer is returned
// either way (what the caller does besides showing it is not about order).
let answers = 0;
export function newestOnly() {
  let asked = 0, shown = 0;
  return async (request, show) => {
    const mine = ++asked;
    try {
      const value = await request;
      if (mine > shown) { shown = mine; show(value); }
      return value;
    } finally {
      document.documentElement.dataset.answers = String(++answers);
    }
  };
}

export function connect(onReady) {
  // io() comes from /vendor/socket.io.min.js (npm's socket.io-client).
  const socket = window.io("/live", { transports: ["websocket", "polling"] });
  const dot = document.getElementById("live-dot");
  dot && dot.classList.add("off");   // a page without live updates shows no dot at all
  socket.on("connect", () => { dot && dot.classList.add("on"); onReady && onReady(socket); });
  socket.on("disconnect", () => dot && dot.classList.remove("on"));
  socket.on("connect_error", () => dot && dot.classList.remove("on"));
  return socket;
}

// Messages show above everything, an open sheet included. A modal sheet makes the rest of the page
// inert, so the box lives inside the topmost open modal (back in the body when it closes), and it
// is a popover, put back on top of the top layer at each message.
function placeToasts(box) {
  const modals = [...document.querySelectorAll("dialog[open]")].filter(d => d.matches(":modal"));
  const host = modals.length ? modals[modals.length - 1] : document.body;
  if (box.parentElement !== host) host.appendChild(box);
  if (!box.showPopover) return;
  if (box.matches(":popover-open")) box.hidePopover();
  if (box.children.length) box.showPopover();
}
document.addEventListener("close", e => {
  const box = document.getElementById("toasts");
  if (box && e.target.contains(box)) setTimeout(() => placeToasts(box), 0);   // after the dialog left the top layer
}, true);

export function toast(message, kind = "info") {
  let box = document.getElementById("toasts");
  if (!box) {
    box = document.createElement("div");
    box.id = "toasts";
    box.setAttribute("popover", "manual");
    box.setAttribute("role", "status");
    box.setAttribute("aria-live", "polite");
  }
  const el = document.createElement("div");
  el.className = `toast ${kind}`;
  el.textContent = message;
  box.appendChild(el);
  while (box.children.length > 3) box.firstElementChild.remove();   // the newest three, never a wall
  placeToasts(box);
  setTimeout(() => {
    el.remove();
    if (!box.children.length && box.hidePopover && box.matches(":popover-open")) box.hidePopover();
  }, 6000);
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c.nodeType ? c : String(c));
  return node;
}

// Fill a live view, keeping its nodes when the new content is the same: a live update redraws the
// table many times a minute, and a button replaced between the press and the release of a tap (the
// press on the old one, the release on the new one) is no tap at all. Whole views only: a node kept
// keeps its handlers, which are right only because everything they act on is in the same markup.
export function refill(node, children) {
  const probe = document.createElement(node.tagName);
  probe.append(...children.flat().filter(c => c !== null && c !== undefined));
  if (probe.innerHTML !== node.innerHTML) node.replaceChildren(...probe.childNodes);
}

// Put a page's parts in place, keeping each old part marked data-keep whose markup is the same as its new
// one, where it stands (as refill does for one view: a tap on it lands even when a live redraw comes
// between the press and the release). Only parts whose handlers act on nothing but what their own markup
// shows, and whose data-keep names their owner (the tournament, say), are marked.
export function placeKeeping(node, parts) {
  const old = new Map([...node.children].filter(c => c.dataset.keep).map(c => [c.dataset.keep, c]));
  const next = parts.flat().filter(p => p !== null && p !== undefined && p !== false && p !== "").map(part => {
    const was = part.nodeType === 1 && part.dataset.keep ? old.get(part.dataset.keep) : null;
    return was && was.outerHTML === part.outerHTML ? was : part.nodeType ? part : document.createTextNode(String(part));
  });
  // the old parts go first, so a kept one is never moved (a node moved is taken out, and a tap on it lost)
  const keep = new Set(next);
  for (const child of [...node.childNodes]) if (!keep.has(child)) child.remove();
  let at = node.firstChild;
  for (const part of next) {
    if (part === at) at = at.nextSibling;
    else node.insertBefore(part, at);
  }
}

// Redraw a live page without losing what someone is typing or ticking on it: inputs and selects are
// matched by id, or by class and data-entry (or value) when they have none; open <details> stay open.
export function redrawKeeping(root, render) {
  const keyOf = x => x.id || `${x.className}:${x.dataset.entry || x.value}`;
  const kept = new Map([...root.querySelectorAll("select, input")].map(x => [keyOf(x), x.type === "checkbox" ? x.checked : x.value]));
  const opened = new Set([...root.querySelectorAll("details[id][open]")].map(x => x.id));
  render();
  for (const id of opened) { const d = root.querySelector(`details#${id}`); if (d) d.open = true; }
  for (const x of root.querySelectorAll("select, input")) {
    if (!kept.has(keyOf(x))) continue;
    if (x.type === "checkbox") x.checked = kept.get(keyOf(x));
    else if (x.tagName !== "SELECT" || [...x.options].some(o => o.value === kept.get(keyOf(x)))) x.value = kept.get(keyOf(x));
  }
}
