// deid page, main thread: the entry point build.py bundles (esbuild, one classic script). It
// holds no de-identification logic: every output, span and figure comes from Python in the
// worker. Modules: state.js (the one state) and render.js (the one render, views/ one file per
// view), channel.js (the worker, web/protocol.json), actions.js (what the controls do),
// anchor.js (decisions keyed to the text), bench.js, side.js, api.js (window.deid).
import {$} from "./dom.js";
import {state, update, setRenderer, reviewItems} from "./state.js";
import {render, setManifest} from "./render.js";
import {boot, ready, onModelSettled} from "./channel.js";
import * as act from "./actions.js";
import {runBenchmark, cancelBenchmark} from "./bench.js";
import {loadSideSections, loadCorpusRules} from "./side.js";
import {install} from "./api.js";

setRenderer(render);
install();

// ---- the note, the mode and the options ----
$("input").addEventListener("input", act.noteEdited);
$("key").addEventListener("input", act.scheduleRun);
for (const id of ["known-names", "known-mrns", "known-dob", "known-addresses"]) $(id).addEventListener("input", act.scheduleRun);
$("rules-only").addEventListener("change", () => act.run());
$("safe-harbor").addEventListener("change", () => act.run());
for (const r of document.querySelectorAll('input[name="mode"]')) r.addEventListener("change", () => act.run());
$("banner-on").addEventListener("change", (e) => act.bannerToggled(e.target.checked));
$("run").addEventListener("click", () => act.run());
$("run-cancel").addEventListener("click", act.cancelRun);
$("clear-note").addEventListener("click", () => act.newNote(""));
document.addEventListener("keydown", (e) => {
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); act.run(); }
});
function loadFile(file) {
  if (file) file.text().then((t) => act.newNote(t.replace(/\r\n?/g, "\n"), t));
}
$("file").addEventListener("change", (e) => loadFile(e.target.files[0]));
const ta = $("input");
ta.addEventListener("dragover", (e) => { e.preventDefault(); ta.classList.add("dragging"); });
ta.addEventListener("dragleave", () => ta.classList.remove("dragging"));
ta.addEventListener("drop", (e) => {
  e.preventDefault(); ta.classList.remove("dragging");
  if (e.dataTransfer.files.length) loadFile(e.dataTransfer.files[0]);
});
$("corpus-rules").addEventListener("change", (e) => {
  const f = e.target.files[0];
  (f ? f.text().then((t) => loadCorpusRules(t, f.name)) : loadCorpusRules(null)).catch(() => {});
});

// ---- export, the guard, the warning's confirmation ----
$("copy").addEventListener("click", () => act.exportAction("copy"));
$("download").addEventListener("click", () => act.exportAction("download"));
for (const [id, choice] of [["guard-mask", "mask"], ["guard-keep", "keep"], ["guard-review", "review"], ["guard-cancel", "cancel"]]) {
  $(id).addEventListener("click", () => act.guardAnswer(choice));
}
$("guard-dialog").addEventListener("cancel", () => act.guardAnswer("cancel"));
$("banner-keep").addEventListener("click", () => act.bannerAnswer(false));
$("banner-off").addEventListener("click", () => act.bannerAnswer(true));
$("banner-dialog").addEventListener("cancel", () => act.bannerAnswer(false));
$("mask-amber").addEventListener("click", () => act.decide(reviewItems().filter((c) => !(c.id in window.deid.decisions())).map((c) => c.id), "mask"));
$("review-them").addEventListener("click", () => {
  document.querySelector('input[name="mode"][value="review"]').checked = true;
  act.run().then(() => $("review-list").focus());
});
$("notice-close").addEventListener("click", () => update((s) => { s.notice = ""; }));

// ---- Review: buttons, keys, context ----
$("review-list").addEventListener("click", (e) => {
  const btn = e.target.closest("button[data-act]");
  const li = e.target.closest("li");
  if (!li) return;
  update((s) => { s.current = Number(li.dataset.index); s.contextId = li.dataset.id; });
  if (btn) act.decide([li.dataset.id], btn.dataset.act);
});
$("output").addEventListener("click", (e) => {
  const m = e.target.closest("mark[data-id]");
  if (!m || !state.result) return;
  const i = reviewItems().findIndex((c) => c.id === m.dataset.id);
  update((s) => { if (i >= 0) s.current = i; s.contextId = m.dataset.id; });
});
$("review-list").addEventListener("keydown", (e) => {
  if (e.target.closest("button")) return;   // a focused button acts on its own row
  const items = reviewItems();
  if (!items.length) return;
  const c = items[state.current];
  const sameKind = () => items.filter((x) => x.label === c.label).map((x) => x.id);
  const move = (to) => update((s) => { s.current = Math.max(0, Math.min(to, items.length - 1)); s.contextId = items[s.current].id; });
  const next = () => { state.current = Math.min(state.current + 1, items.length - 1); };
  let handled = true;
  if (e.key === "ArrowDown" || e.key === "j") move(state.current + 1);
  else if (e.key === "ArrowUp" || e.key === "k") move(state.current - 1);
  else if (e.key === "m") { next(); act.decide([c.id], "mask"); }
  else if (e.key === "n") { next(); act.decide([c.id], "keep"); }
  else if (e.key === "u") act.decide([c.id], null);
  else if (e.key === "M") act.decide(sameKind(), "mask");
  else if (e.key === "N") act.decide(sameKind(), "keep");
  else handled = false;
  if (handled) e.preventDefault();
});
$("mask-all").addEventListener("click", () => act.decide(reviewItems().map((x) => x.id), "mask"));
$("keep-all").addEventListener("click", () => act.decide(reviewItems().map((x) => x.id), "keep"));
$("clear-decisions").addEventListener("click", () => { update((s) => { s.decisions = []; }); act.run({quiet: true}); });

// ---- self-benchmark, corpus viewer ----
$("bench-run").addEventListener("click", runBenchmark);
$("bench-cancel").addEventListener("click", cancelBenchmark);
$("errors-engine").addEventListener("change", (e) => update((s) => { s.errorsEngine = e.target.value; }));
$("corpus-note").addEventListener("change", (e) => update((s) => { s.corpusNote = Number(e.target.value) || 0; s.corpusFocus = undefined; }));
$("bench-errors").addEventListener("click", (e) => {
  const b = e.target.closest("button.jump");
  if (!b) return;
  update((s) => { s.corpusNote = Number(b.dataset.index); s.corpusFocus = Number(b.dataset.start); });
  queueMicrotask(() => $("corpus").scrollIntoView({block: "start"}));
});

// ---- start ----
onModelSettled((info) => {
  if (info.backend === "unavailable") { $("rules-only").checked = true; $("rules-only").disabled = true; }
  else { $("rules-only").disabled = false; if ($("input").value && !$("rules-only").checked) act.run({quiet: true}); }
});
ready.then(() => { loadSideSections(); if ($("input").value) act.run(); }, () => {});
update();
boot().then((manifest) => { setManifest(manifest); update(); });
