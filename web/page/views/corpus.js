// The corpus viewer (a gold note with the last self-benchmark's misses and false alarms marked)
// and the error viewer (every miss and false alarm with its context, a button to jump to it).
import {$, el, clear} from "../dom.js";

let drawnErrors = null, drawnNote = null, optionsDrawn = false;

function report(state) {
  const b = state.bench.result;
  if (!b) return null;
  return state.errorsEngine === "ensemble" && b.ensemble ? b.ensemble : b.rules;
}

function drawErrors(state) {
  const tbody = $("bench-errors").querySelector("tbody");
  clear(tbody);
  const b = state.bench.result;
  if (!b || !state.corpus) { $("errors-box").hidden = true; return; }
  const sel = $("errors-engine");
  sel.querySelector('option[value="ensemble"]').disabled = !b.ensemble;
  sel.value = state.errorsEngine === "ensemble" && b.ensemble ? "ensemble" : "rules";
  const rep = report(state);
  const byId = new Map(state.corpus.notes.map((n, i) => [String(n.id), i]));
  let misses = 0, falses = 0;
  for (const d of rep.notes || []) {
    const index = byId.get(String(d.id));
    if (index === undefined) continue;
    const text = state.corpus.notes[index].text;
    const rows = d.misses.map((r) => ["missed", r]).concat(d.false_alarms.map((r) => ["false alarm", r]));
    rows.sort((x, y) => x[1][0] - y[1][0]);
    for (const [kind, [a, z]] of rows) {
      if (kind === "missed") misses++; else falses++;
      const tr = el("tr", {"data-kind": kind === "missed" ? "miss" : "false", "data-note": String(d.id)});
      const td = el("td");
      td.appendChild(el("button", {"type": "button", "class": "jump", "data-index": String(index), "data-start": String(a)}, String(d.id)));
      tr.appendChild(td);
      tr.appendChild(el("td", null, kind));
      const ctx = el("td", {"class": "ctx"});
      ctx.appendChild(document.createTextNode((a > 40 ? "\u2026" : "") + text.slice(Math.max(0, a - 40), a).replace(/\s+/g, " ")));
      ctx.appendChild(el("mark", {"class": kind === "missed" ? "miss" : "false"}, text.slice(a, z)));
      ctx.appendChild(document.createTextNode(text.slice(z, z + 40).replace(/\s+/g, " ") + (z + 40 < text.length ? "\u2026" : "")));
      tr.appendChild(ctx);
      tbody.appendChild(tr);
    }
  }
  $("errors-count").textContent = misses + " missed, " + falses +
    " false alarms (characters scored as in the table, with every amber candidate masked)";
  $("errors-box").hidden = false;
}

function drawNote(state) {
  const box = $("corpus-text");
  clear(box);
  if (!state.corpus) { $("corpus-status").textContent = state.corpusError || ""; return; }
  const note = state.corpus.notes[state.corpusNote];
  if (!note) return;
  const text = note.text;
  const kind = new Array(text.length + 1).fill("");
  for (const s of note.spans) for (let i = s.start; i < s.end; i++) kind[i] = "hit";
  const rep = report(state);
  const details = rep && rep.notes ? rep.notes.find((n) => String(n.id) === String(note.id)) : null;
  if (details) {
    for (const [a, b] of details.misses) for (let i = a; i < b; i++) kind[i] = "miss";
    for (const [a, b] of details.false_alarms) for (let i = a; i < b; i++) kind[i] = "false";
    $("corpus-status").textContent = details.misses.length + " missed, " + details.false_alarms.length + " false alarms";
  } else {
    $("corpus-status").textContent = "identifiers (gold) shown; run the self-benchmark to mark misses and false alarms";
  }
  const focus = state.corpusFocus;
  let i = 0, target = null;
  while (i < text.length) {
    let j = i + 1;
    while (j < text.length && kind[j] === kind[i]) j++;
    if (kind[i]) {
      const m = el("mark", {"data-start": String(i)}, text.slice(i, j));
      m.className = kind[i];
      box.appendChild(m);
      if (focus !== undefined && focus >= i && focus < j) target = m;
    } else box.appendChild(document.createTextNode(text.slice(i, j)));
    i = j;
  }
  if (target) { target.classList.add("current"); target.scrollIntoView({block: "center"}); }
}

export function render(state) {
  if (state.corpus && !optionsDrawn) {
    const sel = $("corpus-note");
    state.corpus.notes.forEach((n, i) => sel.appendChild(el("option", {value: String(i)}, n.id + " \u00b7 " + n.note_type)));
    optionsDrawn = true;
  }
  $("corpus-note").value = String(state.corpusNote);
  const key = [state.bench.result, state.errorsEngine, state.corpus];
  if (!drawnErrors || key.some((v, i) => v !== drawnErrors[i])) { drawErrors(state); drawnErrors = key; }
  const noteKey = [state.corpus, state.corpusNote, state.corpusFocus, state.bench.result, state.errorsEngine];
  if (!drawnNote || noteKey.some((v, i) => v !== drawnNote[i])) { drawNote(state); drawnNote = noteKey; }
}
