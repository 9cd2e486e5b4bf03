// deid page worker: runs Pyodide and the deid_core engine off the main thread.
//
// The page builds this worker from pieces of its embedded script (build.py): prelude.js,
// pyodide.js with pyodide.asm.mjs as a classic script (defines loadPyodide and PYODIDE_ASM), with
// the model onnxruntime-web as a classic script (global `ort`), then this bundle. It imports
// nothing and fetches nothing: embedded.js answers Pyodide's requests for its own files from the
// bytes the page handed over. The model is unpacked and its session created only after the rules
// are ready, so the page is usable at once. Messages: web/protocol.json, checked both ways.
import {FILE_TYPES, embed} from "./embedded.js";
import {engine, newJob, py, Cancelled} from "./engine.js";
import {model, loadModel} from "./model.js";
import {answer} from "./answer.js";
import {unpack} from "../shared/bytes.js";
import {toPage, dispatcher} from "../shared/protocol.js";

const T0 = performance.now();
const timings = {};   // stage -> seconds since the worker started, reported with "ready"
const post = (type, fields) => self.postMessage(toPage(type, fields));
function progress(stage, fraction) {
  timings[stage] = Math.round(performance.now() - T0) / 1000;
  post("progress", {stage, fraction});
}

const jobs = new Map();   // call id -> job
let modelInfo = null;     // the manifest's model entry, or null (a page without the model)
let modelBlobs = null;    // set by the "model" message
let startModel = null;    // resolves when both the engine is ready and the model's blobs came

async function init(msg) {
  const t0 = performance.now();
  modelInfo = msg.model_info;
  progress("Unpacking the runtime", 0.05);
  const names = Object.keys(msg.blobs);
  const files = {};
  await Promise.all(names.map(async (name) => { files[name] = await unpack(msg.blobs[name]); }));
  const archives = await Promise.all(msg.archives.map(unpack));
  for (const name of Object.keys(FILE_TYPES)) embed(name, files[name]);
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
    lockFileContents: {info: msg.lock_info, packages: {}},
    packageBaseUrl: "https://embedded.invalid/pyodide/",
    createPyodideModule: PYODIDE_ASM.default,
    stdout: () => {}, stderr: (line) => console.warn(line),
  });
  progress("Loading the engine", 0.85);
  for (const bytes of archives) pyodide.unpackArchive(bytes, "zip", {extractDir: "/home/pyodide/deid"});
  pyodide.runPython(
    "import sys\nsys.path.insert(0, '/home/pyodide/deid')\nimport deid_page\ndeid_page.start('/home/pyodide/deid')\n");
  engine.handle = pyodide.globals.get("deid_page").handle;
  engine.finishFlat = pyodide.runPython(
    "def _deid_finish_flat(text, logits, dims):\n" +
    "    from deid_core.ner.pipeline import finish_json\n" +
    "    return finish_json(text, logits.to_memoryview(), dims)\n" +
    "_deid_finish_flat\n");
  const versions = py("info", {});
  progress("Ready", 1);
  post("ready", {seconds: (performance.now() - t0) / 1000, versions, timings});
  if (modelInfo) {
    model.state = "loading";
    post("model", {state: "loading"});
    model.promise = new Promise((resolve) => { startModel = resolve; })
      .then(() => loadModel(modelInfo, modelBlobs, post, T0));
    if (modelBlobs) startModel();
  }
}

const handlers = {
  init(msg) {
    init(msg).catch((err) => post("error", {message: String(err && err.message || err)}));
  },
  model(msg) {
    modelBlobs = msg.blobs;
    if (startModel) startModel();
  },
  call(msg) {
    const job = newJob(msg.id, post);
    jobs.set(msg.id, job);
    Promise.resolve().then(() => {
      if (!engine.handle) throw new Error("the engine is not ready");
      return answer(JSON.parse(msg.request), job, post);
    }).then(([response, engineName, warning]) => {
      jobs.delete(msg.id);
      post("reply", {id: msg.id, ok: true, response, engine: engineName, warning});
    }, (err) => {
      jobs.delete(msg.id);
      post("reply", {id: msg.id, ok: false, message: String(err && err.message || err),
                     cancelled: err instanceof Cancelled});
    });
  },
  cancel(msg) {
    const job = jobs.get(msg.id);
    if (job) job.cancelled = true;
  },
};
const dispatch = dispatcher("page_to_worker", handlers);
self.onmessage = (event) => dispatch(event.data);
