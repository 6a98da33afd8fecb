// The live device page: each device's line as it happens (bytes in hex and as text, the events decoded
// from them, the refusals with their reason, what was written to the device) and its health; pause,
// filters, and the last hour as a capture file. The device process sends the lines only while a page
// like this one is open: the page says so when it opens, and again every few seconds.
import { connect, el, toast } from "./live.js";
import { _, clock, ngettext, term } from "./i18n.js";

const KEEP = 400;          // rows per device on the page
const HELD = 4000;         // items kept while paused
const RENEW_MS = 10_000;

const initial = JSON.parse(document.getElementById("initial-data").textContent);
const root = document.getElementById("dl-devices");
const state = document.getElementById("tap-state");
const pauseButton = document.getElementById("dl-pause");
const pausedNote = document.getElementById("dl-paused-note");
const sections = new Map();
let paused = false;
let held = [];
let heldDropped = 0;

// the reasons the decoders give, in the reader's language; another is shown as it is
const REASONS = () => ({
  "bad BCC": _("bad BCC (checksum)"), "no ETX": _("no ETX (frame not closed)"), "frame cut short": _("frame cut short"),
  "no type letter": _("no type letter"), "data byte without bit 7": _("data byte without bit 7"),
  "garbage before start byte": _("garbage before the start byte"), "garbage before packet": _("garbage before the packet"),
  "CR without LF": _("CR without LF"), "line ended by LF alone": _("line ended by LF alone"),
  "noise on the line": _("noise on the line"), "not a card": _("not a card"), "not a packet": _("not a packet"),
  "unknown packet": _("unknown packet"), "winning number outside 0-36": _("winning number outside 0-36"),
  "spin number outside 1-256": _("spin number outside 1-256"), "bad card code": _("bad card code"),
  "bad result code": _("bad result code"), "bad lock status": _("bad lock status"),
  "bad target or index": _("bad target or index"), "double zero is not a European number": _("double zero is not a European number"),
});
const EVENTS = () => ({
  WheelStatus: _("wheel status"), WinningNumber: _("winning number"), SelfTest: _("self test"),
  CommandReply: _("command reply"), CardDealt: _("card dealt"), CardDrawn: _("card drawn"), CardRepeated: _("card repeated"),
  CutCard: _("cut card"), CoupStart: _("coup start"), Standby: _("standby"), LockStatus: _("lock status"),
  ShoeResult: _("shoe result"), ShoeError: _("shoe error"), ShoeErrorCleared: _("shoe error cleared"),
  CardRead: _("card read"), PlayerCardRead: _("player card read"), Silence: _("silence"), ClockStep: _("clock step"),
});

const bytesOf = hex => (hex.match(/../g) || []).map(h => parseInt(h, 16));
const hexText = hex => (hex.match(/../g) || []).join(" ").toUpperCase();
function printable(hex) {
  return bytesOf(hex).map(b => b === 13 ? "␍" : b === 10 ? "␊" : b >= 32 && b < 127 ? String.fromCharCode(b) : "·").join("");
}
// what the host wrote, in words: a shoe's ACK and NAK answers (several in one write), or a command
function sentLabel(hex) {
  const b = bytesOf(hex);
  if (b[0] === 0x02) return _("command {text}", { text: String.fromCharCode(...b.slice(1, 5).map(x => x & 0x7f)) });
  if (b[0] !== 0x06 && b[0] !== 0x15) return _("command {text}", { text: printable(hex).replace(/[␍␊]/g, "") });
  const said = [];
  for (let i = 0; i < b.length;) {
    if (b[i] === 0x06) { said.push(_("ACK")); i += 1; }
    else if (b[i] === 0x15) { said.push(_("NAK {code}", { code: String.fromCharCode(...b.slice(i + 1, i + 3)) })); i += 3; }
    else { said.push(printable(b.slice(i).map(x => x.toString(16).padStart(2, "0")).join(""))); break; }
  }
  return said.join(" · ");
}

function shown() {
  const kinds = new Set([...document.querySelectorAll("input[name=show]:checked")].map(x => x.value));
  const devices = new Set([...document.querySelectorAll("input[name=device-kind]:checked")].map(x => x.value));
  return { kinds, devices };
}
function applyFilters() {
  const { kinds, devices } = shown();
  for (const [, s] of sections) {
    s.node.hidden = !devices.has(s.kind);
    for (const k of ["bytes", "event", "refused", "sent"]) s.node.classList.toggle(`hide-${k}`, !kinds.has(k));
  }
}
document.querySelectorAll(".dl-filters input").forEach(x => x.addEventListener("change", applyFilters));

// the reader's last error: a refused frame's reason in words; a port's error as the system said it
function lastError(text) {
  if (!text.startsWith("frame: ")) return text;
  const reason = text.slice("frame: ".length);
  return _("refused frame: {reason}", { reason: REASONS()[reason] || reason });
}

function healthLine(h) {
  const status = h.lost ? "lost_device" : h.fault ? "fault" : h.state;
  return [
    el("span", { class: `badge ${h.lost ? "lost" : h.fault ? "fault" : h.connected ? "ok" : "disconnected"}` }, term(status)),
    el("span", {}, ngettext("{n} frame", "{n} frames", h.frames ?? 0)),
    el("span", {}, ngettext("{n} refused", "{n} refused", h.frame_errors ?? 0)),
    el("span", {}, ngettext("{n} error", "{n} errors", h.errors ?? 0)),
    h.reconnects ? el("span", {}, ngettext("{n} reconnect", "{n} reconnects", h.reconnects)) : null,
    h.fault ? el("span", { class: "dl-fault" }, h.fault) : null,
    h.last_error ? el("span", { class: "muted" }, _("last error: {error}", { error: lastError(h.last_error) })) : null,
  ];
}

