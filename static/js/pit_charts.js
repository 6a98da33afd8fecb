// Draws the charts of a pit page from the JSON embedded in it (shift report, wheel, player).
import { paceChart, visitsChart, wheelChart, winLossChart } from "./charts.js";

const data = id => { const n = document.getElementById(id); return n ? JSON.parse(n.textContent) : null; };
const pace = data("pace-data");
if (pace) paceChart(document.getElementById("pace-chart"), pace);
const hourly = data("hourly-data");
if (hourly) winLossChart(document.getElementById("winloss-chart"), hourly);
const wheel = document.getElementById("wheel-chart") && data("initial-data");
if (wheel) wheelChart(document.getElementById("wheel-chart"), wheel);
const player = document.getElementById("visits-chart") && data("initial-data");
if (player) visitsChart(document.getElementById("visits-chart"), player.visits);
