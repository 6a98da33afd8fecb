// The pit's charts, drawn with Chart.js (npm's chart.js, served as /vendor/chart.umd.min.js: the
// page loads it before this module). Each function takes a canvas and the JSON the API gives.
import { _, amount, clock, term } from "./i18n.js";

const PALETTE = ["#2e86de", "#e67e22", "#27ae60", "#8e44ad", "#c0392b", "#16a085", "#7f8c8d", "#d35400"];
const charts = new WeakMap();

// A chart with nothing to draw says so in words: empty axes would show a day that never was.
function nothing(canvas, message) {
  if (!canvas) return null;
  charts.get(canvas)?.destroy();
  charts.delete(canvas);
  canvas.hidden = true;
  let note = canvas.parentElement.querySelector(".chart-empty");
  if (!note) {
    note = document.createElement("p");
    note.className = "muted chart-empty";
    canvas.after(note);
  }
  note.textContent = message;
  return null;
}

function draw(canvas, config) {
  if (!canvas || !window.Chart) return null;
  canvas.hidden = false;
  canvas.parentElement.querySelector(".chart-empty")?.remove();
  // a mid grey reads on the tablets' dark pages and on paper alike
  window.Chart.defaults.color = "#8c99a6";
  window.Chart.defaults.borderColor = "rgba(140, 153, 166, 0.25)";
  charts.get(canvas)?.destroy();
  // no animation: the chart is complete at once, on screen and on paper
  const chart = new window.Chart(canvas, { ...config, options: { animation: false, maintainAspectRatio: false,
    ...config.options } });
  charts.set(canvas, chart);
  canvas.dataset.drawn = "yes";
  return chart;
}

// Rounds an hour through the day per table (the pace API's series), with each game's target floor.
export function paceChart(canvas, pace) {
  const tables = pace.tables.filter(t => t.series.length);
  if (!tables.length) return nothing(canvas, _("No round played yet today."));
  const datasets = tables.map((t, i) => ({
    label: _("Table {n}", { n: t.table }) + ` · ${term(t.game)}`, borderColor: PALETTE[i % PALETTE.length],
    backgroundColor: PALETTE[i % PALETTE.length], pointRadius: 0, tension: 0.2,
    data: t.series.map(([at, rate]) => ({ x: new Date(at).getTime(), y: rate })),
  }));
  for (const [i, t] of tables.entries()) {
    const xs = t.series.map(([at]) => new Date(at).getTime());
    datasets.push({ label: _("target of table {n}", { n: t.table }), borderColor: PALETTE[i % PALETTE.length],
      borderDash: [6, 4], borderWidth: 1, pointRadius: 0, data: [{ x: xs[0], y: t.target_min }, { x: xs[xs.length - 1], y: t.target_min }] });
  }
  return draw(canvas, { type: "line", data: { datasets }, options: {
    parsing: false,
    scales: { x: { type: "linear", ticks: { callback: v => clock(new Date(v).toISOString()) } },
      y: { beginAtZero: true, title: { display: true, text: _("Rounds an hour") } } },
    plugins: { legend: { labels: { filter: item => item.datasetIndex < tables.length } } },
  } });
}

// The house's win/loss per table and clock hour (bars).
export function winLossChart(canvas, hourly) {
  if (!hourly.hours.length || !hourly.tables.length) return nothing(canvas, _("No round played yet today."));
  return draw(canvas, { type: "bar", data: {
    labels: hourly.hours.map(h => `${String(h).padStart(2, "0")}:00`),
    datasets: hourly.tables.map((t, i) => ({ label: _("Table {n}", { n: t.table }) + ` · ${term(t.game)}`,
      backgroundColor: PALETTE[i % PALETTE.length], data: t.win_loss.map(c => c / 100) })),
  }, options: { scales: { y: { title: { display: true, text: _("Win/loss") + ` (${hourly.currency})` },
    ticks: { callback: v => amount(Math.round(v * 100)) } } },
    plugins: { tooltip: { callbacks: { label: c => `${c.dataset.label}: ${amount(Math.round(c.raw * 100))}` } } } } });
}

// Hits per pocket in the wheel's order, against the fair expectation.
export function wheelChart(canvas, wheel) {
  const expected = wheel.spins / 37;
  const red = new Set([1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36]);
  return draw(canvas, { type: "bar", data: {
    labels: wheel.wheel_order.map(String),
    datasets: [
      { label: _("Hits"), data: wheel.wheel_order.map(n => wheel.counts[n]),
        backgroundColor: wheel.wheel_order.map(n => n === 0 ? "#1e8449" : red.has(n) ? "#c0392b" : "#2c3e50") },
      { type: "line", label: _("Expected"), data: wheel.wheel_order.map(() => expected), borderColor: "#f1c40f",
        pointRadius: 0, borderWidth: 2 },
    ] }, options: { scales: { y: { beginAtZero: true } } } });
}

// A player's visits: staked, his result and the theoretical win per visit (oldest first).
export function visitsChart(canvas, visits) {
  const rows = [...visits].reverse();
  return draw(canvas, { type: "bar", data: {
    labels: rows.map(v => `${clock(v.started_at)} · ${v.table_number}`),
    datasets: [
      { label: _("Staked"), data: rows.map(v => v.staked / 100), backgroundColor: "#2e86de" },
      { label: _("Player won"), data: rows.map(v => v.won / 100), backgroundColor: "#27ae60" },
      { label: _("Theoretical win"), data: rows.map(v => v.theo / 100), backgroundColor: "#e67e22" },
    ] }, options: { scales: { y: { ticks: { callback: v => amount(Math.round(v * 100)) } } } } });
}
