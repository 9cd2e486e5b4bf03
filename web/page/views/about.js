// "What is removed" (the 18 Safe Harbor identifiers) and "About" (licence, third-party notices):
// drawn once from the manifest's `texts`, which build.py takes from deid_core.api.page_static.
import {$, el, clear} from "../dom.js";

let drawn = false;

function paragraphs(box, list) {
  clear(box);
  for (const p of list) box.appendChild(el("p", null, p));
}

function drawRemoved(h) {
  $("removed-source").textContent = h.source;
  const tbody = $("removed-table").querySelector("tbody");
  clear(tbody);
  for (const r of h.rows) {
    const tr = el("tr", {"data-letter": r.letter});
    const name = el("th", {scope: "row"}, r.letter + ". " + r.name);
    if (r.note) name.appendChild(el("span", {"class": "hint"}, " " + r.note));
    tr.appendChild(name);
    tr.appendChild(el("td", {"class": "labels"}, r.labels.length ?
      r.labels.join(", ") + " (" + r.detectors.join(", ") + ")" : "no label: not found in text"));
    tr.appendChild(el("td", {"class": "redact"}, r.redact));
    tr.appendChild(el("td", {"class": "surrogate"}, r.surrogate));
    tr.appendChild(el("td", {"class": "safe-harbor"}, r.safe_harbor));
    const rec = el("td", {"class": "recall"});
    if (!r.recall.length) rec.textContent = "not in any evaluated corpus";
    for (const x of r.recall) rec.appendChild(el("div", {"data-corpus": x.corpus, "data-certain": String(x.certain),
      "data-with-review": String(x.with_review)}, x.text));
    tr.appendChild(rec);
    tbody.appendChild(tr);
  }
  paragraphs($("text-limits"), h.text_limits);
  const ak = $("actual-knowledge");
  clear(ak);
  ak.appendChild(el("p", null, h.actual_knowledge[0]));
  const ul = ak.appendChild(el("ul"));
  for (const p of h.actual_knowledge.slice(1)) ul.appendChild(el("li", null, p));
}

function drawAbout(a) {
  $("about-licence").textContent = a.licence.summary;
  $("licence-text").textContent = a.licence.text;
  const box = $("notices");
  clear(box);
  for (const sec of a.notices.sections) {
    box.appendChild(el("h4", null, sec.title));
    box.appendChild(el("p", {"class": "hint"}, sec.about));
    const table = box.appendChild(el("table", {"class": "notices"}));
    const head = table.appendChild(el("thead")).appendChild(el("tr"));
    for (const c of ["Part", "Licence", "Holder", "What ships"]) head.appendChild(el("th", {scope: "col"}, c));
    const tbody = table.appendChild(el("tbody"));
    for (const p of sec.parts) {
      const tr = tbody.appendChild(el("tr", {"data-part": p.name}));
      tr.appendChild(el("td", null, p.name + (p.version ? " " + p.version : "")));
      tr.appendChild(el("td", {"class": "licence"}, p.licence));
      tr.appendChild(el("td", null, p.holder));
      const ships = tr.appendChild(el("td", null, p.ships));
      if (p.includes.length) ships.appendChild(el("div", {"class": "hint"}, "Includes: " + p.includes.join("; ")));
      if (p.attribution) ships.appendChild(el("div", {"class": "hint"}, p.attribution));
    }
  }
}

export function render(state, manifest) {
  if (drawn || !manifest || !manifest.texts) return;
  drawRemoved(manifest.texts.harbor);
  drawAbout(manifest.texts.about);
  drawn = true;
}
