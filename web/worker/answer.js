// One request, answered: what the worker adds to deid_page.handle. The worker's options (see
// web/protocol.json worker_options): `rulesOnly` on process and benchmark (default false: while
// the model loads the request waits for it, and once it is ready its spans join the rules', the
// ensemble); `simulateModelFailure` on process (tests).
//
// A note of LONG_NOTE characters or more with the model: the rules' result is posted first as a
// "partial" (the page shows it at once, marked rules only), then the model runs in slices with
// progress. A cancel during the model keeps that result: when no partial was posted yet, the
// rules' result is computed and posted before the cancelled reply.
import {engine, handleJson, py, Cancelled, yieldToEvents} from "./engine.js";
import {model, modelSpans, runWindows} from "./model.js";

export const LONG_NOTE = 20000;

// Keys whose PBKDF2 secret this worker already handed to Python (memory only, never stored).
const stretchedKeys = new Set();

// Derive a user key's 32-byte secret with WebCrypto (native PBKDF2, well under a second) and
// hand it to the engine (deid_page "stretch"), so Pyodide does not run its Python PBKDF2.
// Without WebCrypto the engine derives it itself (slower, same bytes).
async function stretchKey(key) {
  if (!key || stretchedKeys.has(key) || !(self.crypto && crypto.subtle)) return;
  const p = py("key_params", {});
  const hex = (s) => new Uint8Array(s.match(/../g).map((h) => parseInt(h, 16)));
  const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(key), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    {name: "PBKDF2", hash: "SHA-256", salt: hex(p.salt), iterations: p.iterations}, material, p.bits);
  const secret = Array.from(new Uint8Array(bits), (b) => b.toString(16).padStart(2, "0")).join("");
  py("stretch", {key, secret});
  stretchedKeys.add(key);
}

function fieldsOf(req) {
  const fields = Object.assign({}, req);
  delete fields.op;
  return fields;
}

async function processWithModel(fields, job, post, simulateFailure) {
  if (typeof fields.text !== "string") throw new Error("text must be a string");
  let partial = false;
  const postRules = () => {
    post("partial", {id: job.id, response: handleJson("process", fields), engine: "rules"});
    partial = true;
  };
  try {
    if (fields.text.length >= LONG_NOTE) {
      postRules();
      await yieldToEvents();
    }
    job.check();
    if (simulateFailure) throw new Error("simulated model failure (test)");
    const spans = await modelSpans(fields.text, job);
    job.check();
    return [handleJson("process", Object.assign({}, fields, {model_spans: spans})), "ensemble", null];
  } catch (err) {
    if (err instanceof Cancelled) {
      if (!partial) postRules();
      throw err;
    }
    const why = String(err && err.message || err);
    return [handleJson("process", fields), "rules-fallback",
            "The model failed on this note (" + why.slice(0, 200) + "): the rules alone de-identified it."];
  }
}

async function benchmarkWithModel(fields, job) {
  const notes = py("corpus", {}).notes;
  const spans = {};
  const t = performance.now();
  for (let i = 0; i < notes.length; i++) {
    job.check();
    spans[String(notes[i].id)] = await modelSpans(notes[i].text, null);
    job.progress("benchmark", i + 1, notes.length, (performance.now() - t) / 1000);
    await yieldToEvents();
  }
  job.check();
  const reply = JSON.parse(handleJson("benchmark", Object.assign({}, fields, {model_spans: spans})));
  if (reply.ok && reply.result.ensemble) {
    reply.result.ensemble.model_seconds = Math.round(performance.now() - t) / 1000;
    reply.result.ensemble.backend = model.backend;
    reply.result.ensemble.model_spans = spans;   // what the scoring used, note id -> span dicts
  }
  return [JSON.stringify(reply), "ensemble", null];
}

// [response JSON, engine, warning]: engine "rules", "ensemble", "model" (ner_logits) or
// "rules-fallback" (the model failed on this note: the rules alone answered, `warning` says why).
export async function answer(req, job, post) {
  const rulesOnly = !!req.rulesOnly, simulateFailure = !!req.simulateModelFailure;
  delete req.rulesOnly;
  delete req.simulateModelFailure;
  const fields = fieldsOf(req);
  if (req.op === "process" && req.mode === "surrogate" && typeof req.key === "string" && req.key) {
    try { await stretchKey(req.key); } catch (err) { /* the engine derives it itself */ }
  }
  if (req.op === "ner_logits") {   // the raw model output for one note (checks and diagnostics)
    await model.promise;
    if (model.state !== "ready") throw new Error("the NER model is " + model.state + (model.error ? ": " + model.error : ""));
    const prepared = py("ner_prepare", {text: req.text});
    let result = {logits: [], dims: [0, 0, 0]};
    if (prepared.dims[0]) {
      const {logits, dims} = await runWindows(prepared, job);
      result = {logits: Array.from(logits), dims};
    }
    return [JSON.stringify({ok: true, result}), "model", null];
  }
  const wantModel = !rulesOnly && (req.op === "process" || req.op === "benchmark");
  if (wantModel) await model.promise;
  job.check();
  const useModel = wantModel && model.state === "ready";
  if (req.op === "process" && useModel) return processWithModel(fields, job, post, simulateFailure);
  if (req.op === "benchmark" && useModel) return benchmarkWithModel(fields, job);
  return [handleJson(req.op, fields), useModel ? "ensemble" : "rules", null];
}
