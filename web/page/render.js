// The one render: every view draws its part of the page from the state, then the signals on
// <body> that whoever drives the page (tests, scripts) waits on:
//   data-state  "loading" | "ready" | "error"          the engine
//   data-model  "loading" | "wasm" | "webgpu" | "unavailable"
//   data-run    "idle" | "working" | "done" | "error" | "cancelled"   the latest De-identify
//   data-run-started / data-run-done   its sequence number when it started / when it ended
//   data-engine "rules" | "ensemble" | "rules-fallback"   what answered the result shown
//   data-partial "1" while the rules' result of a long note is shown and the model still runs
//   data-undecided  the number of undecided amber candidates of the result shown
//   data-exported   the count of Copy/Download exports done (window.deid.lastExport())
//   data-dialog "guard" | "banner" | ""                 the question the page is asking
//   data-bench  "idle" | "working" | "done" | "error" | "cancelled"   the self-benchmark
//   data-corpus-rules "none" | "loading" | "loaded" | "error"   the harvested rules.json
import {undecidedIds} from "./state.js";
import * as header from "./views/header.js";
import * as controls from "./views/controls.js";
import * as output from "./views/output.js";
import * as review from "./views/review.js";
import * as dialogs from "./views/dialogs.js";
import * as benchmark from "./views/benchmark.js";
import * as corpus from "./views/corpus.js";
import * as lists from "./views/lists.js";
import * as about from "./views/about.js";

const VIEWS = [header, controls, output, review, dialogs, benchmark, corpus, lists, about];
let manifest = null;
export function setManifest(m) { manifest = m; }

export function render(state) {
  for (const view of VIEWS) view.render(state, manifest);
  const b = document.body;
  const set = (k, v) => { if (b.getAttribute(k) !== String(v)) b.setAttribute(k, String(v)); };
  set("data-state", state.boot.state);
  set("data-model", state.model.state);
  set("data-run", state.run.status);
  set("data-run-started", state.run.started);
  set("data-run-done", state.run.finished);
  set("data-engine", state.resultEngine || "");
  set("data-partial", state.run.partial && state.run.status === "working" ? "1" : "");
  set("data-undecided", state.result ? undecidedIds().length : 0);
  set("data-exported", state.exported.seq);
  set("data-dialog", state.dialog ? state.dialog.kind : "");
  set("data-bench", state.bench.state);
  set("data-corpus-rules", state.corpusRules.state);
}
