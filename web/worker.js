// deid page worker: runs Pyodide and the deid_core engine off the main thread.
//
// The build prepends pyodide.js (defines loadPyodide) and pyodide.asm.mjs turned into a classic
// script by esbuild (defines PYODIDE_ASM, whose .default is createPyodideModule), so this worker
// imports nothing and fetches nothing from the network: the fetch below answers Pyodide's requests
// for its own files from bytes the page handed over, and refuses everything else.
//
// With the NER model, the build also prepends onnxruntime-web as a classic script (global `ort`)
// and hands over its wasm binary and the ONNX file. The model is unpacked and its session created
// only AFTER the rules are ready, so the page is usable at once; Python prepares the model's
// input and turns its logits into spans (deid_core.ner.pipeline), this worker only runs the session.
//
// The model runs in the pipeline's chunks (``chunks`` of ner_prepare: at most max_batch windows,
// 64 by default, per session.run), so a long note never asks onnxruntime for one huge batch; the
// worker yields to its event loop between chunks, so a Cancel (or a De-identify during the
// self-benchmark) is seen between two chunks. When the model fails on a note, "process" falls
// back to the rules for that note and says so (engine "rules-fallback", `warning`).
//
// Messages in:  {type: "init", blobs: {name: base64-of-gzip}, info: lockfile info,
//                model: null | {info: build manifest's model entry, blobs: {"ort.wasm", "ner.onnx"}}}
//               {type: "call", id, request: JSON string}    (request for deid_page.handle; see
//                 `answer` below for what this worker adds: `rulesOnly` on process and benchmark,
//                 `simulateModelFailure` on process, for tests)
//               {type: "cancel", id}   (stop call `id` at its next chunk or note: it replies
//                 ok: false, cancelled: true)
// Messages out: {type: "progress", stage, fraction}, {type: "ready", seconds, versions},
//               {type: "model", state: "loading" | "ready" | "unavailable", backend, seconds, error},
//               {type: "job-progress", id, stage: "model" | "benchmark", done, total},
//               {type: "error", message},
//               {type: "reply", id, ok, response | message, engine, warning, cancelled}
"use strict";

const EMBEDDED = Object.create(null);   // file name -> {bytes, type}
const FILE_TYPES = {"pyodide.asm.wasm": "application/wasm", "python_stdlib.zip": "application/zip"};

