// A waiting player's estimated wait as the floor and the board say it: the likely wait, and the range
// 8 in 10 such waits fall in (floor/games/waits.py). "Seat free" when a seat is there for him now.
import { _ } from "./i18n.js";

function span(minutes) {
  if (minutes < 60) return _("~{m} min", { m: minutes });
  const h = Math.floor(minutes / 60), m = minutes % 60;
  return m ? _("~{h} h {m}", { h, m: String(m).padStart(2, "0") }) : _("~{h} h", { h });
}

export function waitText(minutes, range) {
  if (minutes === null || minutes === undefined) return "—";
  if (minutes === 0) return _("seat free");
  const text = span(minutes);
  if (!range || range[1] <= range[0]) return text;
  if (range[1] >= 240) return _("{wait} (could be much longer)", { wait: text });
  return _("{wait} ({low}–{high} min)", { wait: text, low: range[0], high: range[1] });
}
