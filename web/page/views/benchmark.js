// The self-benchmark: first the release's measured figures on real notes (embedded data, cited),
// then the run on the embedded invented corpus (said so): plain lines, summary, chart, table and
// the error viewer.
import {$, el, clear, pct} from "../dom.js";
import {chart} from "./chart.js";

let drawnFor;
let realDrawn = false;

// Residual risk (deid_core.api.residual_risk_summary): the sentences, and the figures as data.
function riskBox(cls, who, summary) {
  const box = el("div", {"class": "risk " + cls, "data-engine": who,
    "data-certain": String(summary.certain.per_1000_notes), "data-certain-upper": String(summary.certain.upper_95_per_1000_notes),
    "data-review": String(summary.with_review.per_1000_notes), "data-review-upper": String(summary.with_review.upper_95_per_1000_notes)});
  box.appendChild(el("strong", null, "Residual risk" + (who ? ", " + who : "") + ". "));
  for (const s of summary.sentences) box.appendChild(el("span", null, s + " "));
  return box;
}

function drawReal(figures, corpusNotes, risk) {
  const box = $("bench-real");
  clear(box);
  if (!figures) return;
  const e = figures.ensemble, r = figures.rules;
  box.appendChild(el("p", {"class": "real-figures", "data-source": figures.source},
    "Measured for this release (" + figures.measured + ") on " + figures.corpus + ": the rules with " +
    "the AI model find " + pct(e.recall_certain) + " of identifier characters on their own (" + pct(e.recall_review) +
    " with every amber mark masked), and " + pct(e.precision_certain) + " of what they mask is an identifier (" +
    pct(e.precision_review) + "). The rules alone: " + pct(r.recall_certain) + " (" + pct(r.recall_review) + ") found, " +
    pct(r.precision_certain) + " (" + pct(r.precision_review) + ") right. Source: " + figures.source + "; reproduce with " +
    figures.reproduce + "."));
  if (risk) {
    const r = box.appendChild(riskBox("real-risk", "real notes, rules + model", risk));
    r.appendChild(el("span", {"class": "hint"}, "Source: " + risk.title + "; " + risk.source + "."));
  }
  box.appendChild(el("p", {"class": "invented-note"},
    "The self-benchmark below runs on " + (corpusNotes ? corpusNotes + " " : "") + "invented notes written for this " +
    "project. The rules were tuned reading them and the model was partly trained on them, so their figures are higher " +
    "than on real notes: read the real-notes figures above for what to expect."));
}

function plainLine(f) {
  return "misses " + pct(1 - f.recall) + " of identifier characters; " +
    pct(1 - f.precision) + " of what it masks is not an identifier";
}

function drawResult(state, result) {
  const rules = result.rules, ens = result.ensemble;
  const tbody = $("bench-table").querySelector("tbody");
  clear(tbody);
  const row = (name, gold, rc, rr, ec, er) => {
    const tr = el("tr", {"data-category": name});
    tr.appendChild(el("th", {scope: "row"}, name));
    tr.appendChild(el("td", {"class": "num", "data-value": String(gold)}, String(gold)));
    const vals = [rc.recall, rc.precision, rr.recall, rr.precision];
    if (ec) vals.push(ec.recall, ec.precision, er.recall, er.precision);
    for (const v of vals) tr.appendChild(el("td", {"class": "num", "data-value": String(v)}, pct(v)));
    if (!ec) for (let k = 0; k < 4; k++) tr.appendChild(el("td", {"class": "num"}, "\u2013"));
    tbody.appendChild(tr);
  };
  row("ALL", rules.phi_characters, rules.certain.overall, rules.with_review.overall,
      ens && ens.certain.overall, ens && ens.with_review.overall);
  for (const c of Object.keys(rules.with_review.per_category)) {
    row(c, rules.with_review.per_category[c].gold, rules.certain.per_category[c], rules.with_review.per_category[c],
        ens && ens.certain.per_category[c], ens && ens.with_review.per_category[c]);
  }
  $("bench-table").hidden = false;
  const plain = $("bench-plain");
  clear(plain);
  const line = (who, report) => {
    plain.appendChild(el("li", {"data-engine": who}, who + ", certain spans only (what Redact and Surrogate do on their own): " +
      plainLine(report.certain.overall) + ". With every amber candidate masked too: " +
      plainLine(report.with_review.overall) + "."));
  };
  line("Rules only", rules);
  if (ens) line("Rules + model", ens);
  const risk = $("bench-risk");
  clear(risk);
  if (rules.risk_summary) risk.appendChild(riskBox("corpus-risk", "rules only, invented corpus", rules.risk_summary));
  if (ens && ens.risk_summary) risk.appendChild(riskBox("corpus-risk", "rules + model, invented corpus", ens.risk_summary));
  let text = rules.documents + " notes, " + rules.characters + " characters, " +
    rules.phi_characters + " identifier characters (not counting spaces). Rules only: " +
    rules.seconds + " s in the engine, " + rules.wall_seconds + " s in all.";
  if (ens) {
    text += " Rules + model (" + ens.backend + "): the model took " + ens.model_seconds +
      " s over the corpus, scoring " + ens.wall_seconds + " s.";
  } else {
    text += " Rules + model: " + (state.model.state === "loading" ? "waiting for the model" :
      $("rules-only").checked || state.model.state === "unavailable" ? "not run (rules only)" : "running\u2026");
  }
  $("bench-summary").textContent = text;
  const box = $("bench-chart");
  clear(box);
  box.appendChild(chart(rules, ens));
}

export function render(state, manifest) {
  if (!realDrawn && manifest) {
    drawReal(manifest.figures, state.boot.versions && state.boot.versions.corpus_notes,
             manifest.texts && manifest.texts.risk.real_notes);
    realDrawn = !!state.boot.versions;
  }
  const b = state.bench;
  const working = b.state === "working";
  $("bench-run").disabled = working || !state.corpus;
  $("bench-cancel").hidden = !working;
  $("bench-progress").hidden = !working;
  if (b.progress) { $("bench-progress").max = b.progress.total; $("bench-progress").value = b.progress.done; }
  else $("bench-progress").removeAttribute("value");
  $("bench-status").textContent = b.status;
  if (b.result && drawnFor !== b.result) {
    drawResult(state, b.result);
    drawnFor = b.result;
  }
}
