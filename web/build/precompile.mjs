// Build step (run by build.py with Node): compile the page's Python to CPython 3.14 bytecode with
// the very Pyodide the page embeds, and cut Pyodide's standard library down to what the page
// imports.
//
//   node web/build/precompile.mjs PYODIDE_DIR WORK_DIR
//
// WORK_DIR/in/*.zip: the page's Python archives (engine, lists, corpus, model files), unpacked
// into one folder, as the page does. WORK_DIR/exercise.py: run there after unpacking (it imports
// the engine and calls every request the page can make), so that every standard-library module
// the page needs is imported at least once.
// Writes:
//   WORK_DIR/out/<name>.zip  each input archive with every .py replaced by its sourceless .pyc
//                            (unchecked hash-based pyc, PEP 552: the same source, the same bytes);
//   WORK_DIR/out/stdlib.zip  python_stdlib.zip cut to the modules the run imported (plus
//                            their packages), each as .pyc;
//   WORK_DIR/out/stdlib.json {"kept": [module files], "dropped": count, "lists_dropped": [list
//                            files no module of the page reads, left out of lists.zip],
//                            "bytes_in", "bytes_out"}.
// Entries are stored uncompressed (the page gzips each archive whole, which compresses better
// across files), sorted, with a fixed date, so the output depends on the inputs only.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, work] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
// A fixed hash seed: a pattern the engine builds from a set (in set order) is then the same in
// every build, and so is the recorded cache (the page keeps its random seed; a pattern whose text
// differs there is simply compiled as usual).
const py = await loadPyodide({ indexURL: pyodideDir + "/", env: { PYTHONHASHSEED: "0" },
                               stdout: () => {}, stderr: (s) => console.error(s) });
const names = fs.readdirSync(path.join(work, "in")).filter((n) => n.endsWith(".zip")).sort();
py.FS.mkdirTree("/tmp/in");
for (const n of names) {
  const bytes = new Uint8Array(fs.readFileSync(path.join(work, "in", n)));
  py.FS.writeFile("/tmp/in/" + n, bytes);
  py.unpackArchive(bytes, "zip", { extractDir: "/home/pyodide/deid" });   // as the page does
}
py.FS.writeFile("/tmp/exercise.py", fs.readFileSync(path.join(work, "exercise.py")));
py.runPython(`
import importlib.util, io, json, os, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

DATE = (1980, 1, 1, 0, 0, 0)
ROOT = "/home/pyodide/deid"
STDLIB = f"/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip"

import ast

def without_docstrings(source: bytes, name: str):
    # The page's own modules carry long docstrings that nothing reads at run time (no __doc__ in
    # the engine, no help()): the tree without them (asserts kept, unlike optimize=2).
    tree = ast.parse(source, name)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                node.body = body[1:] or [ast.copy_location(ast.Pass(), body[0])]
    return tree

def pyc(source: bytes, name: str, strip: bool = False) -> bytes:
    code = compile(without_docstrings(source, name) if strip else source, name, "exec",
                   dont_inherit=True, optimize=0)
    return bytes(_code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False))

def write(entries: dict, dest: str) -> None:
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_STORED) as z:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, DATE)
            info.compress_type = zipfile.ZIP_STORED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            z.writestr(info, entries[name])

os.makedirs("/tmp/out", exist_ok=True)
outputs = {}
for name in sorted(os.listdir("/tmp/in")):
    with zipfile.ZipFile("/tmp/in/" + name) as z:
        out = outputs[name] = {}
        for info in z.infolist():
            data = z.read(info)
            if info.filename.endswith(".py"):
                out[info.filename + "c"] = pyc(data, ROOT + "/" + info.filename, strip=True)
            else:
                out[info.filename] = data

sys.path.insert(0, ROOT)
import deid_regex_cache
deid_regex_cache.record()
exec(compile(open("/tmp/exercise.py").read(), "/tmp/exercise.py", "exec"), {"__name__": "__exercise__", "ROOT": ROOT})
outputs["engine.zip"][deid_regex_cache.FILE] = deid_regex_cache.dump()

# Word lists no module of the page can read stay out: a list is left out only when every module
# that names it (a string constant that is exactly its file name or its stem) is outside the
# page's modules (those the run imported, and every module they import anywhere, at the top or
# inside a function). A list no module names so is kept.
import ast
sources = {}
with zipfile.ZipFile("/tmp/in/engine.zip") as z:
    for info in z.infolist():
        if info.filename.endswith(".py"):
            mod = info.filename[:-3].replace("/", ".").removesuffix(".__init__")
            sources[mod] = (z.read(info).decode("utf-8"), info.filename.endswith("__init__.py"))

def imports_of(mod):
    text, is_pkg = sources[mod]
    package = mod if is_pkg else mod.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            out.add(base)
            out.update(f"{base}.{a.name}" for a in node.names)
    return {m for m in out if m in sources}

page_modules = {m for m in sys.modules if m in sources}
todo = list(page_modules)
while todo:
    for m in imports_of(todo.pop()):
        if m not in page_modules:
            page_modules.add(m)
            todo.append(m)
constants = {m: {n.value for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
             for m, (text, _) in sources.items()}
dropped_lists = []
lists_out = outputs.get("lists.zip", {})
for entry in sorted(lists_out):
    fname = entry.rpartition("/")[2]
    readers = {m for m, names in constants.items() if fname in names or fname.rsplit(".", 1)[0] in names}
    if readers and not readers & page_modules:
        del lists_out[entry]
        dropped_lists.append(fname)
for name, out in outputs.items():
    write(out, "/tmp/out/" + name)
used = set()
for mod in list(sys.modules.values()):
    f = getattr(mod, "__file__", None) or ""
    if f.startswith(STDLIB + "/"):
        used.add(f[len(STDLIB) + 1:])
# every package above a kept module keeps its __init__
for f in list(used):
    parts = f.split("/")[:-1]
    for i in range(1, len(parts) + 1):
        used.add("/".join(parts[:i]) + "/__init__.py")

std, dropped, size_in = {}, 0, 0
with zipfile.ZipFile(STDLIB) as z:
    for info in z.infolist():
        if info.is_dir():
            continue
        size_in += info.file_size
        if info.filename in used:
            std[info.filename + "c"] = pyc(z.read(info), info.filename)
        else:
            dropped += 1
write(std, "/tmp/out/stdlib.zip")
json.dump({"kept": sorted(used), "dropped": dropped, "lists_dropped": dropped_lists, "bytes_in": size_in,
           "bytes_out": sum(len(v) for v in std.values())}, open("/tmp/out/stdlib.json", "w"), indent=1)
`);
fs.mkdirSync(path.join(work, "out"), { recursive: true });
for (const n of py.FS.readdir("/tmp/out")) {
  if (n === "." || n === "..") continue;
  fs.writeFileSync(path.join(work, "out", n), py.FS.readFile("/tmp/out/" + n));
}
