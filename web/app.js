// deid page, main thread: builds the engine's Web Worker from the embedded script and drives the
// UI. It holds no de-identification logic: every output, span and figure comes from Python.
// Note text only ever reaches the DOM through textContent / text nodes, never as HTML.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const body = document.body;
  const state = {result: null, mode: "redact", decisions: Object.create(null), current: 0,
                 runSeq: 0, fileText: null, corpus: null, benchmark: null, model: "loading"};

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
  async function gunzipText(b64) {
    const stream = new Blob([base64Bytes(b64)]).stream().pipeThrough(new DecompressionStream("gzip"));
    return await new Response(stream).text();
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
  let benchProgress = null;   // callback for the worker's benchmark progress
  const t0 = performance.now();
  let tWorker = null;
  const tParsed = t0 / 1000;   // the script runs at the end of the document: time since navigation

  // Resolves to [result, engine] (engine: "ensemble" when the model's spans joined the rules').
  function callWithEngine(request) {
    return ready.then(() => new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, {resolve, reject});
      worker.postMessage({type: "call", id, request: JSON.stringify(request)});
    }));
  }
  function call(request) { return callWithEngine(request).then(([result]) => result); }
  function onReply(msg) {
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    if (!msg.ok) { p.reject(new Error(msg.message)); return; }
    const reply = JSON.parse(msg.response);
    if (reply.ok) p.resolve([reply.result, msg.engine]); else p.reject(new Error(reply.error));
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
      } else if (msg.type === "bench-progress") {
        if (benchProgress) benchProgress(msg.done, msg.total);
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
  // options: {mode, key, decisions, rulesOnly}. Without rulesOnly, a call made while the model
  // loads waits for it; once it is ready (or unavailable) the result is the ensemble (or the rules).
  function processWithEngine(text, options) {
    const o = options || {};
    return callWithEngine({op: "process", text: String(text), mode: o.mode || "redact",
                           key: o.key || null, decisions: o.decisions || null, rulesOnly: !!o.rulesOnly});
  }
  function process(text, options) { return processWithEngine(text, options).then(([result]) => result); }
  // {rules: report, ensemble: report | null}; the ensemble runs the model on every corpus note.
  function benchmark(options) {
    return call({op: "benchmark", rulesOnly: !!(options && options.rulesOnly)});
  }
  window.deid = Object.freeze({
    ready,
    modelReady,
    process,
    benchmark,
    // The last self-benchmark result the page showed ({rules, ensemble}), or null.
    lastBenchmark: () => state.benchmark,
    // The model's raw output for `text`: {logits: flat numbers, dims: [B, T, L]} (waits for the model).
    modelLogits: (text) => call({op: "ner_logits", text: String(text)}),
    corpus: () => call({op: "corpus"}),
    lists: () => call({op: "lists"}),
  });

  // ---- main UI ----
  function currentMode() { return document.querySelector('input[name="mode"]:checked').value; }

  function renderOutput(result) {
    const out = $("output");
    clear(out);
    const text = result.output;
    let pos = 0;
    for (const span of result.spans) {
      if (span.out_start > pos) out.appendChild(document.createTextNode(text.slice(pos, span.out_start)));
      const m = el("mark", {"data-id": span.id, "title": span.label + " \u00b7 " + span.tier + " \u00b7 " + span.source});
      m.className = "cat-" + span.category;
      if (span.tier === "review") {
        const d = state.decisions[span.id];
        m.classList.add(d === true ? "accepted" : d === false ? "rejected" : "pending");
      }
      m.textContent = text.slice(span.out_start, span.out_end);
      out.appendChild(m);
      pos = span.out_end;
    }
    if (pos < text.length) out.appendChild(document.createTextNode(text.slice(pos)));
  }

  function renderLegend(categories) {
    const legend = $("legend");
    clear(legend);
    for (const c of categories) { const m = el("mark", null, c); m.className = "cat-" + c; legend.appendChild(m); }
    const r = el("mark", null, "review candidate"); r.className = "pending"; legend.appendChild(r);
  }

  function renderReview(result) {
    const list = $("review-list");
    const items = state.mode === "review" ? result.review : [];
    $("review").hidden = state.mode !== "review";
    clear(list);
    const undecided = items.filter((c) => !(c.id in state.decisions)).length;
    $("review-count").textContent = "(" + items.length + " candidates, " + undecided + " undecided)";
    items.forEach((c, i) => {
      const li = el("li", {"data-id": c.id, "data-label": c.label, "data-index": String(i)});
      const d = c.id in state.decisions ? (state.decisions[c.id] ? "accept" : "reject") : "";
      if (d) li.setAttribute("data-decision", d);
      li.appendChild(el("span", {"class": "cand-label"}, c.label));
      li.appendChild(el("span", {"class": "cand-text"}, c.text));
      li.appendChild(el("span", {"class": "cand-reason"}, c.reason || c.source));
      const ctl = el("span", {"class": "cand-ctl"});
      const acc = el("button", {"type": "button", "data-act": "accept", "tabindex": "-1"}, "Accept");
      const rej = el("button", {"type": "button", "data-act": "reject", "tabindex": "-1"}, "Reject");
      ctl.appendChild(acc); ctl.appendChild(rej);
      ctl.appendChild(el("span", {"class": "cand-state"}, d ? d + "ed" : "undecided (masked)"));
      li.appendChild(ctl);
      list.appendChild(li);
    });
    state.current = Math.min(state.current, Math.max(items.length - 1, 0));
    highlightCurrent();
  }

  function highlightCurrent() {
    const items = $("review-list").children;
    for (const li of items) li.classList.toggle("current", Number(li.dataset.index) === state.current);
    for (const m of $("output").querySelectorAll("mark.current")) m.classList.remove("current");
    const li = items[state.current];
    if (!li) return;
    li.scrollIntoView({block: "nearest"});
    const m = $("output").querySelector('mark[data-id="' + li.dataset.id + '"]');
    if (m) { m.classList.add("current"); m.scrollIntoView({block: "nearest"}); }
  }

  async function run() {
    const seq = ++state.runSeq;
    let text = $("input").value;
    // A textarea turns CRLF into LF; a file loaded as-is keeps its own line ends.
    if (state.fileText !== null && text === state.fileText.replace(/\r\n?/g, "\n")) text = state.fileText;
    state.mode = currentMode();
    $("surrogate-banner").hidden = !(state.mode === "surrogate" && $("banner-on").checked);
    $("run-status").textContent = "working\u2026";
    const started = performance.now();
    // The UI never waits for the model: while it loads, the rules answer (and run again after).
    const rulesOnly = $("rules-only").checked || state.model === "loading";
    try {
      const [result, engine] = await processWithEngine(text, {
        mode: state.mode, key: $("key").value, rulesOnly,
        decisions: state.mode === "review" ? state.decisions : null});
      if (seq !== state.runSeq) return;          // a newer run superseded this one
      state.result = result;
      renderOutput(result);
      renderReview(result);
      const how = engine === "ensemble" ? "rules + model (" + state.model + ")"
        : state.model === "loading" ? "rules only (model loading)" : "rules only";
      $("run-status").textContent = result.spans.length + " spans \u00b7 " +
        Math.round(performance.now() - started) + " ms \u00b7 " + how;
    } catch (err) {
      if (seq === state.runSeq) $("run-status").textContent = "error: " + err.message;
    }
  }

  let debounce = null;
  function scheduleRun() { clearTimeout(debounce); debounce = setTimeout(run, 250); }

  // decision: "accept" (mask), "reject" (keep the text) or null (undecided: masked, fail-safe).
  function decide(ids, decision) {
    for (const id of ids) {
      if (decision) state.decisions[id] = decision === "accept"; else delete state.decisions[id];
    }
    run();
  }
  function reviewItems() { return state.result && state.mode === "review" ? state.result.review : []; }

  $("input").addEventListener("input", () => { state.decisions = Object.create(null); scheduleRun(); });
  $("key").addEventListener("input", scheduleRun);
  $("rules-only").addEventListener("change", run);
  for (const r of document.querySelectorAll('input[name="mode"]')) r.addEventListener("change", run);
  $("banner-on").addEventListener("change", () => {
    $("surrogate-banner").hidden = !(state.mode === "surrogate" && $("banner-on").checked);
  });
  $("run").addEventListener("click", run);
  document.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); run(); }
  });

  function loadFile(file) {
    if (!file) return;
    file.text().then((t) => { state.fileText = t; $("input").value = t; state.decisions = Object.create(null); run(); });
  }
  $("file").addEventListener("change", (e) => loadFile(e.target.files[0]));
  const ta = $("input");
  ta.addEventListener("dragover", (e) => { e.preventDefault(); ta.classList.add("dragging"); });
  ta.addEventListener("dragleave", () => ta.classList.remove("dragging"));
  ta.addEventListener("drop", (e) => {
    e.preventDefault(); ta.classList.remove("dragging");
    if (e.dataTransfer.files.length) loadFile(e.dataTransfer.files[0]);
  });

  $("copy").addEventListener("click", async () => {
    const text = state.result ? state.result.output : "";
    try { await navigator.clipboard.writeText(text); $("run-status").textContent = "copied"; }
    catch (_) {
      const range = document.createRange(); range.selectNodeContents($("output"));
      const sel = getSelection(); sel.removeAllRanges(); sel.addRange(range);
      $("run-status").textContent = "selected: press Ctrl+C to copy";
    }
  });
  $("download").addEventListener("click", () => {
    const text = state.result ? state.result.output : "";
    const url = URL.createObjectURL(new Blob([text], {type: "text/plain;charset=utf-8"}));
    const a = el("a", {href: url, download: "deid-" + state.mode + ".txt"});
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });

  // Review list: buttons and keyboard shortcuts.
  $("review-list").addEventListener("click", (e) => {
    const btn = e.target.closest("button[data-act]");
    const li = e.target.closest("li");
    if (!li) return;
    state.current = Number(li.dataset.index);
    if (btn) decide([li.dataset.id], btn.dataset.act); else highlightCurrent();
  });
  $("review-list").addEventListener("keydown", (e) => {
    const items = reviewItems();
    if (!items.length) return;
    const c = items[state.current];
    const sameKind = () => items.filter((x) => x.label === c.label).map((x) => x.id);
    let handled = true;
    if (e.key === "ArrowDown" || e.key === "j") { state.current = Math.min(state.current + 1, items.length - 1); highlightCurrent(); }
    else if (e.key === "ArrowUp" || e.key === "k") { state.current = Math.max(state.current - 1, 0); highlightCurrent(); }
    else if (e.key === "a") { decide([c.id], "accept"); state.current = Math.min(state.current + 1, items.length - 1); }
    else if (e.key === "r") { decide([c.id], "reject"); state.current = Math.min(state.current + 1, items.length - 1); }
    else if (e.key === "u") decide([c.id], null);
    else if (e.key === "A") decide(sameKind(), "accept");
    else if (e.key === "R") decide(sameKind(), "reject");
    else handled = false;
    if (handled) e.preventDefault();
  });
  $("accept-all").addEventListener("click", () => decide(reviewItems().map((x) => x.id), "accept"));
  $("reject-all").addEventListener("click", () => decide(reviewItems().map((x) => x.id), "reject"));
  $("clear-decisions").addEventListener("click", () => { state.decisions = Object.create(null); run(); });

  // ---- self-benchmark ----
  const SVG = "http://www.w3.org/2000/svg";
  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const k of Object.keys(attrs || {})) e.setAttribute(k, String(attrs[k]));
    if (text !== undefined) e.textContent = String(text);
    return e;
  }
  // Recall with review per category: rules alone (light) and the ensemble (dark) when it ran.
  function chart(rules, ensemble) {
    const rows = [["ALL", rules.with_review.overall, ensemble && ensemble.with_review.overall]];
    for (const c of Object.keys(rules.with_review.per_category)) {
      if (rules.with_review.per_category[c].gold) {
        rows.push([c, rules.with_review.per_category[c], ensemble && ensemble.with_review.per_category[c]]);
      }
    }
    const W = 640, rowH = 34, left = 100, barW = W - left - 110;
    const s = svg("svg", {width: W, height: rows.length * rowH + 30, role: "img",
                          "aria-label": "Recall with review by category, rules only and rules + model"});
    s.appendChild(svg("text", {x: left, y: 12, "font-size": 11, fill: "#5b6475"},
      "recall with review, 0 to 1: rules only (light)" + (ensemble ? " / rules + model (dark)" : "")));
    rows.forEach(([name, r, e], i) => {
      const y = 22 + i * rowH;
      s.appendChild(svg("text", {x: 0, y: y + 18, "font-size": 12, fill: "#1d2330"}, name));
      s.appendChild(svg("rect", {x: left, y, width: barW, height: 26, fill: "#eef0f4"}));
      s.appendChild(svg("rect", {x: left, y, width: (barW * r.recall).toFixed(1), height: 26, fill: "#9cc0f5"}));
      if (e) s.appendChild(svg("rect", {x: left, y: y + 6, width: (barW * e.recall).toFixed(1), height: 14, fill: "#1f5fbf"}));
      s.appendChild(svg("text", {x: left + barW + 6, y: y + 18, "font-size": 11, fill: "#1d2330"},
        String(r.recall) + (e ? " / " + e.recall : "")));
    });
    return s;
  }
  function renderBenchmark(result) {
    const rules = result.rules, ens = result.ensemble;
    const tbody = $("bench-table").querySelector("tbody");
    clear(tbody);
    const row = (name, gold, rc, rr, ec, er) => {
      const tr = el("tr", {"data-category": name});
      tr.appendChild(el("th", {scope: "row"}, name));
      const vals = [gold, rc.recall, rc.precision, rr.recall, rr.precision];
      vals.push(...(ec ? [ec.recall, ec.precision, er.recall, er.precision] : ["\u2013", "\u2013", "\u2013", "\u2013"]));
      for (const v of vals) tr.appendChild(el("td", {"class": "num"}, String(v)));
      tbody.appendChild(tr);
    };
    row("ALL", rules.phi_characters, rules.certain.overall, rules.with_review.overall,
        ens && ens.certain.overall, ens && ens.with_review.overall);
    for (const c of Object.keys(rules.with_review.per_category)) {
      row(c, rules.with_review.per_category[c].gold, rules.certain.per_category[c], rules.with_review.per_category[c],
          ens && ens.certain.per_category[c], ens && ens.with_review.per_category[c]);
    }
    $("bench-table").hidden = false;
    let text = rules.documents + " notes, " + rules.characters + " characters, " +
      rules.phi_characters + " PHI characters (non-whitespace). Rules only: engine time " + rules.seconds +
      " s, whole run " + rules.wall_seconds + " s; strict span recall (with review) " +
      rules.with_review.strict_span.recall + "; token recall " + rules.with_review.token.recall +
      ", precision " + rules.with_review.token.precision + ".";
    if (ens) {
      text += " Rules + model (" + ens.backend + "): model run " + ens.model_seconds + " s over the corpus, " +
        "scoring " + ens.wall_seconds + " s; strict span recall (with review) " + ens.with_review.strict_span.recall +
        "; token recall " + ens.with_review.token.recall + ", precision " + ens.with_review.token.precision + ".";
    } else {
      text += " Rules + model: " + (state.model === "loading" ? "waiting for the model" :
        $("rules-only").checked || state.model === "unavailable" ? "not run (rules only)" : "running\u2026");
    }
    $("bench-summary").textContent = text;
    const box = $("bench-chart"); clear(box); box.appendChild(chart(rules, ens));
  }
  $("bench-run").addEventListener("click", async () => {
    $("bench-run").disabled = true;
    $("bench-status").textContent = "running the rules\u2026";
    try {
      const rulesOnly = await benchmark({rulesOnly: true});
      state.benchmark = rulesOnly;
      renderBenchmark(rulesOnly);
      renderCorpusNote();
      if (!$("rules-only").checked && state.model !== "unavailable") {
        $("bench-status").textContent = "running the model on every note\u2026";
        benchProgress = (done, total) => {
          $("bench-status").textContent = "running the model: note " + done + " of " + total + "\u2026";
        };
        const both = await benchmark({rulesOnly: false});
        state.benchmark = both;
        renderBenchmark(both);
        renderCorpusNote();
      }
      $("bench-status").textContent = "done";
    } catch (err) { $("bench-status").textContent = "error: " + err.message; }
    benchProgress = null;
    $("bench-run").disabled = false;
  });

  // ---- corpus viewer ----
  function renderCorpusNote() {
    const box = $("corpus-text");
    clear(box);
    if (!state.corpus) return;
    const note = state.corpus.notes[Number($("corpus-note").value) || 0];
    if (!note) return;
    const text = note.text;
    const kind = new Array(text.length + 1).fill("");
    for (const s of note.spans) for (let i = s.start; i < s.end; i++) kind[i] = "hit";
    const report = state.benchmark && (state.benchmark.ensemble || state.benchmark.rules);
    const details = report && report.notes ? report.notes.find((n) => n.id === note.id) : null;
    if (details) {
      for (const [a, b] of details.misses) for (let i = a; i < b; i++) kind[i] = "miss";
      for (const [a, b] of details.false_alarms) for (let i = a; i < b; i++) kind[i] = "false";
      $("corpus-status").textContent = details.misses.length + " missed, " + details.false_alarms.length + " false alarms";
    } else {
      $("corpus-status").textContent = "gold spans shown; run the self-benchmark to mark misses and false alarms";
    }
    let i = 0;
    while (i < text.length) {
      let j = i + 1;
      while (j < text.length && kind[j] === kind[i]) j++;
      if (kind[i]) { const m = el("mark", null, text.slice(i, j)); m.className = kind[i]; box.appendChild(m); }
      else box.appendChild(document.createTextNode(text.slice(i, j)));
      i = j;
    }
  }
  $("corpus-note").addEventListener("change", renderCorpusNote);

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
