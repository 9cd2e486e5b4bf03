// window.deid: the same calls the UI makes, for tests and scripts (frozen).
import {state, decisionMap} from "./state.js";
import {ready, modelReady, startCall, call} from "./channel.js";
import {request} from "../shared/protocol.js";
import {exportText, failModelOnNextRun} from "./actions.js";
import {loadCorpusRules} from "./side.js";

// options: {mode, key, decisions, known, safeHarbor, rulesOnly, simulateModelFailure}. Without rulesOnly, a
// call made while the model loads waits for it; once it is ready (or unavailable) the result is
// the ensemble (or the rules). simulateModelFailure (tests): the model "fails" on this note.
function processRequest(text, o) {
  return request("process", {text: String(text), mode: o.mode || "redact", key: o.key || null,
    decisions: o.decisions || null, known: o.known || null, safe_harbor: !!o.safeHarbor, rulesOnly: !!o.rulesOnly,
    simulateModelFailure: !!o.simulateModelFailure});
}
function processDetailed(text, options) { return startCall(processRequest(text, options || {})).promise; }

export function install() {
  window.deid = Object.freeze({
    ready,
    modelReady,
    process: (text, options) => processDetailed(text, options).then((r) => r.result),
    // {result, engine: "rules" | "ensemble" | "rules-fallback", warning: string | null}
    processDetailed,
    // {rules: report, ensemble: report | null}; the ensemble runs the model on every corpus note.
    benchmark: (options) => call("benchmark", {rulesOnly: !!(options && options.rulesOnly)}),
    exportText,
    // The last Copy or Download: {seq, kind: "copy" | "download", text, how} (memory only).
    lastExport: () => Object.assign({}, state.exported),
    // The decisions the page holds for the note in the input pane ({"start:end": bool}).
    decisions: () => decisionMap(),
    // The decisions with what they are keyed to: [{start, end, text, label, value}].
    decisionRecords: () => state.decisions.map((d) => Object.assign({}, d)),
    failModelOnNextRun,
    // The last self-benchmark result the page showed ({rules, ensemble}), or null.
    lastBenchmark: () => state.bench.result,
    // The model's raw output for `text`: {logits: flat numbers, dims: [B, T, L]} (waits for the model).
    modelLogits: (text) => call("ner_logits", {text: String(text)}),
    corpus: () => call("corpus", {}),
    // Load harvested corpus rules (the text of a rules.json; null drops them): what the file
    // input does. Resolves to {name, sentences, templates, notes} or null.
    corpusRules: (text, name) => loadCorpusRules(text, name),
    lists: () => call("lists", {}),
  });
}
