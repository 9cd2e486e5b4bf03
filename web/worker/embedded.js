// Pyodide's own files answered from the bytes the page handed over; every other fetch refused.
const EMBEDDED = Object.create(null);   // file name -> {bytes, type}
export const FILE_TYPES = {"pyodide.asm.wasm": "application/wasm", "python_stdlib.zip": "application/zip"};

export function embed(name, bytes) { EMBEDDED[name] = {bytes, type: FILE_TYPES[name]}; }

self.fetch = async function embeddedFetch(input) {
  const url = String(typeof input === "string" ? input : (input && input.url) || input);
  const name = url.split(/[?#]/)[0].split("/").pop();
  const file = EMBEDDED[name];
  if (!file) throw new TypeError("deid: no network access (refused " + url + ")");
  return new Response(file.bytes, {status: 200, headers: {"Content-Type": file.type}});
};
