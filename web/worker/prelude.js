// deid page worker, prelude: runs BEFORE pyodide.js, pyodide.asm and onnxruntime-web (build.py
// puts it first in the worker script), because they probe the worker when they are evaluated.
//
// Pyodide probes for a classic worker with importScripts("data:text/javascript,") and refuses to
// start in one ("Classic web workers are not supported"); the page's CSP blocks that data: script,
// so the probe fails and Pyodide goes on as in a module worker (it imports nothing here: the
// build hands it everything). Firefox reports the blocked probe as a CSP error, though. This
// worker loads no script at run time, so importScripts is refused outright, before the CSP sees it.
self.importScripts = function (...urls) {
  throw new TypeError("deid: importScripts is refused (" + urls.join(", ") + ")");
};

// An uncaught error in this worker reaches the page's worker.onerror as a bare "Script error."
// in some engines (WebKit, a blob: worker of a file:// page): say what and where from in here.
self.addEventListener("error", (e) => {
  self.postMessage({type: "error", message: String(e.message || e.error || "error") +
                    (e.lineno ? " (worker script line " + e.lineno + ":" + e.colno + ")" : "")});
});
