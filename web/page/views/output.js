// The output pane: the de-identified text with a mark on every span, the legend (drawn with the
// same classes as the marks), the undecided-candidates bar with "Mask all amber" (every mode),
// and the notice of decisions an edit dropped.
//
// Marks: a certain span or a masked candidate has its category's colour and underline; an
// undecided candidate is amber with "?"; a kept candidate (decided "not an identifier") is plain
// text with a grey dotted underline and a small grey "kept". Every mark says its category in
// text (its own text or a badge), so categories never rest on colour alone.
import {$, el, clear, count} from "../dom.js";
import {decisionMap, undecidedIds} from "../state.js";

let drawn = null;   // [result, decisions JSON] last drawn

function markFor(span, result, held) {
  const m = el("mark", {"data-id": span.id, "data-cat": span.category, "data-tier": span.tier,
                        "title": span.label + " \u00b7 " + (span.tier === "review" ? "amber candidate" : "certain")});
  let cls = "cat-" + span.category;
  let badge = span.replaced && result.mode !== "surrogate" ? "" : span.category;
  if (span.tier === "review") {
    const d = held[span.id];
    if (d === true) {
      cls += " accepted";
      if (!span.replaced || result.mode === "surrogate") badge = span.category;
    } else if (d === false) {
      cls = "kept";
      badge = span.category + " kept";
    } else {
      cls += " pending";
      badge = span.category + "?";
    }
  }
  m.className = cls;
  if (badge) m.setAttribute("data-badge", badge);
  m.textContent = result.output.slice(span.out_start, span.out_end);
  return m;
}

function drawOutput(result, held) {
  const out = $("output");
  clear(out);
  if (!result) return;
  const text = result.output;
  let pos = 0;
  for (const span of result.spans) {
    if (span.out_start > pos) out.appendChild(document.createTextNode(text.slice(pos, span.out_start)));
    out.appendChild(markFor(span, result, held));
    pos = span.out_end;
  }
  if (pos < text.length) out.appendChild(document.createTextNode(text.slice(pos)));
}

function drawLegend(state) {
  const legend = $("legend");
  if (legend.childNodes.length || !state.boot.versions) return;
  for (const c of state.boot.versions.categories) {
    const m = el("mark", {"data-cat": c}, c);
    m.className = "cat-" + c;
    legend.appendChild(m);
  }
  const amber = el("mark", {"data-badge": "?", "data-legend": "pending"}, "amber: to decide");
  amber.className = "pending";
  legend.appendChild(amber);
  const kept = el("mark", {"data-badge": "kept", "data-legend": "kept"}, "kept as text (you decided)");
  kept.className = "kept";
  legend.appendChild(kept);
}

export function render(state) {
  const held = decisionMap();
  const key = JSON.stringify(held);
  if (!drawn || drawn[0] !== state.result || drawn[1] !== key) {
    drawOutput(state.result, held);
    drawn = [state.result, key];
  }
  drawLegend(state);
  const undecided = state.result ? undecidedIds().length : 0;
  $("undecided").hidden = !undecided;
  $("undecided-count").textContent = undecided
    ? count(undecided, "amber mark is", "amber marks are") + " undecided: " +
      (undecided === 1 ? "it stays" : "they stay") + " as text until you decide." : "";
  $("review-them").hidden = state.mode === "review";
  $("notice").hidden = !state.notice;
  $("notice-text").textContent = state.notice;
}
