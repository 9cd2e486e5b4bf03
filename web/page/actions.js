// What the user's actions do: De-identify, decide, edit the note, copy and download (through the
// export guard), turn the surrogate warning off (with a confirmation). Each changes the state
// (state.js) and calls the engine through the channel; the views draw the result.
import {$} from "./dom.js";
import {state, update, decisionMap, undecidedIds, reviewItems} from "./state.js";
import {startCall} from "./channel.js";
import {request} from "../shared/protocol.js";
import {reanchor, droppedNotice} from "./anchor.js";

// The one line that starts copied and downloaded surrogate text while the warning is on.
export const SURROGATE_WARNING = "WARNING: surrogate text, not a real record: names, dates, places and numbers " +
  "are invented replacements and dates are shifted.";

let job = null;            // the De-identify call in flight
let debounce = null;
let failModelNext = false;
let runDone = Promise.resolve();   // settles when the latest run has ended
export function failModelOnNextRun() { failModelNext = true; }

export function currentMode() { return document.querySelector('input[name="mode"]:checked').value; }

// The note to de-identify: the textarea's, or a loaded file's own text when the textarea still
// holds it (a textarea turns CRLF into LF; a file keeps its line ends).
function noteText() {
  const text = $("input").value;
  return state.fileText !== null && text === state.fileText.replace(/\r\n?/g, "\n") ? state.fileText : text;
}

// The Safe Harbor option: Redact and Review only (the engine refuses it with Surrogate).
export function safeHarbor(mode) { return mode !== "surrogate" && $("safe-harbor").checked; }

// The patient's own identifiers typed in (one per line), as the engine's `known`, or null.
export function knownFields() {
  const lines = (id) => $(id).value.split(/\r?\n/).map((s) => s.trim()).filter(Boolean);
  const known = {names: lines("known-names"), mrns: lines("known-mrns"),
                 birth_dates: lines("known-dob"), addresses: lines("known-addresses")};
  return Object.values(known).some((v) => v.length) ? known : null;
}

// De-identify the note in the input pane in the chosen mode. Returns when this run has ended.
export function run(opts) {
  clearTimeout(debounce);
  debounce = null;
  if (job) job.cancel();   // a newer run supersedes the one in flight
  const text = noteText();
  const seq = state.run.seq + 1;
  const mode = currentMode();
  // The UI never waits for the model: while it loads, the rules answer (and run again after).
  const rulesOnly = $("rules-only").checked || state.model.state === "loading";
  const simulate = failModelNext;
  failModelNext = false;
  const started = performance.now();
  update((s) => {
    s.mode = mode;
    s.result = null;          // never show a previous note's result
    s.resultText = "";
    s.resultEngine = null;
    s.contextId = null;
    s.run = {seq, started: seq, finished: s.run.finished, status: "working", progress: null, partial: false,
             engine: null, warning: null, error: null, cancelRequested: false, ms: null};
  });
  const fresh = () => seq === state.run.seq;
  const req = request("process", {text, mode, key: $("key").value || null, decisions: decisionMap(),
                                  known: knownFields(), safe_harbor: safeHarbor(mode), rulesOnly,
                                  simulateModelFailure: simulate});
  const call = startCall(req,
    (stage, done, total, seconds) => { if (fresh()) update((s) => { s.run.progress = {done, total, seconds}; }); },
    (result) => {
      if (!fresh()) return;
      update((s) => { s.result = result; s.resultText = text; s.resultEngine = "rules"; s.run.partial = true; });
    });
  job = call;
  const finished = call.promise.then(({result, engine, warning}) => {
    if (!fresh()) return;
    update((s) => {
      s.result = result; s.resultText = text; s.resultEngine = engine;
      s.run.status = "done"; s.run.engine = engine; s.run.warning = warning; s.run.partial = false;
      s.run.finished = seq; s.run.ms = Math.round(performance.now() - started);
      s.reviewNeedsView = s.mode === "review" && !(opts && opts.quiet);
    });
  }, (err) => {
    if (!fresh()) return;
    update((s) => {
      s.run.finished = seq;
      s.run.ms = Math.round(performance.now() - started);
      if (err.cancelled) { s.run.status = "cancelled"; s.run.engine = s.result ? "rules" : null; }
      else { s.run.status = "error"; s.run.error = err.message; s.result = null; }
    });
  }).finally(() => { if (fresh()) job = null; });
  runDone = finished;
  return finished;
}

export function cancelRun() {
  if (!job) return;
  job.cancel();
  update((s) => { s.run.cancelRequested = true; });
}

export function scheduleRun() {
  clearTimeout(debounce);
  debounce = setTimeout(() => run(), 250);
}

