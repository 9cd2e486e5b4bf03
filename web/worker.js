// deid page worker: runs Pyodide and the deid_core engine off the main thread.
//
// The build prepends pyodide.js (defines loadPyodide) and pyodide.asm.mjs turned into a classic
// script by esbuild (defines PYODIDE_ASM, whose .default is createPyodideModule), so this worker
// imports nothing and fetches nothing from the network: the fetch below answers Pyodide's requests
// for its own files from bytes the page handed over, and refuses everything else.
//
// Messages in:  {type: "init", blobs: {name: base64-of-gzip}, info: lockfile info}
//               {type: "call", id, request: JSON string}    (request for deid_page.handle)
// Messages out: {type: "progress", stage, fraction}, {type: "ready", seconds, versions},
//               {type: "error", message}, {type: "reply", id, ok, response | message}
"use strict";

const EMBEDDED = Object.create(null);   // file name -> {bytes, type}
const FILE_TYPES = {"pyodide.asm.wasm": "application/wasm", "python_stdlib.zip": "application/zip"};

self.fetch = async function embeddedFetch(input) {
  const url = String(typeof input === "string" ? input : (input && input.url) || input);
  const name = url.split(/[?#]/)[0].split("/").pop();
  const file = EMBEDDED[name];
  if (!file) throw new TypeError("deid: no network access (refused " + url + ")");
  return new Response(file.bytes, {status: 200, headers: {"Content-Type": file.type}});
};

function base64Bytes(text) {
  if (typeof Uint8Array.fromBase64 === "function") return Uint8Array.fromBase64(text);
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function gunzip(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const T0 = performance.now();
const timings = {};   // stage -> seconds since the worker started, reported with "ready"
function progress(stage, fraction) {
  timings[stage] = Math.round(performance.now() - T0) / 1000;
  self.postMessage({type: "progress", stage, fraction});
}

let handle = null;   // deid_page.handle, a Python function str -> str

async function init(msg) {
  const t0 = performance.now();
  progress("Unpacking the runtime", 0.05);
  const names = Object.keys(msg.blobs);
  const files = {};
  await Promise.all(names.map(async (name) => {
    files[name] = await gunzip(base64Bytes(msg.blobs[name]));
  }));
  for (const name of Object.keys(FILE_TYPES)) EMBEDDED[name] = {bytes: files[name], type: FILE_TYPES[name]};
  progress("Starting Python", 0.25);
  for (const fn of ["instantiate", "instantiateStreaming"]) {   // time the wasm compile for the report
    const orig = WebAssembly[fn];
    WebAssembly[fn] = async function (...args) {
      const t = performance.now();
      const r = await orig.apply(WebAssembly, args);
      timings["wasm " + fn] = Math.round(performance.now() - t) / 1000;
      return r;
    };
  }
  const pyodide = await loadPyodide({
    indexURL: "https://embedded.invalid/pyodide/",
    lockFileContents: {info: msg.info, packages: {}},
    packageBaseUrl: "https://embedded.invalid/pyodide/",
    createPyodideModule: PYODIDE_ASM.default,
    stdout: () => {}, stderr: (line) => console.warn(line),
  });
  progress("Loading the engine", 0.85);
  pyodide.unpackArchive(files["app.zip"], "zip", {extractDir: "/home/pyodide/deid"});
  pyodide.runPython(
    "import sys\nsys.path.insert(0, '/home/pyodide/deid')\nimport deid_page\ndeid_page.start('/home/pyodide/deid')\n");
  handle = pyodide.globals.get("deid_page").handle;
  const info = JSON.parse(handle(JSON.stringify({op: "info"})));
  if (!info.ok) throw new Error(info.error);
  const versions = info.result;
  progress("Ready", 1);
  self.postMessage({type: "ready", seconds: (performance.now() - t0) / 1000, versions, timings});
}

self.onmessage = (event) => {
  const msg = event.data;
  if (msg.type === "init") {
    init(msg).catch((err) => self.postMessage({type: "error", message: String(err && err.message || err)}));
  } else if (msg.type === "call") {
    try {
      if (!handle) throw new Error("the engine is not ready");
      self.postMessage({type: "reply", id: msg.id, ok: true, response: handle(msg.request)});
    } catch (err) {
      self.postMessage({type: "reply", id: msg.id, ok: false, message: String(err && err.message || err)});
    }
  }
};
