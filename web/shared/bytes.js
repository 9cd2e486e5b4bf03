// Embedded payloads: raw bytes in a windows-1252 page (build.py encode_payload), then gzip.

// WHATWG windows-1252: bytes 0x80..0x9F decode to these code points (the others to themselves).
const CP1252_HIGH = [0x20AC, 0x81, 0x201A, 0x192, 0x201E, 0x2026, 0x2020, 0x2021, 0x2C6, 0x2030,
  0x160, 0x2039, 0x152, 0x8D, 0x17D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013,
  0x2014, 0x2DC, 0x2122, 0x161, 0x203A, 0x153, 0x9D, 0x17E, 0x178];
const ESCAPE = 0x3D;   // "=": the next byte is the escaped byte plus 64 (mod 256)
let BACK = null;       // code point -> byte

// The bytes an embedded block's text stands for (its textContent, never trimmed).
export function payloadBytes(text) {
  if (!BACK) {
    BACK = new Uint8Array(0x2200);
    for (let i = 0; i < 256; i++) BACK[i] = i;
    CP1252_HIGH.forEach((c, i) => { BACK[c] = 0x80 + i; });
  }
  const out = new Uint8Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    let b = BACK[text.charCodeAt(i)];
    if (b === ESCAPE) b = (BACK[text.charCodeAt(++i)] - 64) & 0xFF;
    out[n++] = b;
  }
  return out.subarray(0, n);
}

// gunzip with the browser's DecompressionStream, fed and read by hand: no Blob and no Response
// (WebKitGTK refuses to read a Blob's stream in a page from file://: "NotReadableError").
export async function gunzip(bytes) {
  const ds = new DecompressionStream("gzip");
  const writer = ds.writable.getWriter();
  const written = writer.write(bytes).then(() => writer.close());
  written.catch(() => {});   // its error, if any, is the reader's too
  const reader = ds.readable.getReader();
  const parts = [];
  let size = 0;
  for (;;) {
    const {done, value} = await reader.read();
    if (done) break;
    parts.push(value);
    size += value.length;
  }
  await written;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

// The file an embedded block holds (block text -> gunzipped bytes).
export function unpack(text) { return gunzip(payloadBytes(text)); }
