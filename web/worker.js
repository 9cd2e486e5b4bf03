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
// Messages in:  {type: "init", blobs: {name: base64-of-gzip}, info: lockfile info,
//                model: null | {info: build manifest's model entry, blobs: {"ort.wasm", "ner.onnx"}}}
//               {type: "call", id, request: JSON string}    (request for deid_page.handle; see
//                 `call` below for what this worker adds: `rulesOnly` on process and benchmark)
// Messages out: {type: "progress", stage, fraction}, {type: "ready", seconds, versions},
//               {type: "model", state: "loading" | "ready" | "unavailable", backend, seconds, error},
//               {type: "bench-progress", done, total},
//               {type: "error", message}, {type: "reply", id, ok, response | message, engine}
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

async function gunzip(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const T0 = performance.now();
const timings = {};   // stage -> seconds since the worker started, reported with "ready"
function progress(stage, fraction) {
  timings[stage] = Math.round(performance.now() - T0) / 1000;
  self.postMessage({type: "progress", stage, fraction});
}

let handle = null;   // deid_page.handle, a Python function str -> str

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

function runSession(prepared) {
  const [b, t] = prepared.dims;
  const feeds = {};
  for (const name of model.inputs) {
    const values = prepared[name];
    if (!values) throw new Error("the prepared input has no " + name);
    const data = new BigInt64Array(values.length);
    for (let i = 0; i < values.length; i++) data[i] = BigInt(values[i]);
    feeds[name] = new ort.Tensor("int64", data, [b, t]);
  }
  const run = modelQueue.then(() => model.session.run(feeds));
  modelQueue = run.catch(() => {});
  return run.then((out) => {
    const logits = out[model.output];
    const result = {logits: Array.from(logits.data), dims: logits.dims.slice()};
    for (const name of Object.keys(out)) if (out[name].dispose) out[name].dispose();
    return result;
  });
}

// The model's spans for `text` (list of span dicts): Python prepares, the session runs, Python
// decodes. A note without tokens never reaches the session.
async function modelSpans(text) {
  const prepared = py({op: "ner_prepare", text});
  if (!prepared.dims[0]) return [];
  const {logits, dims} = await runSession(prepared);
  return py({op: "ner_finish", text, logits, dims});
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
async function answer(req) {
  if (req.op === "ner_logits") {   // the raw model output for one note (checks and diagnostics)
    await model.promise;
    if (model.state !== "ready") throw new Error("the NER model is " + model.state + (model.error ? ": " + model.error : ""));
    const prepared = py({op: "ner_prepare", text: req.text});
    const result = prepared.dims[0] ? await runSession(prepared) : {logits: [], dims: [0, 0, 0]};
    return [JSON.stringify({ok: true, result}), "model"];
  }
  const wantModel = !req.rulesOnly && (req.op === "process" || req.op === "benchmark");
  delete req.rulesOnly;
  if (wantModel) await model.promise;
  const useModel = wantModel && model.state === "ready";
  if (req.op === "process" && useModel) {
    if (typeof req.text !== "string") throw new Error("text must be a string");
    req.model_spans = await modelSpans(req.text);
  } else if (req.op === "benchmark" && useModel) {
    const notes = py({op: "corpus"}).notes;
    const spans = {};
    const t = performance.now();
    for (let i = 0; i < notes.length; i++) {
      spans[String(notes[i].id)] = await modelSpans(notes[i].text);
      if (i % 5 === 4 || i === notes.length - 1) self.postMessage({type: "bench-progress", done: i + 1, total: notes.length});
    }
    req.model_spans = spans;
    const reply = JSON.parse(handle(JSON.stringify(req)));
    if (reply.ok && reply.result.ensemble) {
      reply.result.ensemble.model_seconds = Math.round(performance.now() - t) / 1000;
      reply.result.ensemble.backend = model.backend;
      reply.result.ensemble.model_spans = spans;   // what the scoring used, note id -> span dicts
    }
    return [JSON.stringify(reply), "ensemble"];
  }
  return [handle(JSON.stringify(req)), useModel ? "ensemble" : "rules"];
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
    Promise.resolve().then(() => {
      if (!handle) throw new Error("the engine is not ready");
      return answer(JSON.parse(msg.request));
    }).then(([response, engine]) => {
      self.postMessage({type: "reply", id: msg.id, ok: true, response, engine});
    }, (err) => {
      self.postMessage({type: "reply", id: msg.id, ok: false, message: String(err && err.message || err)});
    });
  }
};
