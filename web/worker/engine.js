// The worker's handle on the Python engine (web/deid_page.py in Pyodide): set once Python runs.
import {request} from "../shared/protocol.js";

export const engine = {
  handle: null,       // deid_page.handle: request JSON -> reply JSON (never throws)
  finishFlat: null,   // (text, Float32Array logits, dims JSON) -> spans JSON (pipeline.finish_json)
};

// The raw reply JSON of one declared request to Python.
export function handleJson(op, fields) {
  return engine.handle(JSON.stringify(request(op, fields)));
}

// Python's result for one request; throws its error.
export function py(op, fields) {
  const reply = JSON.parse(handleJson(op, fields));
  if (!reply.ok) throw new Error(reply.error);
  return reply.result;
}

// A job: one "call" in flight; `cancelled` is set by a "cancel" message and check() throws then.
export class Cancelled extends Error {}
export function newJob(id, post) {
  return {id, cancelled: false, windowsAfterCancel: 0,
    check() { if (this.cancelled) throw new Cancelled("cancelled"); },
    progress(stage, done, total, seconds) { post("job-progress", {id, stage, done, total, seconds}); }};
}

// Let the worker's event loop run (cancel messages, other calls): a resolved await does not.
export function yieldToEvents() { return new Promise((resolve) => setTimeout(resolve, 0)); }
