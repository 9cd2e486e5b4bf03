// Build step (run by build.py with Node): compile Python sources to CPython 3.14 bytecode with
// the very Pyodide the page embeds, so the page does not compile them at every start.
//
//   node web/precompile.mjs PYODIDE_DIR STDLIB_OUT.zip APP_IN.zip APP_OUT.zip
//
// STDLIB_OUT.zip: Pyodide's python_stdlib.zip with every .py replaced by its .pyc (unchecked
// hash-based pycs, PEP 552: the same source gives the same bytes, no timestamps).
// APP_OUT.zip: APP_IN.zip with, beside every .py, __pycache__/NAME.<cache_tag>.pyc (sources kept).
// Entries are stored uncompressed, sorted, with a fixed date, so the output depends on the inputs only.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, stdlibOut, appIn, appOut] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: pyodideDir + "/", stdout: () => {}, stderr: (s) => console.error(s) });
py.FS.writeFile("/tmp/app_in.zip", fs.readFileSync(appIn));
py.runPython(`
import importlib.util, io, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

DATE = (1980, 1, 1, 0, 0, 0)
TAG = sys.implementation.cache_tag

def pyc(source: bytes, name: str) -> bytes:
    code = compile(source, name, "exec", dont_inherit=True, optimize=0)
    return bytes(_code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False))

def write(entries: dict, dest: str) -> None:
    # Stored, not deflated: the page gzips the whole archive, which compresses better across
    # files, and the importer then reads entries without inflating each one.
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_STORED) as z:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, DATE)
            info.compress_type = zipfile.ZIP_STORED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            z.writestr(info, entries[name])

std = {}
with zipfile.ZipFile(f"/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip") as z:
    for info in z.infolist():
        if info.is_dir():
            continue
        data = z.read(info)
        if info.filename.endswith(".py"):
            std[info.filename + "c"] = pyc(data, info.filename)
        else:
            std[info.filename] = data
write(std, "/tmp/stdlib_out.zip")

app = {}
with zipfile.ZipFile("/tmp/app_in.zip") as z:
    for info in z.infolist():
        data = z.read(info)
        app[info.filename] = data
        if info.filename.endswith(".py"):
            head, _, base = info.filename.rpartition("/")
            cached = (head + "/" if head else "") + "__pycache__/" + base[:-3] + "." + TAG + ".pyc"
            app[cached] = pyc(data, "/home/pyodide/deid/" + info.filename)
write(app, "/tmp/app_out.zip")
`);
fs.writeFileSync(stdlibOut, py.FS.readFile("/tmp/stdlib_out.zip"));
fs.writeFileSync(appOut, py.FS.readFile("/tmp/app_out.zip"));
