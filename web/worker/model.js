// The NER model in the worker: onnxruntime-web runs the session; Python prepares its input and
// turns its logits into spans (deid_core.ner.pipeline). The model's windows run in slices sized
// so that one session.run takes about SLICE_SECONDS, with progress and a cancel check between two
// slices: a Cancel is seen within about that, whatever the note's length.
import {engine, py, yieldToEvents} from "./engine.js";
import {unpack} from "../shared/bytes.js";

// model.state: "absent" (page built without it), "loading", "ready", "unavailable".
export const model = {state: "absent", backend: null, session: null, error: null, inputs: null,
  output: null, seconds: null, windowSeconds: null, promise: Promise.resolve()};
let queue = Promise.resolve();   // one session.run at a time
const SLICE_SECONDS = 0.25;

// One session run on rows first..stop-1 of the prepared batch: {data: Float32Array, dims}.
function runRows(prepared, first, stop) {
  const t = prepared.dims[1];
  const feeds = {};
  for (const name of model.inputs) {
    const values = prepared[name];
    if (!values) throw new Error("the prepared input has no " + name);
    const data = new BigInt64Array((stop - first) * t);
    for (let i = 0, j = first * t; i < data.length; i++, j++) data[i] = BigInt(values[j]);
    feeds[name] = new ort.Tensor("int64", data, [stop - first, t]);
  }
  const run = queue.then(() => model.session.run(feeds));
  queue = run.catch(() => {});
  return run.then((out) => {
    const logits = out[model.output];
    const result = {data: Float32Array.from(logits.data), dims: logits.dims.slice()};
    for (const name of Object.keys(out)) if (out[name].dispose) out[name].dispose();
    return result;
  });
}

// How many windows the next session.run takes: as many as fit SLICE_SECONDS (at least one), and
// never past the pipeline's chunk.
function sliceSize(left) {
  const per = model.windowSeconds;
  const n = per ? Math.floor(SLICE_SECONDS / per) : 1;
  return Math.max(1, Math.min(n, left));
}

// The model's logits for a prepared note in one Float32Array [B, T, L], following the pipeline's
// chunks (`chunks`) cut into slices. `job` (optional): progress ("model", windows done, windows
// in all, seconds so far) after every slice, and its cancel checked before each.
export async function runWindows(prepared, job) {
  const [b, t] = prepared.dims;
  const chunks = prepared.chunks || [[0, b]];
  let logits = null, labels = 0, done = 0;
  const t0 = performance.now();
  for (const [first, stop] of chunks) {
    for (let at = first; at < stop;) {
      if (job) job.check();
      const step = sliceSize(stop - at);
      const ts = performance.now();
      const {data, dims} = await runRows(prepared, at, at + step);
      const per = (performance.now() - ts) / 1000 / step;
      model.windowSeconds = model.windowSeconds ? 0.7 * model.windowSeconds + 0.3 * per : per;
      if (!logits) { labels = dims[2]; logits = new Float32Array(b * t * labels); }
      logits.set(data, at * t * labels);
      at += step;
      done += step;
      if (job) {
        job.progress("model", done, b, (performance.now() - t0) / 1000);
        await yieldToEvents();
      }
    }
  }
  return {logits, dims: [b, t, labels]};
}

// The model's spans for `text` (list of span dicts): Python prepares, the session runs, Python
// decodes. A note without tokens never reaches the session.
export async function modelSpans(text, job) {
  const prepared = py("ner_prepare", {text});
  if (!prepared.dims[0]) return [];
  const {logits, dims} = await runWindows(prepared, job);
  if (job) job.check();
  const reply = JSON.parse(engine.finishFlat(text, logits, JSON.stringify(dims)));
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

// Unpack onnxruntime-web's wasm and the ONNX file, create the session (WebGPU first where the
// build has it and an adapter exists, else WASM), warm it up; report through post("model", ...).
export async function loadModel(info, blobs, post, since) {
  const t0 = performance.now();
  try {
    if (typeof ort === "undefined") throw new Error("onnxruntime-web is not in this page");
    const [wasm, onnx] = await Promise.all([unpack(blobs["ort.wasm"]), unpack(blobs["ner.onnx"])]);
    ort.env.wasm.numThreads = 1;      // a file:// page cannot be cross-origin isolated
    ort.env.wasm.proxy = false;
    ort.env.wasm.wasmBinary = wasm;   // no fetch of the .wasm, no import of the .mjs glue
    ort.env.logLevel = "error";
    const notes = [];
    let session = null, backend = null;
    if (info.providers.includes("webgpu")) {
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
    const config = py("info", {}).model;
    if (!config) throw new Error("the page's Python side has no model files");
    model.session = session;
    model.inputs = config.inputs;
    model.output = config.output;
    // Warm-up: the first run allocates; it also gives the first measure of seconds per window.
    await modelSpans("Warm-up: seen by Dr. Helen Achterberg at Mercy Hospital in Springfield.");
    model.backend = backend;
    model.state = "ready";
    model.seconds = (performance.now() - t0) / 1000;
    post("model", {state: "ready", backend, seconds: model.seconds, since_start: (performance.now() - since) / 1000,
                   notes: notes.join("; "), name: config.name, threshold: config.threshold,
                   window_seconds: model.windowSeconds});
  } catch (err) {
    model.state = "unavailable";
    model.session = null;
    model.error = String(err && err.message || err);
    post("model", {state: "unavailable", error: model.error});
  }
}
