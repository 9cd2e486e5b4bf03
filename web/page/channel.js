// The page's channel to the engine's Web Worker: builds the worker from the embedded script,
// hands it the embedded files, and turns its messages (web/protocol.json) into state changes and
// call results. The model's two blocks come after this script in the document: they are read and
// sent once the document is parsed, while the worker already starts Python.
import {gunzip, payloadBytes} from "../shared/bytes.js";
import {toWorker, request, dispatcher} from "../shared/protocol.js";
import {state, update} from "./state.js";

let worker = null;
let nextId = 1;
const pending = new Map();   // call id -> {resolve, reject, onProgress, onPartial}
let readyResolve, readyReject, modelResolve;
// Resolves {seconds, versions, worker: timings, page} when the engine is ready.
export const ready = new Promise((res, rej) => { readyResolve = res; readyReject = rej; });
ready.catch(() => {});
// Resolves once the model's fate is known, never rejects:
// {backend: "wasm" | "webgpu" | "unavailable", seconds, error, name, threshold, notes}.
export const modelReady = new Promise((res) => { modelResolve = res; });
const t0 = performance.now();
const send = (type, fields) => worker.postMessage(toWorker(type, fields));
const modelListeners = [];
export function onModelSettled(fn) { modelListeners.push(fn); }

function blockText(id) { return document.getElementById(id).textContent; }

// A call to the worker: {promise, cancel()}. `fields` is a declared request (protocol.js
// request()). The promise resolves {result, engine, warning} or rejects with an Error whose
// `cancelled` is true after cancel(). onProgress(stage, done, total, seconds); onPartial(result,
// engine): the rules' result of a long note, before the model's.
export function startCall(req, onProgress, onPartial) {
  const job = {id: null, cancelled: false};
  job.promise = ready.then(() => new Promise((resolve, reject) => {
    if (job.cancelled) { const e = new Error("cancelled"); e.cancelled = true; reject(e); return; }
    job.id = nextId++;
    pending.set(job.id, {resolve, reject, onProgress, onPartial});
    send("call", {id: job.id, request: JSON.stringify(req)});
  }));
  job.cancel = () => {
    job.cancelled = true;
    if (job.id !== null && pending.has(job.id)) send("cancel", {id: job.id});
  };
  return job;
}

// The result of one declared request (rejects with its error).
export function call(op, fields) { return startCall(request(op, fields)).promise.then((r) => r.result); }

function fail(message) {
  update((s) => { s.boot.state = "error"; s.boot.error = message; });
  readyReject(new Error(message));
  settleModel({state: "unavailable", error: "the engine failed to start"});
}

function settleModel(msg) {
  if (msg.state === "loading") { update((s) => { s.model.state = "loading"; }); return; }
  if (state.model.state !== "loading") return;   // settled once
  const info = msg.state === "ready"
    ? {backend: msg.backend, seconds: msg.seconds, sinceStart: msg.since_start, name: msg.name,
       threshold: msg.threshold, notes: msg.notes || "", error: null, windowSeconds: msg.window_seconds}
    : {backend: "unavailable", seconds: null, name: null, threshold: null, notes: "", error: msg.error};
  update((s) => { s.model = Object.assign({state: info.backend}, info); });
  modelResolve(info);
  for (const fn of modelListeners) fn(info);
}

const handlers = {
  "progress"(msg) { update((s) => { s.boot.stage = msg.stage; s.boot.fraction = msg.fraction; }); },
  "ready"(msg) {
    const secs = (performance.now() - t0) / 1000;
    update((s) => { s.boot.state = "ready"; s.boot.seconds = secs; s.boot.versions = msg.versions; });
    readyResolve({seconds: secs, versions: msg.versions, worker: msg.timings,
                  page: {scriptStarted: t0 / 1000}});
  },
  "model"(msg) { settleModel(msg); },
  "job-progress"(msg) {
    const p = pending.get(msg.id);
    if (p && p.onProgress) p.onProgress(msg.stage, msg.done, msg.total, msg.seconds);
  },
  "partial"(msg) {
    const p = pending.get(msg.id);
    const reply = JSON.parse(msg.response);
    if (p && p.onPartial && reply.ok) p.onPartial(reply.result, msg.engine);
  },
  "error"(msg) { fail(msg.message); },
  "reply"(msg) {
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    if (!msg.ok) { const e = new Error(msg.message); e.cancelled = !!msg.cancelled; p.reject(e); return; }
    const reply = JSON.parse(msg.response);
    if (reply.ok) p.resolve({result: reply.result, engine: msg.engine, warning: msg.warning || null});
    else p.reject(new Error(reply.error));
  },
};

// Start the worker (the script of the embedded pieces), send it the engine's files now and the
// model's once the document is parsed.
export async function boot() {
  try {
    const manifest = JSON.parse(document.getElementById("deid-manifest").textContent);
    const pieces = await Promise.all(manifest.worker.map((id) => gunzip(payloadBytes(blockText(id)))));
    const url = URL.createObjectURL(new Blob(pieces.flatMap((p) => [p, "\n;\n"]), {type: "text/javascript"}));
    worker = new Worker(url);
    worker.onerror = (e) => fail(e.message || "worker error");
    const dispatch = dispatcher("worker_to_page", handlers);
    worker.onmessage = (event) => dispatch(event.data);
    ready.then(() => URL.revokeObjectURL(url), () => {});
    const blobs = {};
    for (const [name, id] of Object.entries(manifest.blobs)) blobs[name] = blockText(id);
    send("init", {blobs, archives: manifest.archives.map(blockText), lock_info: manifest.lock_info,
                  model_info: manifest.model});
    if (!manifest.model) {
      settleModel({state: "unavailable", error: "this page was built without the NER model"});
      return manifest;
    }
    const sendModel = () => {
      const model = {};
      for (const [name, id] of Object.entries(manifest.model_blobs)) model[name] = blockText(id);
      send("model", {blobs: model});
    };
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", sendModel, {once: true});
    else sendModel();
    return manifest;
  } catch (err) {
    fail(String(err && err.message || err));
    return null;
  }
}