function section(d) {
  let s = sections.get(d.name);
  if (s) return s;
  const health = el("div", { class: "dl-health" });
  const body = el("tbody", {});
  const node = el("section", { class: "dl-device", "data-device": d.name, "data-kind": d.kind || "" },
    el("header", { class: "dl-device-head" },
      el("h2", {}, _("{name} · table {table} · {kind}", { name: d.name, table: d.table ?? "?", kind: term(d.kind || "device") })),
      el("a", { class: "btn small", href: `/devices/${encodeURIComponent(d.name)}/capture?minutes=60`, download: "" },
        _("Download the last hour"))),
    health,
    el("div", { class: "dl-scroll" }, el("table", { class: "dl-line" },
      el("thead", {}, el("tr", {}, el("th", {}, _("Time")), el("th", {}, _("What")), el("th", {}, _("Hex")),
        el("th", {}, _("Text")), el("th", {}, _("Detail")))),
      body)));
  s = { node, body, health, kind: d.kind || "" };
  sections.set(d.name, s);
  root.append(node);
  if (d.state !== undefined) health.replaceChildren(...healthLine(d).filter(Boolean));
  applyFilters();
  return s;
}

function row(item) {
  const at = el("td", { class: "dl-time" }, clock(item.at, { seconds: true }) + "." + (item.at || "").slice(20, 23));
  if (item.kind === "bytes") {
    return el("tr", { class: "bytes" }, at, el("td", {}, item.hex ? _("received") : _("port opened")),
      el("td", { class: "hex" }, hexText(item.hex)), el("td", { class: "txt" }, printable(item.hex)), el("td", {}));
  }
  if (item.kind === "sent") {
    return el("tr", { class: "sent" }, at, el("td", {}, _("sent")), el("td", { class: "hex" }, hexText(item.hex)),
      el("td", { class: "txt" }, printable(item.hex)), el("td", {}, sentLabel(item.hex)));
  }
  if (item.kind === "refused") {
    const reason = REASONS()[item.reason] || item.reason;
    return el("tr", { class: "refused" }, at, el("td", {}, _("refused")), el("td", { class: "hex" }, hexText(item.hex)),
      el("td", { class: "txt" }, printable(item.hex)),
      el("td", {}, el("mark", { class: "reason" }, reason), item.floor ? el("span", { class: "muted" }, " " + _("(alerted on the table)")) : null));
  }
  const fields = Object.entries(item.fields || {}).map(([k, v]) => `${k}=${v}`).join(" ");
  return el("tr", { class: "event" }, at, el("td", {}, _("event")), el("td", {}, ""), el("td", {}, ""),
    el("td", {}, el("strong", {}, EVENTS()[item.type] || item.type), " ", fields));
}

function show(item) {
  const s = section({ name: item.device, kind: item.health?.kind, table: item.health?.table });
  if (item.kind === "health") {
    if (!s.kind && item.health.kind) { s.kind = item.health.kind; s.node.dataset.kind = s.kind; applyFilters(); }
    s.health.replaceChildren(...healthLine(item.health).filter(Boolean));
    return;
  }
  s.body.prepend(row(item));
  while (s.body.children.length > KEEP) s.body.lastElementChild.remove();
}

function receive(payload) {
  if (payload.hello || state.dataset.state !== "live") {
    state.dataset.state = "live";
    state.textContent = _("Live");
  }
  if (payload.dropped) toast(ngettext("{n} item of the line was not shown (the page fell behind)",
    "{n} items of the line were not shown (the page fell behind)", payload.dropped), "error");
  for (const item of payload.items || []) {
    if (paused && item.kind !== "health") {
      if (held.length < HELD) held.push(item); else heldDropped++;
      continue;
    }
    show(item);
  }
  if (paused) pausedNote.textContent = ngettext("{n} new item while paused", "{n} new items while paused", held.length + heldDropped);
}

pauseButton.addEventListener("click", () => {
  paused = !paused;
  pauseButton.setAttribute("aria-pressed", String(paused));
  pauseButton.textContent = paused ? _("Resume") : _("Pause");
  pausedNote.hidden = !paused;
  pausedNote.textContent = ngettext("{n} new item while paused", "{n} new items while paused", 0);
  if (!paused) {
    const waiting = held;
    held = [];
    if (heldDropped) toast(ngettext("{n} item was not kept while paused", "{n} items were not kept while paused", heldDropped));
    heldDropped = 0;
    waiting.forEach(show);
  }
});

for (const d of initial.devices) section(d);
if (!initial.devices.length) root.append(el("p", { class: "muted", id: "dl-none" }, _("No devices reporting")));

const join = socket => socket.emit("join_devices", {}, ack => {
  if (ack && ack.error) toast(ack.message || ack.error, "error");
});
const socket = connect(join);   // on each (re)connection
socket.on("device.line", receive);
setInterval(() => socket.connected && join(socket), RENEW_MS);
window.addEventListener("pagehide", () => socket.connected && socket.emit("leave_devices", {}));
