// DOM helpers. Note text only ever reaches the DOM through textContent / text nodes, never as HTML.
export const $ = (id) => document.getElementById(id);

export function el(tag, attrs, text) {
  const e = document.createElement(tag);
  if (attrs) for (const k of Object.keys(attrs)) e.setAttribute(k, attrs[k]);
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

export function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

// "1 amber mark" / "2 amber marks"
export function count(n, one, many) { return n + " " + (n === 1 ? one : many); }

// 95 -> "about 1 min 35 s"; 4 -> "about 4 s"
export function duration(seconds) {
  const s = Math.max(1, Math.round(seconds));
  if (s < 60) return "about " + s + " s";
  const m = Math.floor(s / 60);
  return "about " + m + " min" + (s % 60 ? " " + (s % 60) + " s" : "");
}

export function pct(x) { return (100 * x).toFixed(1) + " %"; }
