// Review: the amber candidates, each with its reason (why it is amber), Mask and Keep buttons in
// a fixed column (reachable with Tab), and the candidate in its sentence; the sentences a loaded
// rules.json knows as PHI-free.
import {$, el, clear, count} from "../dom.js";
import {state as pageState, reviewItems, decisionMap} from "../state.js";

let drawn = null;

// The reason shown on the row: why the candidate is amber (the explanation's why_amber), else
// the explanation's sentence.
export function rowReason(c) {
  const e = c.explanation || {};
  if (e.why_amber) return "Amber because " + e.why_amber + ".";
  return e.text || c.reason || c.source;
}

function fullReason(c) { return (c.explanation && c.explanation.text) || c.reason || c.source || ""; }

function drawList(result, held) {
  const list = $("review-list");
  clear(list);
  const items = result ? result.review : [];
  items.forEach((c, i) => {
    const li = el("li", {"data-id": c.id, "data-label": c.label, "data-index": String(i), "data-source": c.source || ""});
    const d = c.id in held ? (held[c.id] ? "mask" : "keep") : "";
    if (d) li.setAttribute("data-decision", d);
    li.appendChild(el("span", {"class": "cand-label"}, c.label));
    li.appendChild(el("span", {"class": "cand-text"}, c.text));
    li.appendChild(el("span", {"class": "cand-reason"}, rowReason(c)));
    const ctl = el("span", {"class": "cand-ctl"});
    ctl.appendChild(el("button", {"type": "button", "data-act": "mask", "title": "Mask: it is an identifier",
                                  "aria-pressed": String(d === "mask")}, "Mask"));
    ctl.appendChild(el("button", {"type": "button", "data-act": "keep", "title": "Keep: it is not an identifier, leave the text",
                                  "aria-pressed": String(d === "keep")}, "Keep"));
    ctl.appendChild(el("span", {"class": "cand-state"}, d === "mask" ? "masked" : d === "keep" ? "kept" : "undecided"));
    li.appendChild(ctl);
    list.appendChild(li);
  });
}

function drawPhiFree(state) {
  const list = $("phi-free-list");
  clear(list);
  const ranges = (state.result && state.result.phi_free) || [];
  $("phi-free").hidden = !ranges.length;
  for (const [a, b] of ranges) {
    const li = el("li", {"data-start": String(a), "data-end": String(b), "data-source": "harvest:sentence"});
    li.appendChild(el("span", {"class": "cand-text"}, state.resultText.slice(a, b)));
    li.appendChild(el("span", {"class": "cand-reason"}, "known PHI-free: harvested sentence (" +
      (state.corpusRules.summary ? state.corpusRules.summary.name : "rules.json") + "), not searched"));
    list.appendChild(li);
  }
}

// The sentence of the note around [start, end): cut at a sentence end or a line break, at most
// 160 characters either side.
function sentenceAround(text, start, end) {
  let a = start;
  while (a > 0 && start - a < 160 && !/[\n.!?]/.test(text[a - 1])) a--;
  let b = end;
  while (b < text.length && b - end < 160 && text[b] !== "\n" && !(/[.!?]/.test(text[b - 1]) && /\s/.test(text[b]) && b > end)) b++;
  while (a < start && /\s/.test(text[a])) a++;
  return [a, b];
}

// The span (a review item, or any span of the result) shown in context, or null.
export function contextSpan(state) {
  if (!state.contextId || !state.result) return null;
  const c = reviewItems().find((x) => x.id === state.contextId);
  if (c) return Object.assign({tier: "review", why: rowReason(c), full: fullReason(c)}, c);
  const s = state.result.spans.find((x) => x.id === state.contextId);
  return s ? Object.assign({why: "", full: (s.explanation && s.explanation.text) || s.source}, s) : null;
}

function drawContext(state) {
  const box = $("review-context");
  clear(box);
  for (const m of $("output").querySelectorAll("mark.current")) m.classList.remove("current");
  const span = contextSpan(state);
  if (!span) { box.hidden = true; box.removeAttribute("data-id"); return; }
  const text = state.resultText;
  const [a, b] = sentenceAround(text, span.start, span.end);
  const sentence = el("p", {"class": "ctx-sentence"});
  if (a > 0) sentence.appendChild(document.createTextNode("\u2026"));
  sentence.appendChild(document.createTextNode(text.slice(a, span.start)));
  const held = decisionMap();
  const cls = span.tier === "review" ? (held[span.id] === false ? "kept" : held[span.id] === true ? "cat-" + span.category : "pending")
    : "cat-" + span.category;
  const m = el("mark", {"class": "current " + cls, "data-badge": span.category}, text.slice(span.start, span.end));
  sentence.appendChild(m);
  sentence.appendChild(document.createTextNode(text.slice(span.end, b)));
  if (b < text.length) sentence.appendChild(document.createTextNode("\u2026"));
  box.appendChild(el("p", {"class": "ctx-head"}, span.label + " \u00b7 " +
    (span.tier === "review" ? "amber candidate" : "certain") + " \u00b7 " + span.full));
  box.appendChild(sentence);
  const placed = state.result.spans.find((s) => s.id === span.id);
  if (placed) {
    box.appendChild(el("p", {"class": "ctx-out"}, "The output shows: " +
      state.result.output.slice(placed.out_start, placed.out_end)));
  }
  box.hidden = false;
  box.setAttribute("data-id", span.id);
  const om = $("output").querySelector('mark[data-id="' + span.id + '"]');
  if (om) { om.classList.add("current"); om.scrollIntoView({block: "nearest"}); }
}

export function render(state) {
  const held = decisionMap();
  const key = JSON.stringify(held);
  $("review").hidden = state.mode !== "review";
  if (!drawn || drawn[0] !== state.result || drawn[1] !== key) {
    drawList(state.result, held);
    drawPhiFree(state);
    drawn = [state.result, key];
  }
  const items = reviewItems();
  const undecided = items.filter((c) => !(c.id in held)).length;
  $("review-count").textContent = "(" + count(items.length, "candidate", "candidates") + ", " + undecided + " undecided)";
  if (items.length) pageState.current = Math.min(state.current, items.length - 1);   // none while a run works
  for (const li of $("review-list").children) li.classList.toggle("current", Number(li.dataset.index) === pageState.current);
  const cur = $("review-list").children[pageState.current];
  if (cur && state.contextId) cur.scrollIntoView({block: "nearest"});
  drawContext(state);
  if (state.reviewNeedsView && state.mode === "review" && state.result) {
    pageState.reviewNeedsView = false;
    // Bring the list's first rows up to the bottom of the window, keeping the output above in view.
    const r = $("review").getBoundingClientRect();
    const want = Math.min(r.height, 300);
    if (r.top + want > window.innerHeight) window.scrollBy(0, r.top + want - window.innerHeight + 8);
    else if (r.top < 0) $("review").scrollIntoView({block: "start"});
  }
}
