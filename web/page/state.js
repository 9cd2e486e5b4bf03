// The page's one state object and its one render. Every change goes through update(fn): fn
// changes `state`, and one render (render.js, every view in turn) follows in a microtask, so a
// burst of changes draws once. The DOM form fields (note, key, known identifiers, options) hold
// what the user typed; the state holds everything else.
export const state = {
  boot: {state: "loading", stage: "Getting ready", fraction: 0, seconds: null, error: null, versions: null},
  // model.state: "loading" | "wasm" | "webgpu" | "unavailable"; the rest once it is known
  model: {state: "loading", name: null, seconds: null, threshold: null, notes: "", error: null},
  mode: "redact",
  note: "",            // the note as the last input event left it (decisions are anchored to it)
  fileText: null,      // a loaded .txt as read (keeps its CRLF line ends)
  bannerOn: true,
  // The latest De-identify: status "idle" | "working" | "done" | "error" | "cancelled";
  // partial: the rules' result is shown while the model still runs; progress {done, total, seconds}.
  run: {seq: 0, started: 0, finished: 0, status: "idle", progress: null, partial: false, engine: null,
        warning: null, error: null, cancelRequested: false, ms: null},
  result: null,        // the result shown (process()'s dict), or null
  resultText: "",      // the note that result is of
  resultEngine: null,  // "rules" | "ensemble" | "rules-fallback"
  reviewNeedsView: false,   // bring Review into view at the next render
  // Decisions keyed to the text (anchor.js): [{start, end, text, label, value: true mask | false keep}]
  decisions: [],
  notice: "",          // decisions dropped by an edit, said once
  current: 0,          // the current review item
  contextId: null,     // the candidate shown in its sentence, or null
  dialog: null,        // null | {kind: "guard", action: "copy" | "download", undecided} | {kind: "banner"}
  exported: {seq: 0, kind: null, text: "", how: ""},
  corpusRules: {state: "none", summary: null, error: null},
  bench: {state: "idle", status: "", result: null, progress: null},
  corpus: null, corpusError: null, lists: null, listsError: null,
  corpusNote: 0, corpusFocus: undefined, errorsEngine: "rules",
};

let renderer = null;
let scheduled = false;

export function setRenderer(fn) { renderer = fn; }

// Change the state and render once, soon (after the current task's synchronous work).
export function update(fn) {
  if (fn) fn(state);
  if (scheduled || !renderer) return;
  scheduled = true;
  queueMicrotask(() => { scheduled = false; renderer(state); });
}

// The review items of the result shown ([] when none).
export function reviewItems() { return state.result ? state.result.review : []; }

// {"start:end": bool} of the decisions held, as the engine takes them.
export function decisionMap() {
  const out = {};
  for (const d of state.decisions) out[d.start + ":" + d.end] = d.value;
  return out;
}

// The ids of the review items shown that have no decision.
export function undecidedIds() {
  const held = decisionMap();
  return reviewItems().filter((c) => !(c.id in held)).map((c) => c.id);
}
