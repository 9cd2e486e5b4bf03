// The sections beside the work area that load once the engine is ready (corpus, lists), and the
// harvested corpus rules (a rules.json read from disk, loaded by the CLI's own loader in Python).
import {update} from "./state.js";
import {call} from "./channel.js";
import {$} from "./dom.js";
import {run} from "./actions.js";

export async function loadSideSections() {
  try {
    const corpus = await call("corpus", {});
    update((s) => { s.corpus = corpus; });
  } catch (err) { update((s) => { s.corpusError = err.message; }); }
  try {
    const lists = (await call("lists", {})).lists;
    update((s) => { s.lists = lists; });
  } catch (err) { update((s) => { s.listsError = err.message; }); }
}

export async function loadCorpusRules(text, name) {
  update((s) => { s.corpusRules = {state: "loading", summary: null, error: null}; });
  try {
    const summary = await call("rules", {text: text === null ? null : String(text), name: name || "rules.json"});
    update((s) => { s.corpusRules = {state: summary ? "loaded" : "none", summary, error: null}; });
    $("corpus-rules-status").textContent = summary ? summary.name + ": " + summary.sentences +
      " PHI-free sentences, " + summary.templates + " template rules" : "";
    return summary;
  } catch (err) {
    update((s) => { s.corpusRules = {state: "error", summary: null, error: err.message}; });
    $("corpus-rules-status").textContent = "error: " + err.message;
    throw err;
  } finally {
    if ($("input").value) run();
  }
}
