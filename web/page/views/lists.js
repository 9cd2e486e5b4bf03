// The embedded word lists and where each comes from.
import {$, el, clear} from "../dom.js";

let drawn = null;

export function render(state) {
  if (drawn === (state.lists || state.listsError)) return;
  drawn = state.lists || state.listsError;
  const tbody = $("lists-table").querySelector("tbody");
  clear(tbody);
  if (state.listsError) { tbody.appendChild(el("tr")).appendChild(el("td", {colspan: "4"}, state.listsError)); return; }
  for (const l of state.lists || []) {
    const tr = el("tr");
    tr.appendChild(el("td", null, l.file));
    tr.appendChild(el("td", {"class": "num"}, l.count));
    tr.appendChild(el("td", null, l.source));
    tr.appendChild(el("td", null, l.licence));
    tbody.appendChild(tr);
  }
}