// A result for the note as it is now: waits for a run in flight, or runs now when the note (or
// a pending change) is newer than the result shown.
async function currentResult() {
  if (debounce !== null || noteText() !== state.resultText || state.run.status === "working") {
    if (state.run.status === "working" && debounce === null && noteText() === state.resultText) await runDone;
    else await run({quiet: true});
  }
  return state.result;
}

// Decide the candidates `ids` ("mask", "keep" or null: undecided) and run again.
export function decide(ids, decision) {
  const byId = new Map(reviewItems().map((c) => [c.id, c]));
  update((s) => {
    const drop = new Set(ids);
    s.decisions = s.decisions.filter((d) => !drop.has(d.start + ":" + d.end));
    if (decision) {
      for (const id of ids) {
        const c = byId.get(id);
        if (c) s.decisions.push({start: c.start, end: c.end, text: c.text, label: c.label, value: decision === "mask"});
      }
    }
    s.notice = "";
  });
  return run({quiet: true});
}

// The note was edited (an input event): move every decision with its text, say which were lost.
// An emptied note takes the patient's known identifiers with it (so does Clear, or a new file);
// a note pasted over the old one keeps them, as they may have been typed in for it.
export function noteEdited() {
  const text = $("input").value;
  const {kept, dropped, replaced} = reanchor(state.decisions, state.note, text);
  if (!text) clearKnown();
  update((s) => {
    s.note = text;
    s.decisions = kept;
    s.notice = droppedNotice(dropped);
    if (replaced || !text) s.current = 0;
  });
  scheduleRun();
}

function clearKnown() {
  for (const id of ["known-names", "known-mrns", "known-dob", "known-addresses"]) $(id).value = "";
}

// A new note (a file opened or dropped, or Clear): decisions and known identifiers go with the old one.
export function newNote(text, fileText) {
  $("input").value = text;
  clearKnown();
  update((s) => {
    s.notice = droppedNotice(s.decisions);
    s.decisions = [];
    s.note = text;
    s.fileText = fileText === undefined ? null : fileText;
    s.current = 0;
  });
  return text ? run() : (clear(), Promise.resolve());
}

function clear() {
  update((s) => {
    s.result = null; s.resultText = "";
    s.run = Object.assign({}, s.run, {status: "idle", progress: null, partial: false});
  });
}

// What Copy and Download .txt write for the output on screen ("" when there is none).
export function exportText() {
  if (!state.result) return "";
  const text = state.result.output;
  if (state.result.mode !== "surrogate" || !state.bannerOn) return text;
  return SURROGATE_WARNING + (text.includes("\r\n") ? "\r\n" : "\n") + text;
}

// Copy or Download: for the note as it is now; with undecided amber candidates, ask first.
export async function exportAction(kind) {
  const result = await currentResult();
  if (!result) return;
  const undecided = undecidedIds().length;
  if (undecided) { update((s) => { s.dialog = {kind: "guard", action: kind, undecided}; }); return; }
  await writeOut(kind);
}

// The export guard's answer: "mask" or "keep" every undecided candidate then export, "review"
// (go and decide), or "cancel".
export async function guardAnswer(choice) {
  const dialog = state.dialog;
  update((s) => { s.dialog = null; });
  if (!dialog || dialog.kind !== "guard") return;
  if (choice === "mask" || choice === "keep") {
    await decide(undecidedIds(), choice);
    if (!undecidedIds().length) await writeOut(dialog.action);
  } else if (choice === "review") {
    document.querySelector('input[name="mode"][value="review"]').checked = true;
    await run();
    $("review-list").focus();
  }
}

async function writeOut(kind) {
  const text = exportText();
  let how = "";
  if (kind === "copy") {
    try { await navigator.clipboard.writeText(text); how = "copied"; }
    catch (_) {
      const range = document.createRange(); range.selectNodeContents($("output"));
      const sel = getSelection(); sel.removeAllRanges(); sel.addRange(range);
      how = "selected: press Ctrl+C to copy";
    }
  } else {
    const url = URL.createObjectURL(new Blob([text], {type: "text/plain;charset=utf-8"}));
    const a = document.createElement("a");
    a.href = url; a.download = "deid-" + state.result.mode + ".txt";
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    how = "downloaded";
  }
  update((s) => { s.exported = {seq: s.exported.seq + 1, kind, text, how}; });
}

// The surrogate warning checkbox: on at once; off only after the confirmation dialog.
export function bannerToggled(checked) {
  if (checked) { update((s) => { s.bannerOn = true; }); return; }
  $("banner-on").checked = true;
  update((s) => { s.dialog = {kind: "banner"}; });
}
export function bannerAnswer(turnOff) {
  update((s) => { s.dialog = null; if (turnOff) s.bannerOn = false; });
  $("banner-on").checked = state.bannerOn;
}
