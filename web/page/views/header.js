// The top of the page: whether the engine is ready, and the AI model's state, in plain words;
// the technical details (versions, backend, threshold, timings) are in Advanced.
import {$} from "../dom.js";

const MODEL_WORDS = {
  loading: "AI name finder: loading (the rules already work)\u2026",
  wasm: "AI name finder: on",
  webgpu: "AI name finder: on",
  unavailable: "AI name finder: off, the rules work alone",
};

export function render(state) {
  const b = state.boot;
  $("load-progress").value = Math.round(b.fraction * 100);
  $("load-status").textContent = b.state === "ready" ? "Ready."
    : b.state === "error" ? "The page could not start: " + b.error : b.stage + "\u2026";
  $("model-status").textContent = MODEL_WORDS[state.model.state] || "";
  $("model-status").title = state.model.error || "";
  const m = state.model, v = b.versions;
  const parts = [];
  if (v) parts.push("Python " + v.python + ", engine " + v.engine + (b.seconds ? ", ready in " + b.seconds.toFixed(1) + " s" : ""));
  if (m.state === "wasm" || m.state === "webgpu") {
    parts.push("NER model " + m.name + " on " + m.state + ", ready in " + m.seconds.toFixed(1) + " s, confidence threshold " +
               m.threshold + (m.notes ? " (" + m.notes + ")" : ""));
  } else if (m.state === "unavailable") {
    parts.push("NER model unavailable: " + m.error);
  } else {
    parts.push("NER model loading");
  }
  const r = state.run;
  if (r.ms !== null && state.result) {
    parts.push("last run: " + state.result.spans.length + " spans, " + r.ms + " ms, " +
               (state.resultEngine === "ensemble" ? "rules + model (" + m.state + ")" : "rules only"));
  }
  $("engine-details").textContent = parts.join(" \u00b7 ");
  $("versions").textContent = v ? "Python " + v.python + " \u00b7 engine " + v.engine : "";
}
