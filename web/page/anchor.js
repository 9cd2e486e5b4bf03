// Decisions keyed to the text, not to offsets. A decision is {start, end, text, label, value}:
// the candidate's characters and where they were. After every edit of the note each decision is
// moved with its text: before the edit it stays, after it moves by the edit's length change; one
// the edit touches survives only if the same text stands in the same context nearby (a paste over
// it of the same words), else it is dropped, and the page says so.

// The one changed region between two texts: old [at, oldEnd) became new [at, newEnd).
export function diff(a, b) {
  const n = Math.min(a.length, b.length);
  let p = 0;
  while (p < n && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  let s = 0;
  while (s < n - p && a.charCodeAt(a.length - 1 - s) === b.charCodeAt(b.length - 1 - s)) s++;
  return {at: p, oldEnd: a.length - s, newEnd: b.length - s};
}

const CONTEXT = 12;   // characters of context either side that identify a candidate's place

// Where decision `d` of `oldText` stands in `newText` near the edited region, or -1.
function refind(d, oldText, newText, edit) {
  const before = oldText.slice(Math.max(0, d.start - CONTEXT), d.start);
  const after = oldText.slice(d.end, d.end + CONTEXT);
  const from = Math.max(0, edit.at - d.text.length - CONTEXT);
  const to = Math.min(newText.length, edit.newEnd + d.text.length + CONTEXT);
  for (let i = newText.indexOf(d.text, from); i >= 0 && i + d.text.length <= to; i = newText.indexOf(d.text, i + 1)) {
    const j = i + d.text.length;
    const sameBefore = newText.slice(Math.max(0, i - before.length), i) === before;
    const sameAfter = newText.slice(j, j + after.length) === after;
    if (sameBefore && sameAfter) return i;
  }
  return -1;
}

// The decisions moved from `oldText` to `newText`: {kept, dropped, replaced} (replaced: the
// whole old note was replaced, a new note).
export function reanchor(decisions, oldText, newText) {
  const edit = diff(oldText, newText);
  const delta = newText.length - oldText.length;
  const kept = [], dropped = [];
  for (const d of decisions) {
    if (d.end <= edit.at) kept.push(d);
    else if (d.start >= edit.oldEnd) kept.push(Object.assign({}, d, {start: d.start + delta, end: d.end + delta}));
    else {
      const i = refind(d, oldText, newText, edit);
      if (i >= 0) kept.push(Object.assign({}, d, {start: i, end: i + d.text.length}));
      else dropped.push(d);
    }
  }
  const replaced = oldText.length > 0 && edit.at === 0 && edit.oldEnd === oldText.length;
  return {kept, dropped, replaced};
}

// The page's words for decisions an edit dropped.
export function droppedNotice(dropped) {
  if (!dropped.length) return "";
  const words = dropped.slice(0, 3).map((d) => "\u201c" + d.text + "\u201d").join(", ") +
    (dropped.length > 3 ? " and " + (dropped.length - 3) + " more" : "");
  return (dropped.length === 1 ? "Your decision on " + words + " was dropped: its text was deleted or changed."
    : dropped.length + " of your decisions were dropped, their text deleted or changed: " + words + ".") +
    " Decide again in Review if the word is still there.";
}
