// The two questions the page asks: the export guard (undecided amber candidates before Copy or
// Download, in every mode) and the confirmation before the surrogate warning is turned off.
import {$, count} from "../dom.js";

function show(dialog, open) {
  if (open && !dialog.open) dialog.showModal();
  else if (!open && dialog.open) dialog.close();
}

export function render(state) {
  const d = state.dialog;
  const guard = !!d && d.kind === "guard";
  if (guard) {
    $("guard-text").textContent = count(d.undecided, "amber mark is", "amber marks are") +
      " undecided. Amber marks are words the rules are not sure of; undecided, they stay as text in what you " +
      (d.action === "copy" ? "copy" : "download") + ".";
    $("guard-mask").textContent = "Mask " + (d.undecided === 1 ? "it" : "them all") + " and " + (d.action === "copy" ? "copy" : "download");
    $("guard-keep").textContent = "Keep " + (d.undecided === 1 ? "it" : "them") + " as text and " + (d.action === "copy" ? "copy" : "download");
    $("guard-dialog").setAttribute("data-action", d.action);
  }
  show($("guard-dialog"), guard);
  show($("banner-dialog"), !!d && d.kind === "banner");
}
