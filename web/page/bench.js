// The self-benchmark run: the rules on the embedded corpus, then (unless rules only) the model
// on every corpus note, each shown as soon as it is done; Cancel stops before the next note.
import {$} from "./dom.js";
import {state, update} from "./state.js";
import {startCall} from "./channel.js";
import {request} from "../shared/protocol.js";

let benchJob = null;

export async function runBenchmark() {
  update((s) => {
    s.bench.state = "working"; s.bench.progress = null;
    s.bench.status = "running the rules\u2026 (a few seconds; De-identify waits for this step)";
  });
  let outcome = "done", status = "done";
  try {
    const rulesJob = startCall(request("benchmark", {rulesOnly: true}));
    benchJob = rulesJob;
    const rulesOnly = (await rulesJob.promise).result;
    update((s) => { s.bench.result = rulesOnly; });
    // The rules' step cannot stop half-way; a Cancel during it stops before the model's.
    if (rulesJob.cancelled) { const e = new Error("cancelled"); e.cancelled = true; throw e; }
    if (!$("rules-only").checked && state.model.state !== "unavailable") {
      update((s) => { s.bench.status = "running the model on every note\u2026 (De-identify still works meanwhile)"; });
      const job = startCall(request("benchmark", {rulesOnly: false}), (stage, done, total) => {
        update((s) => {
          s.bench.progress = {done, total};
          s.bench.status = "running the model: note " + done + " of " + total + "\u2026 (De-identify still works meanwhile)";
        });
      });
      benchJob = job;
      const both = (await job.promise).result;
      update((s) => { s.bench.result = both; });
    }
  } catch (err) {
    outcome = err.cancelled ? "cancelled" : "error";
    status = err.cancelled ? "cancelled" : "error: " + err.message;
  }
  benchJob = null;
  update((s) => { s.bench.state = outcome; s.bench.status = status; s.bench.progress = null; });
}

export function cancelBenchmark() { if (benchJob) benchJob.cancel(); }