self.fetch = async function embeddedFetch(input) {
  const url = String(typeof input === "string" ? input : (input && input.url) || input);
  const name = url.split(/[?#]/)[0].split("/").pop();
  const file = EMBEDDED[name];
  if (!file) throw new TypeError("deid: no network access (refused " + url + ")");
  return new Response(file.bytes, {status: 200, headers: {"Content-Type": file.type}});
};

function base64Bytes(text) {
  if (typeof Uint8Array.fromBase64 === "function") return Uint8Array.fromBase64(text);
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

// gunzip with the browser's DecompressionStream, fed and read by hand: no Blob and no Response
// (WebKitGTK refuses to read a Blob's stream in a page from file://: "NotReadableError").
async function gunzip(bytes) {
  const ds = new DecompressionStream("gzip");
  const writer = ds.writable.getWriter();
  const written = writer.write(bytes).then(() => writer.close());
  written.catch(() => {});   // its error, if any, is the reader's too
  const reader = ds.readable.getReader();
  const parts = [];
  let size = 0;
  for (;;) {
    const {done, value} = await reader.read();
    if (done) break;
    parts.push(value);
    size += value.length;
  }
  await written;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

const T0 = performance.now();
const timings = {};   // stage -> seconds since the worker started, reported with "ready"
function progress(stage, fraction) {
  timings[stage] = Math.round(performance.now() - T0) / 1000;
  self.postMessage({type: "progress", stage, fraction});
}

let handle = null;   // deid_page.handle, a Python function str -> str
let finishFlat = null;   // (text, Float32Array logits, dims JSON) -> spans JSON (pipeline.finish_json)

// A job: one "call" in flight. `cancelled` is set by a "cancel" message; `check()` throws then.
const jobs = new Map();   // id -> job
class Cancelled extends Error {}
function newJob(id) {
  const job = {id, cancelled: false,
    check() { if (this.cancelled) throw new Cancelled("cancelled"); },
    progress(stage, done, total) { self.postMessage({type: "job-progress", id, stage, done, total}); }};
  jobs.set(id, job);
  return job;
}
// Let the worker's event loop run (cancel messages, other calls): a resolved await does not.
function yieldToEvents() { return new Promise((resolve) => setTimeout(resolve, 0)); }

// Python's reply to one request object, parsed; throws its error.
function py(request) {
  const reply = JSON.parse(handle(JSON.stringify(request)));
  if (!reply.ok) throw new Error(reply.error);
  return reply.result;
}

// ---- the NER model (onnxruntime-web) ----
// model.state: "absent" (page built without it), "loading", "ready", "unavailable".
const model = {state: "absent", backend: null, session: null, error: null, inputs: null,
               output: null, seconds: null, promise: Promise.resolve()};
let modelQueue = Promise.resolve();   // one session.run at a time

// One session run on rows first..stop-1 of the prepared batch: {data: Float32Array, dims}.
function runSession(prepared, first, stop) {
  const t = prepared.dims[1];
  const feeds = {};
  for (const name of model.inputs) {
    const values = prepared[name];
    if (!values) throw new Error("the prepared input has no " + name);
    const data = new BigInt64Array((stop - first) * t);
    for (let i = 0, j = first * t; i < data.length; i++, j++) data[i] = BigInt(values[j]);
    feeds[name] = new ort.Tensor("int64", data, [stop - first, t]);
  }
  const run = modelQueue.then(() => model.session.run(feeds));
  modelQueue = run.catch(() => {});
  return run.then((out) => {
    const logits = out[model.output];
    const result = {data: Float32Array.from(logits.data), dims: logits.dims.slice()};
    for (const name of Object.keys(out)) if (out[name].dispose) out[name].dispose();
    return result;
  });
}

// The model's logits for a prepared note, chunk by chunk as the pipeline says (`chunks`), in one
// Float32Array [B, T, L]. Reports progress and honours a cancel between chunks (`job` optional).
async function runChunks(prepared, job) {
  const [b, t] = prepared.dims;
  const chunks = prepared.chunks || [[0, b]];
  let logits = null, labels = 0;
  for (let k = 0; k < chunks.length; k++) {
    if (job) job.check();
    const [first, stop] = chunks[k];
    const {data, dims} = await runSession(prepared, first, stop);
    if (!logits) { labels = dims[2]; logits = new Float32Array(b * t * labels); }
    logits.set(data, first * t * labels);
    if (job && chunks.length > 1) job.progress("model", k + 1, chunks.length);
    if (chunks.length > 1) await yieldToEvents();
  }
  return {logits, dims: [b, t, labels]};
}

// The model's spans for `text` (list of span dicts): Python prepares, the session runs, Python
// decodes. A note without tokens never reaches the session.
async function modelSpans(text, job) {
  const prepared = py({op: "ner_prepare", text});
  if (!prepared.dims[0]) return [];
  const {logits, dims} = await runChunks(prepared, job);
  if (job) job.check();
  const reply = JSON.parse(finishFlat(text, logits, JSON.stringify(dims)));
  if (!Array.isArray(reply)) throw new Error(reply.error);
  return reply;
}

async function webgpuAdapter() {
  try {
    if (!self.navigator || !self.navigator.gpu) return null;
    return await self.navigator.gpu.requestAdapter();
  } catch (_) {
    return null;
  }
}

async function loadModel(m) {
  const t0 = performance.now();
  model.state = "loading";
  self.postMessage({type: "model", state: "loading"});
  try {
    if (typeof ort === "undefined") throw new Error("onnxruntime-web is not in this page");
    const [wasm, onnx] = await Promise.all([gunzip(base64Bytes(m.blobs["ort.wasm"])),
                                            gunzip(base64Bytes(m.blobs["ner.onnx"]))]);
    ort.env.wasm.numThreads = 1;      // a file:// page cannot be cross-origin isolated
    ort.env.wasm.proxy = false;
    ort.env.wasm.wasmBinary = wasm;   // no fetch of the .wasm, no import of the .mjs glue
    ort.env.logLevel = "error";
    const notes = [];
    let session = null, backend = null;
    if (m.info.providers.includes("webgpu")) {
      const adapter = await webgpuAdapter();
      if (adapter) {
        try {
          session = await ort.InferenceSession.create(onnx, {executionProviders: ["webgpu"], logSeverityLevel: 3});
          backend = "webgpu";
        } catch (err) {
          notes.push("webgpu failed: " + String(err && err.message || err));
        }
      } else {
        notes.push("no WebGPU adapter");
      }
    }
    if (!session) {
      session = await ort.InferenceSession.create(onnx, {executionProviders: ["wasm"], logSeverityLevel: 3});
      backend = "wasm";
    }
    const info = py({op: "info"}).model;
    if (!info) throw new Error("the page's Python side has no model files");
    model.session = session;
    model.inputs = info.inputs;
    model.output = info.output;
    // Warm-up: the first run allocates; do it before saying the model is ready.
    await modelSpans("Warm-up: seen by Dr. Helen Achterberg at Mercy Hospital in Springfield.");
    model.backend = backend;
    model.state = "ready";
    model.seconds = (performance.now() - t0) / 1000;
    self.postMessage({type: "model", state: "ready", backend, seconds: model.seconds,
                      sinceStart: (performance.now() - T0) / 1000, notes: notes.join("; "),
                      name: info.name, threshold: info.threshold});
  } catch (err) {
    model.state = "unavailable";
    model.session = null;
    model.error = String(err && err.message || err);
    self.postMessage({type: "model", state: "unavailable", error: model.error});
  }
}

// Answer one request (a parsed object). Adds to deid_page.handle: `rulesOnly` (default false) on
// "process" and "benchmark"; without it, while the model loads, the request waits for it, and
// when the model is ready its spans join the rules' (the ensemble). Returns [response JSON, engine].
// Returns [response JSON, engine, warning]: engine "rules", "ensemble", "model" (ner_logits) or
// "rules-fallback" (the model failed on this note: the rules alone answered, `warning` says why).
// Keys whose PBKDF2 secret this worker already handed to Python (memory only, never stored).
const stretchedKeys = new Set();

// Derive a user key's 32-byte secret with WebCrypto (native PBKDF2, well under a second) and
// hand it to the engine (deid_page "stretch"), so Pyodide does not run its Python PBKDF2.
// Without WebCrypto the engine derives it itself (slower, same bytes).
async function stretchKey(key) {
  if (!key || stretchedKeys.has(key) || !(self.crypto && crypto.subtle)) return;
  const p = py({op: "key_params"});
  const hex = s => new Uint8Array(s.match(/../g).map(h => parseInt(h, 16)));
  const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(key), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    {name: "PBKDF2", hash: "SHA-256", salt: hex(p.salt), iterations: p.iterations}, material, p.bits);
  const secret = Array.from(new Uint8Array(bits), b => b.toString(16).padStart(2, "0")).join("");
  py({op: "stretch", key, secret});
  stretchedKeys.add(key);
}

async function answer(req, job) {
  if (req.op === "process" && req.mode === "surrogate" && typeof req.key === "string" && req.key) {
    try { await stretchKey(req.key); } catch (err) { /* the engine derives it itself */ }
  }
  if (req.op === "ner_logits") {   // the raw model output for one note (checks and diagnostics)
    await model.promise;
    if (model.state !== "ready") throw new Error("the NER model is " + model.state + (model.error ? ": " + model.error : ""));
    const prepared = py({op: "ner_prepare", text: req.text});
    let result = {logits: [], dims: [0, 0, 0]};
    if (prepared.dims[0]) {
      const {logits, dims} = await runChunks(prepared, job);
      result = {logits: Array.from(logits), dims};
    }
    return [JSON.stringify({ok: true, result}), "model", null];
  }
  const wantModel = !req.rulesOnly && (req.op === "process" || req.op === "benchmark");
  const simulateFailure = !!req.simulateModelFailure;
  delete req.rulesOnly;
  delete req.simulateModelFailure;
  if (wantModel) await model.promise;
  job.check();
  const useModel = wantModel && model.state === "ready";
  if (req.op === "process" && useModel) {
    if (typeof req.text !== "string") throw new Error("text must be a string");
    try {
      if (simulateFailure) throw new Error("simulated model failure (test)");
      req.model_spans = await modelSpans(req.text, job);
    } catch (err) {
      if (err instanceof Cancelled) throw err;
      const why = String(err && err.message || err);
      return [handle(JSON.stringify(req)), "rules-fallback",
              "The model failed on this note (" + why.slice(0, 200) + "): the rules alone de-identified it."];
    }
  } else if (req.op === "benchmark" && useModel) {
    const notes = py({op: "corpus"}).notes;
    const spans = {};
    const t = performance.now();
    for (let i = 0; i < notes.length; i++) {
      job.check();
      spans[String(notes[i].id)] = await modelSpans(notes[i].text, null);
      job.progress("benchmark", i + 1, notes.length);
      await yieldToEvents();
    }
    job.check();
    req.model_spans = spans;
    const reply = JSON.parse(handle(JSON.stringify(req)));
    if (reply.ok && reply.result.ensemble) {
      reply.result.ensemble.model_seconds = Math.round(performance.now() - t) / 1000;
      reply.result.ensemble.backend = model.backend;
      reply.result.ensemble.model_spans = spans;   // what the scoring used, note id -> span dicts
    }
    return [JSON.stringify(reply), "ensemble", null];
  }
  return [handle(JSON.stringify(req)), useModel ? "ensemble" : "rules", null];
}

async function init(msg) {
  const t0 = performance.now();
  progress("Unpacking the runtime", 0.05);
  const names = Object.keys(msg.blobs);
  const files = {};
  await Promise.all(names.map(async (name) => {
    files[name] = await gunzip(base64Bytes(msg.blobs[name]));
  }));
  for (const name of Object.keys(FILE_TYPES)) EMBEDDED[name] = {bytes: files[name], type: FILE_TYPES[name]};
  progress("Starting Python", 0.25);
  for (const fn of ["instantiate", "instantiateStreaming"]) {   // time the wasm compile for the report
    const orig = WebAssembly[fn];
    WebAssembly[fn] = async function (...args) {
      const t = performance.now();
      const r = await orig.apply(WebAssembly, args);
      timings["wasm " + fn] = Math.round(performance.now() - t) / 1000;
      return r;
    };
  }
  const pyodide = await loadPyodide({
    indexURL: "https://embedded.invalid/pyodide/",
    lockFileContents: {info: msg.info, packages: {}},
    packageBaseUrl: "https://embedded.invalid/pyodide/",
    createPyodideModule: PYODIDE_ASM.default,
    stdout: () => {}, stderr: (line) => console.warn(line),
  });
  progress("Loading the engine", 0.85);
  pyodide.unpackArchive(files["app.zip"], "zip", {extractDir: "/home/pyodide/deid"});
  pyodide.runPython(
    "import sys\nsys.path.insert(0, '/home/pyodide/deid')\nimport deid_page\ndeid_page.start('/home/pyodide/deid')\n");
  handle = pyodide.globals.get("deid_page").handle;
  finishFlat = pyodide.runPython(
    "def _deid_finish_flat(text, logits, dims):\n" +
    "    from deid_core.ner.pipeline import finish_json\n" +
    "    return finish_json(text, logits.to_memoryview(), dims)\n" +
    "_deid_finish_flat\n");
  const info = JSON.parse(handle(JSON.stringify({op: "info"})));
  if (!info.ok) throw new Error(info.error);
  const versions = info.result;
  progress("Ready", 1);
  self.postMessage({type: "ready", seconds: (performance.now() - t0) / 1000, versions, timings});
  if (msg.model) {
    model.state = "loading";
    model.promise = loadModel(msg.model);
  }
}

self.onmessage = (event) => {
  const msg = event.data;
  if (msg.type === "init") {
    init(msg).catch((err) => self.postMessage({type: "error", message: String(err && err.message || err)}));
  } else if (msg.type === "call") {
    const job = newJob(msg.id);
    Promise.resolve().then(() => {
      if (!handle) throw new Error("the engine is not ready");
      return answer(JSON.parse(msg.request), job);
    }).then(([response, engine, warning]) => {
      jobs.delete(msg.id);
      self.postMessage({type: "reply", id: msg.id, ok: true, response, engine, warning});
    }, (err) => {
      jobs.delete(msg.id);
      self.postMessage({type: "reply", id: msg.id, ok: false, message: String(err && err.message || err),
                        cancelled: err instanceof Cancelled});
    });
  } else if (msg.type === "cancel") {
    const job = jobs.get(msg.id);
    if (job) job.cancelled = true;
  }
};
