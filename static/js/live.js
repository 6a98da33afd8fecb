// Shared by every page: the Socket.IO connection to /live and a JSON helper that sends the CSRF token.
// Errors come back in the reader's language (the server translates them). Money and times: i18n.js.
export { amount, money } from "./i18n.js";
export const csrfToken = document.querySelector('meta[name="csrf-token"]')?.content || "";

export async function api(method, url, body) {
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

export function toast(message, kind = "info") {
  let box = document.getElementById("toasts");
  if (!box) { box = document.createElement("div"); box.id = "toasts"; document.body.appendChild(box); }
  const el = document.createElement("div");
  el.className = `toast ${kind}`;
  el.textContent = message;
  box.appendChild(el);
  setTimeout(() => el.remove(), 6000);
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

// Redraw a live page without losing what someone is typing or ticking on it: inputs and selects are
// matched by id, or by class and data-entry (or value) when they have none.
export function redrawKeeping(root, render) {
  const keyOf = x => x.id || `${x.className}:${x.dataset.entry || x.value}`;
  const kept = new Map([...root.querySelectorAll("select, input")].map(x => [keyOf(x), x.type === "checkbox" ? x.checked : x.value]));
  render();
  for (const x of root.querySelectorAll("select, input")) {
    if (!kept.has(keyOf(x))) continue;
    if (x.type === "checkbox") x.checked = kept.get(keyOf(x));
    else if (x.tagName !== "SELECT" || [...x.options].some(o => o.value === kept.get(keyOf(x)))) x.value = kept.get(keyOf(x));
  }
}
