// The controls above the panes: Run/Cancel, the progress of a long run with its estimate, the
// plain status line, and the surrogate warning banner.
import {$, count, duration} from "../dom.js";
import {undecidedIds} from "../state.js";

function engineWords(state) {
  if (state.resultEngine === "ensemble") return "";
  if (state.resultEngine === "rules-fallback") return " Rules only: the AI model failed on this note.";
  if (state.run.status === "cancelled") return " Rules only: the AI model was cancelled.";
  if (state.model.state === "loading") return " Rules only (the AI model is still loading; it runs when ready).";
  if ($("rules-only").checked || state.model.state === "unavailable") return " Rules only.";
  return "";
}

function progressWords(p) {
  if (!p || !p.total) return "";
  const left = p.done ? p.seconds / p.done * (p.total - p.done) : null;
  return "The AI model is reading the note: part " + p.done.toLocaleString("en-US") + " of " +
    p.total.toLocaleString("en-US") + (left !== null ? ", " + duration(left) + " left" : "") + ".";
}

export function statusLine(state) {
  const r = state.run;
  if (r.status === "working") {
    const head = r.partial ? "The rules are done (their result is shown)." : "Working\u2026";
    const tail = r.cancelRequested ? " Cancelling\u2026" : "";
    return (head + " " + progressWords(r.progress)).trim() + tail;
  }
  if (r.status === "error") return "Something went wrong: " + r.error;
  if (r.status === "cancelled" && !state.result) return "Cancelled.";
  if (!state.result) return "";
  const masked = state.result.spans.filter((s) => s.replaced).length;
  const undecided = undecidedIds().length;
  return (r.status === "cancelled" ? "Cancelled: " : "Done: ") + count(masked, "identifier", "identifiers") +
    " replaced" + (undecided ? ", " + count(undecided, "amber mark", "amber marks") + " to decide" : "") + "." +
    engineWords(state);
}

export function render(state) {
  const busy = state.run.status === "working";
  $("run-progress").hidden = !busy;
  const p = state.run.progress;
  if (p && p.total) { $("run-progress").max = p.total; $("run-progress").value = p.done; }
  else $("run-progress").removeAttribute("value");
  $("run-cancel").hidden = !busy;
  $("run-status").textContent = statusLine(state);
  $("surrogate-banner").hidden = !(state.mode === "surrogate" && state.bannerOn);
  $("safe-harbor").disabled = state.mode === "surrogate";   // Redact and Review only
  $("copy").disabled = busy && !state.run.partial || !state.result;
  $("download").disabled = busy && !state.run.partial || !state.result;
  const warn = state.run.status === "done" ? state.run.warning : null;
  $("run-warning").hidden = !warn;
  $("run-warning").textContent = warn || "";
}
