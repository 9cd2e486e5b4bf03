// The self-benchmark's chart: recall per category, certain spans only, rules only (light bar) and
// rules + model (dark bar) when it ran. SVG built element by element (no markup strings).
import {pct} from "../dom.js";

const SVG = "http://www.w3.org/2000/svg";
const CHART = {W: 680, left: 120, right: 150, rowH: 30};

function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const k of Object.keys(attrs || {})) e.setAttribute(k, String(attrs[k]));
  if (text !== undefined) e.textContent = String(text);
  return e;
}

export function chart(rules, ensemble) {
  const rows = [["ALL", rules.certain.overall, ensemble && ensemble.certain.overall]];
  for (const c of Object.keys(rules.certain.per_category)) {
    if (rules.with_review.per_category[c].gold) {
      rows.push([c, rules.certain.per_category[c], ensemble && ensemble.certain.per_category[c]]);
    }
  }
  const {W, left, right, rowH} = CHART;
  const barW = W - left - right, H = rows.length * rowH + 34;
  const s = svg("svg", {viewBox: "0 0 " + W + " " + H, width: W, height: H, role: "img",
                        "aria-label": "Share of identifier characters found, certain spans, by category"});
  s.appendChild(svg("text", {x: 0, y: 14, "font-size": 12, fill: "#1d2330"},
    "Identifier characters found (certain spans): rules only (light bar)" + (ensemble ? ", rules + model (dark bar)" : "")));
  rows.forEach(([name, r, e], i) => {
    const y = 26 + i * rowH;
    s.appendChild(svg("text", {x: left - 8, y: y + 17, "font-size": 12, fill: "#1d2330", "text-anchor": "end"}, name));
    s.appendChild(svg("rect", {x: left, y, width: barW, height: 24, fill: "#eef0f4"}));
    s.appendChild(svg("rect", {x: left, y, width: (barW * r.recall).toFixed(1), height: 24, fill: "#9cc0f5"}));
    if (e) s.appendChild(svg("rect", {x: left, y: y + 6, width: (barW * e.recall).toFixed(1), height: 12, fill: "#1f5fbf"}));
    s.appendChild(svg("text", {x: left + barW + 8, y: y + 17, "font-size": 12, fill: "#1d2330"},
      pct(r.recall) + (e ? " / " + pct(e.recall) : "")));
  });
  return s;
}
