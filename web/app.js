// deid page, main thread: builds the engine's Web Worker from the embedded script and drives the
// UI. It holds no de-identification logic: every output, span and figure comes from Python.
// Note text only ever reaches the DOM through textContent / text nodes, never as HTML.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const body = document.body;
  // decisions: {"start:end": true (mask) | false (keep)} for the note in the input pane, sent with
  // every request in every mode, kept across modes, cleared when the note changes.
  const state = {result: null, resultText: "", mode: "redact", decisions: Object.create(null), current: 0,
                 runSeq: 0, job: null, fileText: null, corpus: null, benchmark: null, model: "loading",
                 failModelNext: false, benchJob: null};
  // The one line that starts copied and downloaded surrogate text while the banner is on.
  const SURROGATE_WARNING = "WARNING: surrogate text, not a real record: names, dates, places and numbers " +
    "are invented replacements and dates are shifted.";

  // Signals for whoever drives the page (tests, scripts), on <body>:
  //   data-state  "loading" | "ready" | "error"          the engine
  //   data-model  "loading" | "wasm" | "webgpu" | "unavailable"
  //   data-run    "idle" | "working" | "done" | "error" | "cancelled"   the latest De-identify
  //   data-run-started / data-run-done   its sequence number when it started / when it ended
  //   data-engine "rules" | "ensemble" | "rules-fallback"   what answered the latest run
  //   data-bench  "idle" | "working" | "done" | "error" | "cancelled"   the self-benchmark
  //   data-corpus-rules "none" | "loading" | "loaded" | "error"   the harvested rules.json
  function setState(s) { body.setAttribute("data-state", s); }
  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    if (attrs) for (const k of Object.keys(attrs)) e.setAttribute(k, attrs[k]);
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function blockText(id) { return document.getElementById(id).textContent.trim(); }

  function base64Bytes(text) {
    if (typeof Uint8Array.fromBase64 === "function") return Uint8Array.fromBase64(text);
    const bin = atob(text);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }
  // gunzip fed and read by hand: WebKitGTK refuses to read a Blob's stream from a file:// page.
  async function gunzipText(b64) {
    const ds = new DecompressionStream("gzip");
    const writer = ds.writable.getWriter();
    const written = writer.write(base64Bytes(b64)).then(() => writer.close());
    written.catch(() => {});
    const reader = ds.readable.getReader();
    const decoder = new TextDecoder();
    let text = "";
    for (;;) {
      const {done, value} = await reader.read();
      if (done) break;
      text += decoder.decode(value, {stream: true});
    }
    await written;
    return text + decoder.decode();
  }

  // ---- the worker and its request/reply channel ----
  let worker = null;
  let nextId = 1;
  const pending = new Map();
  let readyResolve, readyReject;
  const ready = new Promise((res, rej) => { readyResolve = res; readyReject = rej; });
  // The NER model: resolves once its fate is known, never rejects:
  // {backend: "wasm" | "webgpu" | "unavailable", seconds, error, name, threshold}.
  let modelResolve;
  const modelReady = new Promise((res) => { modelResolve = res; });
  const progressHandlers = new Map();   // call id -> (stage, done, total) callback
  const t0 = performance.now();
  let tWorker = null;
  const tParsed = t0 / 1000;   // the script runs at the end of the document: time since navigation

  // A call to the worker: {id, promise, cancel()}. The promise resolves to {result, engine,
  // warning} (engine: "ensemble" when the model's spans joined the rules', "rules-fallback" when
  // the model failed on this note) or rejects with an Error whose `cancelled` is true after cancel().
  function startCall(request, onProgress) {
    const job = {id: null, cancelled: false};
    job.promise = ready.then(() => new Promise((resolve, reject) => {
      if (job.cancelled) { const e = new Error("cancelled"); e.cancelled = true; reject(e); return; }
      job.id = nextId++;
      pending.set(job.id, {resolve, reject});
      if (onProgress) progressHandlers.set(job.id, onProgress);
      worker.postMessage({type: "call", id: job.id, request: JSON.stringify(request)});
    }));
    job.cancel = () => {
      job.cancelled = true;
      if (job.id !== null && pending.has(job.id)) worker.postMessage({type: "cancel", id: job.id});
    };
    return job;
  }
  function callWithEngine(request) { return startCall(request).promise; }
  function call(request) { return callWithEngine(request).then((r) => r.result); }
  function onReply(msg) {
    const p = pending.get(msg.id);
    progressHandlers.delete(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    if (!msg.ok) { const e = new Error(msg.message); e.cancelled = !!msg.cancelled; p.reject(e); return; }
    const reply = JSON.parse(msg.response);
    if (reply.ok) p.resolve({result: reply.result, engine: msg.engine, warning: msg.warning || null});
    else p.reject(new Error(reply.error));
  }
  function fail(message) {
    setState("error");
    $("load-status").textContent = "The engine failed to start: " + message;
    readyReject(new Error(message));
    setModel({state: "unavailable", error: "the engine failed to start"});
  }

  // Model status: body[data-model] is "loading", "wasm", "webgpu" or "unavailable".
  function setModel(msg) {
    const box = $("model-status");
    if (msg.state === "loading") {
      state.model = "loading";
      body.setAttribute("data-model", "loading");
      box.textContent = "Model: loading\u2026 (the rules already run)";
      return;
    }
    if (state.model !== "loading") return;   // settled once
    if (msg.state === "ready") {
      state.model = msg.backend;
      body.setAttribute("data-model", msg.backend);
      box.textContent = "Model: " + msg.backend + " (" + msg.name + ", ready in " + msg.seconds.toFixed(1) +
        " s; confidence threshold " + msg.threshold + ")" + (msg.notes ? " \u00b7 " + msg.notes : "");
      modelResolve({backend: msg.backend, seconds: msg.seconds, sinceStart: msg.sinceStart,
                    name: msg.name, threshold: msg.threshold, notes: msg.notes || "", error: null});
      $("rules-only").disabled = false;
      if ($("input").value && !$("rules-only").checked) run();   // the model's spans join in
    } else {
      state.model = "unavailable";
      body.setAttribute("data-model", "unavailable");
      box.textContent = "Model: unavailable (" + msg.error + "); the rules run alone";
      modelResolve({backend: "unavailable", seconds: null, name: null, threshold: null, notes: "",
                    error: msg.error});
      $("rules-only").checked = true;
      $("rules-only").disabled = true;
    }
  }

  async function boot() {
    const manifest = JSON.parse(blockText("deid-manifest"));
    const source = await gunzipText(blockText(manifest.worker));
    const url = URL.createObjectURL(new Blob([source], {type: "text/javascript"}));
    worker = new Worker(url);
    tWorker = (performance.now() - t0) / 1000;
    worker.onerror = (e) => fail(e.message || "worker error");
    worker.onmessage = (event) => {
      const msg = event.data;
      if (msg.type === "progress") {
        $("load-progress").value = Math.round(msg.fraction * 100);
        $("load-status").textContent = msg.stage + "\u2026";
      } else if (msg.type === "ready") {
        URL.revokeObjectURL(url);
        const secs = (performance.now() - t0) / 1000;
        $("load-status").textContent = "Ready in " + secs.toFixed(1) + " s (Python " +
          msg.versions.python + ", engine " + msg.versions.engine + ").";
        $("versions").textContent = "Python " + msg.versions.python + " \u00b7 engine " + msg.versions.engine;
        state.info = msg.versions;
        readyResolve({seconds: secs, versions: msg.versions, worker: msg.timings,
                      page: {workerStarted: tWorker, domContentLoaded: tParsed}});
        setState("ready");
      } else if (msg.type === "model") {
        setModel(msg);
      } else if (msg.type === "job-progress") {
        const h = progressHandlers.get(msg.id);
        if (h) h(msg.stage, msg.done, msg.total);
      } else if (msg.type === "error") {
        fail(msg.message);
      } else if (msg.type === "reply") {
        onReply(msg);
      }
    };
    const blobs = {};
    for (const [name, id] of Object.entries(manifest.blobs)) blobs[name] = blockText(id);
    let model = null;
    if (manifest.model) {
      model = {info: manifest.model, blobs: {}};
      for (const [name, id] of Object.entries(manifest.model_blobs)) model.blobs[name] = blockText(id);
      setModel({state: "loading"});
    } else {
      setModel({state: "unavailable", error: "this page was built without the NER model"});
    }
    worker.postMessage({type: "init", blobs, info: manifest.lock_info, model});
  }

  // ---- public API (the same call the UI makes) ----
  // options: {mode, key, decisions, rulesOnly, simulateModelFailure}. Without rulesOnly, a call
  // made while the model loads waits for it; once it is ready (or unavailable) the result is the
  // ensemble (or the rules). simulateModelFailure (tests): the model "fails" on this note.
  function processRequest(text, o) {
    return {op: "process", text: String(text), mode: o.mode || "redact", key: o.key || null,
            decisions: o.decisions || null, rulesOnly: !!o.rulesOnly,
            simulateModelFailure: !!o.simulateModelFailure};
  }
  function processWithEngine(text, options) { return callWithEngine(processRequest(text, options || {})); }
  function process(text, options) { return processWithEngine(text, options).then((r) => r.result); }
  // {rules: report, ensemble: report | null}; the ensemble runs the model on every corpus note.
  function benchmark(options) {
    return call({op: "benchmark", rulesOnly: !!(options && options.rulesOnly)});
  }
  // What Copy and Download .txt write for the output on screen ("" when there is none).
  function exportText() {
    if (!state.result) return "";
    const text = state.result.output;
    if (state.result.mode !== "surrogate" || !$("banner-on").checked) return text;
    return SURROGATE_WARNING + (text.includes("\r\n") ? "\r\n" : "\n") + text;
  }
  window.deid = Object.freeze({
    ready,
    modelReady,
    process,
    // {result, engine: "rules" | "ensemble" | "rules-fallback", warning: string | null}
    processDetailed: processWithEngine,
    benchmark,
    exportText,
    // The decisions the page holds for the note in the input pane ({"start:end": bool}).
    decisions: () => Object.assign({}, state.decisions),
    // Tests: the model "fails" on the next De-identify run (the page falls back to the rules).
    failModelOnNextRun: () => { state.failModelNext = true; },
    // The last self-benchmark result the page showed ({rules, ensemble}), or null.
    lastBenchmark: () => state.benchmark,
    // The model's raw output for `text`: {logits: flat numbers, dims: [B, T, L]} (waits for the model).
    modelLogits: (text) => call({op: "ner_logits", text: String(text)}),
    corpus: () => call({op: "corpus"}),
    // Load harvested corpus rules (the text of a rules.json; null drops them): what the file
    // input does. Resolves to {name, sentences, templates, notes} or null.
    corpusRules: (text, name) => loadCorpusRules(text, name),
    lists: () => call({op: "lists"}),
  });

  // ---- main UI ----
  function currentMode() { return document.querySelector('input[name="mode"]:checked').value; }
  function reviewItems() { return state.result ? state.result.review : []; }
  function reasonOf(c) { return (c.explanation && c.explanation.text) || c.reason || c.source; }

  // The output pane. Every mark carries its category as text (data-badge, shown by the CSS) where
  // the mark's own text does not already say it, so categories never rest on colour alone.
  function renderOutput(result) {
    const out = $("output");
    clear(out);
    const text = result.output;
    let pos = 0;
    for (const span of result.spans) {
      if (span.out_start > pos) out.appendChild(document.createTextNode(text.slice(pos, span.out_start)));
      const m = el("mark", {"data-id": span.id, "data-cat": span.category, "data-tier": span.tier,
                            "title": span.label + " \u00b7 " + (span.tier === "review" ? "amber candidate" : "certain") +
                                     " \u00b7 " + span.source});
      m.className = "cat-" + span.category;
      let badge = span.replaced && result.mode !== "surrogate" ? "" : span.category;
      if (span.tier === "review") {
        const d = state.decisions[span.id];
        m.classList.add(d === true ? "accepted" : d === false ? "rejected" : "pending");
        badge = span.category + (d === true ? "" : d === false ? " kept" : "?");
        if (d === true && span.replaced && result.mode !== "surrogate") badge = "";
      }
      if (badge) m.setAttribute("data-badge", badge);
      m.textContent = text.slice(span.out_start, span.out_end);
      out.appendChild(m);
      pos = span.out_end;
    }
    if (pos < text.length) out.appendChild(document.createTextNode(text.slice(pos)));
  }

  function renderLegend(categories) {
    const legend = $("legend");
    clear(legend);
    for (const c of categories) {
      const m = el("mark", {"data-cat": c}, c); m.className = "cat-" + c;
      legend.appendChild(m);
    }
    const r = el("mark", {"data-badge": "?"}, "amber candidate (undecided)"); r.className = "pending"; legend.appendChild(r);
  }

  function decisionWord(id) {
    return id in state.decisions ? (state.decisions[id] ? "mask" : "keep") : "";
  }

  function renderReview(result) {
    const list = $("review-list");
    const items = result ? result.review : [];
    $("review").hidden = state.mode !== "review";
    clear(list);
    const undecided = items.filter((c) => !(c.id in state.decisions)).length;
    $("review-count").textContent = "(" + items.length + (items.length === 1 ? " candidate, " : " candidates, ") +
      undecided + " undecided)";
    items.forEach((c, i) => {
      const li = el("li", {"data-id": c.id, "data-label": c.label, "data-index": String(i)});
      const d = decisionWord(c.id);
      if (d) li.setAttribute("data-decision", d);
      li.appendChild(el("span", {"class": "cand-label"}, c.label));
      li.appendChild(el("span", {"class": "cand-text"}, c.text));
      li.appendChild(el("span", {"class": "cand-reason"}, reasonOf(c)));
      li.setAttribute("data-source", c.source || "");
      const ctl = el("span", {"class": "cand-ctl"});
      ctl.appendChild(el("button", {"type": "button", "data-act": "mask", "tabindex": "-1",
                                    "title": "Mask: it is an identifier"}, "Mask"));
      ctl.appendChild(el("button", {"type": "button", "data-act": "keep", "tabindex": "-1",
                                    "title": "Keep: it is not an identifier, leave the text"}, "Keep"));
      ctl.appendChild(el("span", {"class": "cand-state"}, d === "mask" ? "masked" : d === "keep" ? "kept" : "undecided"));
      li.appendChild(ctl);
      list.appendChild(li);
    });
    state.current = Math.min(state.current, Math.max(items.length - 1, 0));
    highlightCurrent(false);
    renderPhiFree(result);
  }

  // Review: the sentences the loaded rules.json knows as PHI-free (skipped by the engine).
  function renderPhiFree(result) {
    const list = $("phi-free-list");
    clear(list);
    const ranges = (result && result.phi_free) || [];
    $("phi-free").hidden = !ranges.length;
    for (const [a, b] of ranges) {
      const li = el("li", {"data-start": String(a), "data-end": String(b), "data-source": "harvest:sentence"});
      li.appendChild(el("span", {"class": "cand-text"}, state.resultText.slice(a, b)));
      li.appendChild(el("span", {"class": "cand-reason"}, "known PHI-free: harvested sentence (" +
        (state.corpusRules ? state.corpusRules.name : "rules.json") + "), not searched"));
      list.appendChild(li);
    }
  }

  // The sentence of the note around [start, end): [a, b) cut at a sentence end or a line break,
  // at most 160 characters either side.
  function sentenceAround(text, start, end) {
    let a = start;
    while (a > 0 && start - a < 160 && !/[\n.!?]/.test(text[a - 1])) a--;
    let b = end;
    while (b < text.length && b - end < 160 && !/[\n]/.test(text[b]) && !(/[.!?]/.test(text[b - 1]) && /\s/.test(text[b]) && b > end)) b++;
    while (a < start && /\s/.test(text[a])) a++;
    return [a, b];
  }

  // Review in context: the candidate (or any clicked mark) in its sentence of the note, with what
  // the output now shows in its place, and the mark in the output pane outlined and scrolled to.
  function showContext(span, reason) {
    const box = $("review-context");
    clear(box);
    for (const m of $("output").querySelectorAll("mark.current")) m.classList.remove("current");
    if (!span || !state.result) { box.hidden = true; return; }
    const text = state.resultText;
    const [a, b] = sentenceAround(text, span.start, span.end);
    const sentence = el("p", {"class": "ctx-sentence"});
    if (a > 0) sentence.appendChild(document.createTextNode("\u2026"));
    sentence.appendChild(document.createTextNode(text.slice(a, span.start)));
    const m = el("mark", {"class": "current cat-" + span.category, "data-badge": span.category}, text.slice(span.start, span.end));
    sentence.appendChild(m);
    sentence.appendChild(document.createTextNode(text.slice(span.end, b)));
    if (b < text.length) sentence.appendChild(document.createTextNode("\u2026"));
    box.appendChild(el("p", {"class": "ctx-head"}, span.label + " \u00b7 " +
      (span.tier === "review" ? "amber candidate" : "certain") + (reason ? " \u00b7 " + reason : "")));
    box.appendChild(sentence);
    const placed = state.result.spans.find((s) => s.id === span.id);
    if (placed) {
      box.appendChild(el("p", {"class": "ctx-out"}, "The output shows: " +
        state.result.output.slice(placed.out_start, placed.out_end)));
    }
    box.hidden = false;
    box.setAttribute("data-id", span.id);
    const om = $("output").querySelector('mark[data-id="' + span.id + '"]');
    if (om) { om.classList.add("current"); om.scrollIntoView({block: "nearest"}); }
  }

  function highlightCurrent(show) {
    const items = $("review-list").children;
    for (const li of items) li.classList.toggle("current", Number(li.dataset.index) === state.current);
    const li = items[state.current];
    const c = reviewItems()[state.current];
    if (!li || !c) { if (show !== false) showContext(null); return; }
    li.scrollIntoView({block: "nearest"});
    const shownId = $("review-context").getAttribute("data-id");
    if (show !== false || (!$("review-context").hidden && shownId)) showContext(Object.assign({tier: "review"}, c), reasonOf(c));
  }

  function setRunState(s, seq) {
    body.setAttribute("data-run", s);
    if (s === "working") body.setAttribute("data-run-started", String(seq));
    else body.setAttribute("data-run-done", String(seq));
  }
  function setBusy(busy) {
    $("run-progress").hidden = !busy;
    $("run-cancel").hidden = !busy;
    $("copy").disabled = busy || !state.result;
    $("download").disabled = busy || !state.result;
  }

  async function run() {
    clearTimeout(debounce);
    const seq = ++state.runSeq;
    if (state.job) state.job.cancel();   // a newer run supersedes the one in flight
    let text = $("input").value;
    // A textarea turns CRLF into LF; a file loaded as-is keeps its own line ends.
    if (state.fileText !== null && text === state.fileText.replace(/\r\n?/g, "\n")) text = state.fileText;
    state.mode = currentMode();
    $("surrogate-banner").hidden = !(state.mode === "surrogate" && $("banner-on").checked);
    // Never show a previous note's result: the output is cleared until this run answers.
    state.result = null;
    clear($("output"));
    showContext(null);
    $("run-warning").hidden = true;
    $("run-status").textContent = "working\u2026";
    $("run-progress").removeAttribute("value");
    setRunState("working", seq);
    setBusy(true);
    const started = performance.now();
    // The UI never waits for the model: while it loads, the rules answer (and run again after).
    const rulesOnly = $("rules-only").checked || state.model === "loading";
    const simulate = state.failModelNext; state.failModelNext = false;
    const job = startCall(processRequest(text, {mode: state.mode, key: $("key").value, rulesOnly,
                                                decisions: state.decisions, simulateModelFailure: simulate}),
      (stage, done, total) => {
        if (seq !== state.runSeq) return;
        $("run-progress").max = total; $("run-progress").value = done;
        $("run-status").textContent = "working: the model, part " + done + " of " + total + "\u2026";
      });
    state.job = job;
    try {
      const {result, engine, warning} = await job.promise;
      if (seq !== state.runSeq) return;          // a newer run superseded this one
      state.result = result;
      state.resultText = text;
      renderOutput(result);
      renderReview(result);
      const how = engine === "ensemble" ? "rules + model (" + state.model + ")"
        : engine === "rules-fallback" ? "rules only (the model failed on this note)"
        : state.model === "loading" ? "rules only (model loading)" : "rules only";
      if (warning) { $("run-warning").textContent = warning; $("run-warning").hidden = false; }
      body.setAttribute("data-engine", engine);
      $("run-status").textContent = result.spans.length + " spans \u00b7 " +
        Math.round(performance.now() - started) + " ms \u00b7 " + how;
      setRunState("done", seq);
    } catch (err) {
      if (seq !== state.runSeq) return;
      renderReview(null);
      if (err.cancelled) { $("run-status").textContent = "cancelled"; setRunState("cancelled", seq); }
      else { $("run-status").textContent = "error: " + err.message; setRunState("error", seq); }
    } finally {
      if (seq === state.runSeq) { state.job = null; setBusy(false); }
    }
  }

  let debounce = null;
  function scheduleRun() { clearTimeout(debounce); debounce = setTimeout(run, 250); }

  // decision: "mask", "keep" or null (undecided).
  function decide(ids, decision) {
    for (const id of ids) {
      if (decision) state.decisions[id] = decision === "mask"; else delete state.decisions[id];
    }
    run();
  }
  function newNote() { state.decisions = Object.create(null); state.current = 0; }

  $("input").addEventListener("input", () => { newNote(); scheduleRun(); });
  $("key").addEventListener("input", scheduleRun);
  $("rules-only").addEventListener("change", run);
  for (const r of document.querySelectorAll('input[name="mode"]')) r.addEventListener("change", run);
  $("banner-on").addEventListener("change", () => {
    $("surrogate-banner").hidden = !(state.mode === "surrogate" && $("banner-on").checked);
  });
  $("run").addEventListener("click", run);
  $("run-cancel").addEventListener("click", () => { if (state.job) state.job.cancel(); });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); run(); }
  });

  function loadFile(file) {
    if (!file) return;
    file.text().then((t) => { state.fileText = t; $("input").value = t; newNote(); run(); });
  }
  $("file").addEventListener("change", (e) => loadFile(e.target.files[0]));

  // Harvested corpus rules: the file's text goes to Python (deid_page "rules", the CLI's loader).
  function setRulesState(s) { body.setAttribute("data-corpus-rules", s); }
  setRulesState("none");
  async function loadCorpusRules(text, name) {
    setRulesState("loading");
    state.corpusRules = null;
    try {
      const summary = await call({op: "rules", text: text === null ? null : String(text), name: name || "rules.json"});
      state.corpusRules = summary;
      $("corpus-rules-status").textContent = summary ? summary.name + ": " + summary.sentences +
        " PHI-free sentences, " + summary.templates + " template rules" : "";
      setRulesState(summary ? "loaded" : "none");
      return summary;
    } catch (err) {
      $("corpus-rules-status").textContent = "error: " + err.message;
      setRulesState("error");
      throw err;
    } finally {
      if ($("input").value) run();
    }
  }
  $("corpus-rules").addEventListener("change", (e) => {
    const f = e.target.files[0];
    (f ? f.text().then((t) => loadCorpusRules(t, f.name)) : loadCorpusRules(null)).catch(() => {});
  });
  const ta = $("input");
  ta.addEventListener("dragover", (e) => { e.preventDefault(); ta.classList.add("dragging"); });
  ta.addEventListener("dragleave", () => ta.classList.remove("dragging"));
  ta.addEventListener("drop", (e) => {
    e.preventDefault(); ta.classList.remove("dragging");
    if (e.dataTransfer.files.length) loadFile(e.dataTransfer.files[0]);
  });

  $("copy").addEventListener("click", async () => {
    const text = exportText();
    try { await navigator.clipboard.writeText(text); $("run-status").textContent = "copied"; }
    catch (_) {
      const range = document.createRange(); range.selectNodeContents($("output"));
      const sel = getSelection(); sel.removeAllRanges(); sel.addRange(range);
      $("run-status").textContent = "selected: press Ctrl+C to copy";
    }
  });
  $("download").addEventListener("click", () => {
    if (!state.result) return;
    const url = URL.createObjectURL(new Blob([exportText()], {type: "text/plain;charset=utf-8"}));
    const a = el("a", {href: url, download: "deid-" + state.result.mode + ".txt"});
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });

  // Review list: buttons and keyboard shortcuts; a click on a row or on a mark in the output shows
  // the candidate in its sentence.
  $("review-list").addEventListener("click", (e) => {
    const btn = e.target.closest("button[data-act]");
    const li = e.target.closest("li");
    if (!li) return;
    state.current = Number(li.dataset.index);
    if (btn) decide([li.dataset.id], btn.dataset.act); else highlightCurrent(true);
  });
  $("output").addEventListener("click", (e) => {
    const m = e.target.closest("mark[data-id]");
    if (!m || !state.result) return;
    const i = reviewItems().findIndex((c) => c.id === m.dataset.id);
    if (i >= 0 && state.mode === "review") { state.current = i; highlightCurrent(true); return; }
    const span = i >= 0 ? Object.assign({tier: "review"}, reviewItems()[i]) : state.result.spans.find((s) => s.id === m.dataset.id);
    showContext(span, i >= 0 ? reasonOf(span) : "found by " + span.source);
  });
  $("review-list").addEventListener("keydown", (e) => {
    const items = reviewItems();
    if (!items.length) return;
    const c = items[state.current];
    const sameKind = () => items.filter((x) => x.label === c.label).map((x) => x.id);
    const next = () => { state.current = Math.min(state.current + 1, items.length - 1); };
    let handled = true;
    if (e.key === "ArrowDown" || e.key === "j") { next(); highlightCurrent(true); }
    else if (e.key === "ArrowUp" || e.key === "k") { state.current = Math.max(state.current - 1, 0); highlightCurrent(true); }
    else if (e.key === "m") { next(); decide([c.id], "mask"); }
    else if (e.key === "n") { next(); decide([c.id], "keep"); }
    else if (e.key === "u") decide([c.id], null);
    else if (e.key === "M") decide(sameKind(), "mask");
    else if (e.key === "N") decide(sameKind(), "keep");
    else handled = false;
    if (handled) e.preventDefault();
  });
  $("mask-all").addEventListener("click", () => decide(reviewItems().map((x) => x.id), "mask"));
  $("keep-all").addEventListener("click", () => decide(reviewItems().map((x) => x.id), "keep"));
  $("clear-decisions").addEventListener("click", () => { state.decisions = Object.create(null); run(); });

  // ---- self-benchmark ----
  const SVG = "http://www.w3.org/2000/svg";
  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const k of Object.keys(attrs || {})) e.setAttribute(k, String(attrs[k]));
    if (text !== undefined) e.textContent = String(text);
    return e;
  }
  function pct(x) { return (100 * x).toFixed(1) + " %"; }
  // Recall per category (share of identifier characters masked), certain spans only (what Redact
  // and Surrogate do on their own): rules only (light) and rules + model (dark) when it ran.
  const CHART = {W: 680, left: 120, right: 150, rowH: 30};
  function chart(rules, ensemble) {
    const rows = [["ALL", rules.certain.overall, ensemble && ensemble.certain.overall]];
    for (const c of Object.keys(rules.certain.per_category)) {
      if (rules.with_review.per_category[c].gold) {
        rows.push([c, rules.certain.per_category[c], ensemble && ensemble.certain.per_category[c]]);
      }
    }
    const {W, left, right, rowH} = CHART;
    const barW = W - left - right, H = rows.length * rowH + 34;
    const s = svg("svg", {viewBox: "0 0 " + W + " " + H, width: W, height: H, role: "img",
                          "aria-label": "Share of identifier characters found, certain spans, by category"});
    s.appendChild(svg("text", {x: 0, y: 14, "font-size": 12, fill: "#1d2330"},
      "Identifier characters found (certain spans): rules only (light bar)" + (ensemble ? ", rules + model (dark bar)" : "")));
    rows.forEach(([name, r, e], i) => {
      const y = 26 + i * rowH;
      s.appendChild(svg("text", {x: left - 8, y: y + 17, "font-size": 12, fill: "#1d2330", "text-anchor": "end"}, name));
      s.appendChild(svg("rect", {x: left, y, width: barW, height: 24, fill: "#eef0f4"}));
      s.appendChild(svg("rect", {x: left, y, width: (barW * r.recall).toFixed(1), height: 24, fill: "#9cc0f5"}));
      if (e) s.appendChild(svg("rect", {x: left, y: y + 6, width: (barW * e.recall).toFixed(1), height: 12, fill: "#1f5fbf"}));
      s.appendChild(svg("text", {x: left + barW + 8, y: y + 17, "font-size": 12, fill: "#1d2330"},
        pct(r.recall) + (e ? " / " + pct(e.recall) : "")));
    });
    return s;
  }
  // "misses 0.8 % of identifier characters; 1.1 % of what it masks is not an identifier"
  function plainLine(f) {
    return "misses " + pct(1 - f.recall) + " of identifier characters; " +
      pct(1 - f.precision) + " of what it masks is not an identifier";
  }
  function renderBenchmark(result) {
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
    let text = rules.documents + " notes, " + rules.characters + " characters, " +
      rules.phi_characters + " identifier characters (not counting spaces). Rules only: " +
      rules.seconds + " s in the engine, " + rules.wall_seconds + " s in all.";
    if (ens) {
      text += " Rules + model (" + ens.backend + "): the model took " + ens.model_seconds +
        " s over the corpus, scoring " + ens.wall_seconds + " s.";
    } else {
      text += " Rules + model: " + (state.model === "loading" ? "waiting for the model" :
        $("rules-only").checked || state.model === "unavailable" ? "not run (rules only)" : "running\u2026");
    }
    $("bench-summary").textContent = text;
    const box = $("bench-chart"); clear(box); box.appendChild(chart(rules, ens));
    renderErrors();
  }

  // ---- error viewer: every miss and false alarm of the corpus, with context ----
  function renderErrors() {
    const tbody = $("bench-errors").querySelector("tbody");
    clear(tbody);
    const b = state.benchmark;
    if (!b || !state.corpus) { $("errors-box").hidden = true; return; }
    const sel = $("errors-engine");
    sel.querySelector('option[value="ensemble"]').disabled = !b.ensemble;
    if (!b.ensemble && sel.value === "ensemble") sel.value = "rules";
    const report = sel.value === "ensemble" && b.ensemble ? b.ensemble : b.rules;
    const byId = new Map(state.corpus.notes.map((n, i) => [String(n.id), i]));
    let misses = 0, falses = 0;
    for (const d of report.notes || []) {
      const index = byId.get(String(d.id));
      if (index === undefined) continue;
      const text = state.corpus.notes[index].text;
      const rows = d.misses.map((r) => ["missed", r]).concat(d.false_alarms.map((r) => ["false alarm", r]));
      rows.sort((x, y) => x[1][0] - y[1][0]);
      for (const [kind, [a, z]] of rows) {
        if (kind === "missed") misses++; else falses++;
        const tr = el("tr", {"data-kind": kind === "missed" ? "miss" : "false", "data-note": String(d.id)});
        const td = el("td");
        const jump = el("button", {"type": "button", "class": "jump", "data-index": String(index), "data-start": String(a)}, String(d.id));
        td.appendChild(jump);
        tr.appendChild(td);
        tr.appendChild(el("td", null, kind));
        const ctx = el("td", {"class": "ctx"});
        const before = text.slice(Math.max(0, a - 40), a), after = text.slice(z, z + 40);
        ctx.appendChild(document.createTextNode((a > 40 ? "\u2026" : "") + before.replace(/\s+/g, " ")));
        const m = el("mark", {"class": kind === "missed" ? "miss" : "false"}, text.slice(a, z));
        ctx.appendChild(m);
        ctx.appendChild(document.createTextNode(after.replace(/\s+/g, " ") + (z + 40 < text.length ? "\u2026" : "")));
        tr.appendChild(ctx);
        tbody.appendChild(tr);
      }
    }
    $("errors-count").textContent = misses + " missed, " + falses + " false alarms (characters scored as in the table, with every amber candidate masked)";
    $("errors-box").hidden = false;
  }
  $("errors-engine").addEventListener("change", renderErrors);
  $("bench-errors").addEventListener("click", (e) => {
    const b = e.target.closest("button.jump");
    if (!b) return;
    $("corpus-note").value = b.dataset.index;
    renderCorpusNote(Number(b.dataset.start));
    $("corpus").scrollIntoView({block: "start"});
  });

  $("bench-run").addEventListener("click", async () => {
    $("bench-run").disabled = true;
    $("bench-cancel").hidden = false;
    $("bench-progress").hidden = false;
    $("bench-progress").removeAttribute("value");
    body.setAttribute("data-bench", "working");
    $("bench-status").textContent = "running the rules\u2026 (a few seconds; De-identify waits for this step)";
    let outcome = "done";
    try {
      const rulesJob = startCall({op: "benchmark", rulesOnly: true});
      state.benchJob = rulesJob;
      const rulesOnly = (await rulesJob.promise).result;
      state.benchmark = rulesOnly;
      renderBenchmark(rulesOnly);
      renderCorpusNote();
      // The rules' step cannot stop half-way; a Cancel during it stops before the model's.
      if (rulesJob.cancelled) { const e = new Error("cancelled"); e.cancelled = true; throw e; }
      if (!$("rules-only").checked && state.model !== "unavailable") {
        $("bench-status").textContent = "running the model on every note\u2026 (De-identify still works meanwhile)";
        const job = startCall({op: "benchmark", rulesOnly: false}, (stage, done, total) => {
          $("bench-progress").max = total; $("bench-progress").value = done;
          $("bench-status").textContent = "running the model: note " + done + " of " + total +
            "\u2026 (De-identify still works meanwhile)";
        });
        state.benchJob = job;
        const both = (await job.promise).result;
        state.benchmark = both;
        renderBenchmark(both);
        renderCorpusNote();
      }
      $("bench-status").textContent = "done";
    } catch (err) {
      outcome = err.cancelled ? "cancelled" : "error";
      $("bench-status").textContent = err.cancelled ? "cancelled" : "error: " + err.message;
    }
    state.benchJob = null;
    body.setAttribute("data-bench", outcome);
    $("bench-cancel").hidden = true;
    $("bench-progress").hidden = true;
    $("bench-run").disabled = false;
  });
  $("bench-cancel").addEventListener("click", () => { if (state.benchJob) state.benchJob.cancel(); });

  // ---- corpus viewer ----
  // focus: a character offset to scroll to and outline (from the error viewer), or undefined.
  function renderCorpusNote(focus) {
    const box = $("corpus-text");
    clear(box);
    if (!state.corpus) return;
    const note = state.corpus.notes[Number($("corpus-note").value) || 0];
    if (!note) return;
    const text = note.text;
    const kind = new Array(text.length + 1).fill("");
    for (const s of note.spans) for (let i = s.start; i < s.end; i++) kind[i] = "hit";
    const which = $("errors-engine").value;
    const report = state.benchmark && (which === "ensemble" && state.benchmark.ensemble || state.benchmark.rules);
    const details = report && report.notes ? report.notes.find((n) => String(n.id) === String(note.id)) : null;
    if (details) {
      for (const [a, b] of details.misses) for (let i = a; i < b; i++) kind[i] = "miss";
      for (const [a, b] of details.false_alarms) for (let i = a; i < b; i++) kind[i] = "false";
      $("corpus-status").textContent = details.misses.length + " missed, " + details.false_alarms.length + " false alarms";
    } else {
      $("corpus-status").textContent = "identifiers (gold) shown; run the self-benchmark to mark misses and false alarms";
    }
    let i = 0, target = null;
    while (i < text.length) {
      let j = i + 1;
      while (j < text.length && kind[j] === kind[i]) j++;
      if (kind[i]) {
        const m = el("mark", {"data-start": String(i)}, text.slice(i, j)); m.className = kind[i]; box.appendChild(m);
        if (focus !== undefined && focus >= i && focus < j) target = m;
      } else box.appendChild(document.createTextNode(text.slice(i, j)));
      i = j;
    }
    if (target) { target.classList.add("current"); target.scrollIntoView({block: "center"}); }
  }
  $("corpus-note").addEventListener("change", () => renderCorpusNote());

  async function loadSideSections() {
    try {
      state.corpus = await window.deid.corpus();
      const sel = $("corpus-note");
      state.corpus.notes.forEach((n, i) => sel.appendChild(el("option", {value: String(i)}, n.id + " \u00b7 " + n.note_type)));
      renderCorpusNote();
    } catch (err) { $("corpus-status").textContent = err.message; $("bench-run").disabled = true; }
    try {
      const tbody = $("lists-table").querySelector("tbody");
      for (const l of (await window.deid.lists()).lists) {
        const tr = el("tr");
        tr.appendChild(el("td", null, l.file));
        tr.appendChild(el("td", {"class": "num"}, l.count));
        tr.appendChild(el("td", null, l.source));
        tr.appendChild(el("td", null, l.licence));
        tbody.appendChild(tr);
      }
    } catch (err) {
      $("lists-table").querySelector("tbody").appendChild(el("tr")).appendChild(el("td", {colspan: "4"}, err.message));
    }
  }

  ready.then((r) => { renderLegend(r.versions.categories); loadSideSections(); if ($("input").value) run(); },
             () => {});
  boot().catch((err) => fail(String(err && err.message || err)));
})();
