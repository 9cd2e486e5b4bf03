#!/usr/bin/env python3
"""Build ``dist/deid.html``: one self-contained page that de-identifies notes offline.

Usage::

    npm ci                      # Pyodide core, onnxruntime-web and esbuild, pinned in package-lock.json
    python build.py             # writes dist/deid.html, prints its size by part and its SHA-256
    python build.py --no-model  # the rules-only page (also what a tree without model/ gives)

What goes in. Every file is embedded gzip-compressed in a ``<script type="application/octet-stream">``
block as raw bytes (:func:`encode_payload`: the page is a windows-1252 document, so each byte is one
character; four byte values are escaped), unpacked in the page with the browser's
``DecompressionStream``. Base64 would add a third to every byte; this adds about 1.6 %.

* the worker script, in pieces the page joins: ``web/worker/prelude.js`` (answers Pyodide's
  classic-worker probe without a ``data:`` script, which the CSP refuses), ``pyodide.js`` +
  ``pyodide.asm.mjs`` turned into a classic script by ``esbuild --format=iife`` (a page opened from
  ``file://`` may not import ES modules), onnxruntime-web as a classic script (with the model), and
  the worker's own modules (``web/worker/``) bundled by esbuild;
* ``pyodide.asm.wasm``, and Pyodide's standard library cut to the modules the page imports
  (``web/build/precompile.mjs`` runs ``web/build/exercise.py``, every request the page makes, in
  the same Pyodide under Node, and keeps what that imported);
* the page's Python as archives unpacked side by side (a word list that only modules the page
  never imports name, as ``deid_core.knowledge``'s today, is left out: ``precompile.mjs``):
  ``engine.zip`` (``deid_core``,
  ``web/deid_page.py``, ``web/protocol.json``), ``lists.zip`` (``lists/``), ``corpus.zip``
  (``corpus/notes.jsonl``) and, with the model, ``model.zip`` (``model/ner.json``,
  ``model/vocab.txt``). Every ``.py`` is replaced by its CPython 3.14 bytecode (sourceless
  ``.pyc``), compiled by the same Pyodide: compiling in the page at every start costs seconds. The
  same run records the engine's compiled regular expressions (``web/regex_cache.py``), which the
  page then takes instead of parsing about 300 patterns at every start.

The page's own script (``web/page/``, ES modules bundled by esbuild into one classic script) and
``web/style.css`` are inline; the Content-Security-Policy carries the SHA-256 of exactly those
texts and forbids every network request. The script tag comes BEFORE the model's two blocks
(``ort.wasm``, ``ner.onnx``), so the engine starts while the browser still parses them. The build
is deterministic: the same inputs give the same bytes (gzip mtime 0, zip entries sorted with a
fixed timestamp, no build time in the page).

The NER model, when ``model/ner.onnx`` exists and ``--no-model`` is not given: onnxruntime-web
(npm, pinned) with the bundle chosen by ``--ort-build`` (:data:`ORT_BUILDS`), its wasm binary and
``ner.onnx`` (which must match the ``sha256`` and ``bytes`` in ``ner.json``). Any model file in
``model/`` with its ``ner.json`` and ``vocab.txt`` is taken as it is: no code names a model.

Which onnxruntime-web build: ``wasm`` (default), plain WebAssembly, CPU only: runs in Chromium,
Firefox and WebKit (Safari's engine) and is the smallest; ``jspi`` (WebGPU + wasm, needs WebAssembly
JSPI: Chromium only; where it is missing the model cannot load); ``webgpu`` (WebGPU + wasm through
asyncify, any browser, 12 MB more). On the CPU all run the model at the same speed (one thread: a
``file://`` page cannot be cross-origin isolated); WebGPU's float math is not the CPU's, so only
WASM is held to the CLI's spans.

The release's measured figures on real notes (``web/release_figures.json``, checked against
``README.md`` by ``tests/test_page_static.py``) are embedded as data for the self-benchmark panel.

Exit status: 0 on success; 1 with a message on stderr when an input is missing (``npm ci`` not run,
no corpus without ``--allow-missing-corpus``) or a tool fails.
"""
from __future__ import annotations

import argparse
import base64
import gzip
import hashlib
import io
import json
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent
WEB = ROOT / "web"
ZIP_DATE = (1980, 1, 1, 0, 0, 0)

# The network is closed to everything: scripts only by hash (plus wasm compilation), the engine's
# worker only from a blob: URL the page makes itself, no connect/img/font/media/frame/form at all.
CSP_TEMPLATE = ("default-src 'none'; script-src {script_hashes} 'wasm-unsafe-eval'; "
                "style-src {style_hashes}; worker-src blob:; connect-src 'none'; img-src 'none'; "
                "font-src 'none'; media-src 'none'; frame-src 'none'; child-src blob:; "
                "object-src 'none'; manifest-src 'none'; base-uri 'none'; form-action 'none'")


class BuildError(Exception):
    """An input is missing or a build tool failed; the message says which and what to do."""


def sha256_b64(text: str) -> str:
    """The CSP source expression ``'sha256-...'`` for an inline ``<script>``/``<style>`` text."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


def gzip_bytes(data: bytes) -> bytes:
    """Deterministic gzip (mtime 0, no file name), level 9."""
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, compresslevel=9, mtime=0) as f:
        f.write(data)
    return buf.getvalue()


def pyodide_dir(root: Path) -> tuple[Path, str]:
    """The installed npm ``pyodide`` directory and its version, checked against package.json.

    Raises:
        BuildError: when ``npm ci`` has not been run or installed a different version.
    """
    return npm_dir(root, "pyodide")


def npm_dir(root: Path, package: str) -> tuple[Path, str]:
    """The installed npm ``package`` directory and its version, checked against package.json.

    Raises:
        BuildError: when ``npm ci`` has not been run or installed a different version.
    """
    pinned = json.loads((root / "package.json").read_text())["dependencies"][package]
    d = root / "node_modules" / package
    if not (d / "package.json").is_file():
        raise BuildError(f"node_modules/{package} is missing: run `npm ci` first")
    version = json.loads((d / "package.json").read_text())["version"]
    if version != pinned:
        raise BuildError(f"node_modules has {package} {version}, package.json pins {pinned}: run `npm ci`")
    return d, version


def bundle_asm(root: Path, pyodide: Path) -> str:
    """``pyodide.asm.mjs`` as a classic script defining the global ``PYODIDE_ASM`` (esbuild IIFE)."""
    return bundle_iife(root, pyodide / "pyodide.asm.mjs", "PYODIDE_ASM")


def bundle_iife(root: Path, module: Path, global_name: str) -> str:
    """The ES module ``module`` as a classic script defining ``global_name`` (esbuild IIFE;
    ``import.meta.url`` becomes ``location.href``, a page from ``file://`` may not import modules).
    """
    esbuild = root / "node_modules" / ".bin" / "esbuild"
    if not esbuild.exists():
        raise BuildError("node_modules/.bin/esbuild is missing: run `npm ci` first")
    cmd = [str(esbuild), str(module), "--format=iife",
           f"--global-name={global_name}", "--define:import.meta.url=location.href",
           "--log-level=error", "--charset=utf8", "--minify-whitespace", "--minify-syntax"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise BuildError(f"esbuild failed: {proc.stderr.strip()}")
    return proc.stdout


#: onnxruntime-web builds: name -> (bundle in ``onnxruntime-web/dist``, its wasm binary, execution
#: providers the worker tries in order). See the module doc for the choice.
ORT_BUILDS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "wasm": ("ort.wasm.bundle.min.mjs", "ort-wasm-simd-threaded.wasm", ("wasm",)),
    "jspi": ("ort.jspi.bundle.min.mjs", "ort-wasm-simd-threaded.jspi.wasm", ("webgpu", "wasm")),
    "webgpu": ("ort.webgpu.bundle.min.mjs", "ort-wasm-simd-threaded.asyncify.wasm", ("webgpu", "wasm")),
}
DEFAULT_ORT_BUILD = "wasm"

#: The byte that starts an escape in an embedded payload, and the bytes that must be escaped in a
#: windows-1252 ``<script>`` block: NUL (the HTML parser turns it into U+FFFD), CR (turned into
#: LF), ``<`` (could end the block) and the escape byte itself.
ESCAPE = 0x3D
ESCAPED = bytes([0x00, 0x0D, 0x3C, ESCAPE])
_ESCAPED_RE = re.compile(b"[" + re.escape(ESCAPED) + b"]")


def encode_payload(data: bytes) -> bytes:
    """``data`` as the body of a ``<script>`` block in a windows-1252 page: every byte stands for
    itself, except the bytes of :data:`ESCAPED`, each written as ``=`` and the byte plus 64 (mod
    256). The page reads the block's text and maps each character back to its windows-1252 byte
    (``web/shared/bytes.js``). About 1.6 % longer than ``data`` for compressed bytes."""
    return _ESCAPED_RE.sub(lambda m: bytes([ESCAPE, (m.group()[0] + 64) & 0xFF]), data)


def decode_payload(body: bytes) -> bytes:
    """The inverse of :func:`encode_payload` (for tests and tools reading a built page)."""
    return re.sub(rb"=(.)", lambda m: bytes([(m.group(1)[0] - 64) & 0xFF]), body, flags=re.S)


#: The page's parts, for the size table: payload name -> part.
PARTS = {"worker-prelude.js": "page code", "worker.js": "page code",
         "pyodide.js": "Pyodide (Python runtime)", "pyodide.asm.wasm": "Pyodide (Python runtime)",
         "python_stdlib.zip": "Pyodide (Python runtime)", "ort.js": "onnxruntime-web (runs the model)",
         "ort.wasm": "onnxruntime-web (runs the model)", "ner.onnx": "NER model",
         "model.zip": "NER model", "engine.zip": "engine (deid_core)", "lists.zip": "word lists",
         "corpus.zip": "corpus (self-benchmark)"}


@dataclass(frozen=True)
class Block:
    """One embedded file: ``id`` of its script element, ``name``, raw ``size`` in bytes,
    ``body`` (:func:`encode_payload` of its gzip) and ``group``: ``"start"`` (read when the page's
    script runs) or ``"model"`` (after the document is parsed)."""

    id: str
    name: str
    size: int
    body: bytes
    group: str


def deterministic_zip(files: dict[str, bytes]) -> bytes:
    """``files`` (archive name -> bytes) as a zip with sorted entries and a fixed date."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            z.writestr(info, files[name])
    return buf.getvalue()


@dataclass(frozen=True)
class Model:
    """The NER model files: ``onnx`` (bytes of ner.onnx), ``config`` (parsed ner.json),
    ``config_bytes`` and ``vocab`` (bytes of ner.json and vocab.txt)."""

    onnx: bytes
    config: dict
    config_bytes: bytes
    vocab: bytes


def read_model(model_dir: Path) -> Model | None:
    """The model in ``model_dir``, or ``None`` when it holds no ``ner.onnx``.

    Raises:
        BuildError: ``ner.json`` or ``vocab.txt`` missing or unreadable, or ``ner.onnx`` not the
            file ``ner.json`` describes (``sha256``, ``bytes``).
    """
    onnx_path = model_dir / "ner.onnx"
    if not onnx_path.is_file():
        return None
    for name in ("ner.json", "vocab.txt"):
        if not (model_dir / name).is_file():
            raise BuildError(f"{model_dir / name} is missing beside ner.onnx (or build with --no-model)")
    config_bytes = (model_dir / "ner.json").read_bytes()
    try:
        config = json.loads(config_bytes)
    except ValueError as exc:
        raise BuildError(f"{model_dir / 'ner.json'} is not JSON: {exc}") from None
    onnx = onnx_path.read_bytes()
    digest = hashlib.sha256(onnx).hexdigest()
    if config.get("sha256") != digest or config.get("bytes") != len(onnx):
        raise BuildError(f"{onnx_path} ({len(onnx)} bytes, sha256 {digest[:12]}...) is not the file "
                         f"{model_dir / 'ner.json'} describes: stale ner.json or a half-written model")
    return Model(onnx, config, config_bytes, (model_dir / "vocab.txt").read_bytes())


def python_archives(root: Path, corpus: Path | None, model: Model | None = None) -> dict[str, bytes]:
    """The page's Python side as deterministic zips, unpacked side by side in the page:
    ``engine.zip`` (``deid_core/**.py``, ``deid_page.py``, ``deid_protocol.json``,
    ``deid_regex_cache.py``), ``lists.zip``
    (``lists/*.txt|tsv``), ``corpus.zip`` (``corpus/notes.jsonl``, when given) and ``model.zip``
    (``model/ner.json``, ``model/vocab.txt``, when a model is given)."""
    engine = {p.relative_to(root).as_posix(): p.read_bytes()
              for p in sorted((root / "deid_core").rglob("*.py")) if "__pycache__" not in p.parts}
    engine["deid_page.py"] = (WEB / "deid_page.py").read_bytes()
    engine["deid_protocol.json"] = (WEB / "protocol.json").read_bytes()
    engine["deid_regex_cache.py"] = (WEB / "regex_cache.py").read_bytes()
    lists = {"lists/" + p.name: p.read_bytes() for p in sorted((root / "lists").iterdir())
             if p.is_file() and p.suffix in (".tsv", ".txt")}
    out = {"engine.zip": deterministic_zip(engine), "lists.zip": deterministic_zip(lists)}
    if corpus is not None:
        out["corpus.zip"] = deterministic_zip({"corpus/notes.jsonl": corpus.read_bytes()})
    if model is not None:
        out["model.zip"] = deterministic_zip({"model/ner.json": model.config_bytes,
                                              "model/vocab.txt": model.vocab})
    return out


def precompile(pyodide: Path, archives: dict[str, bytes]) -> tuple[bytes, dict[str, bytes], dict]:
    """Run ``web/build/precompile.mjs`` under Node: returns (the cut-down standard library of
    .pyc, the archives with sourceless .pyc in place of every .py, the report
    ``{"kept", "dropped", "bytes_in", "bytes_out"}``).

    Raises:
        BuildError: when ``node`` is missing or the step fails (an exercise request failing too).
    """
    node = shutil.which("node")
    if node is None:
        raise BuildError("node is not installed (needed to precompile the Python sources)")
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        (t / "in").mkdir()
        for name, data in archives.items():
            (t / "in" / name).write_bytes(data)
        shutil.copy(WEB / "build" / "exercise.py", t / "exercise.py")
        proc = subprocess.run([node, str(WEB / "build" / "precompile.mjs"), str(pyodide), str(t)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            err = proc.stderr
            at = err.rfind("PythonError:")   # Pyodide's traceback, not the minified glue it quotes
            tail = err[at:at + 2000] if at >= 0 else err[-2000:]
            raise BuildError(f"web/build/precompile.mjs failed: {tail.strip()}")
        out = {name: (t / "out" / name).read_bytes() for name in archives}
        return ((t / "out" / "stdlib.zip").read_bytes(), out,
                json.loads((t / "out" / "stdlib.json").read_text()))


def bundle_modules(root: Path, entry: Path) -> str:
    """The ES modules under ``entry`` bundled by esbuild into one classic script (IIFE, ASCII
    only: the page is a windows-1252 document)."""
    esbuild = root / "node_modules" / ".bin" / "esbuild"
    if not esbuild.exists():
        raise BuildError("node_modules/.bin/esbuild is missing: run `npm ci` first")
    proc = subprocess.run([str(esbuild), str(entry), "--bundle", "--format=iife", "--charset=ascii",
                           "--log-level=error", "--legal-comments=none", "--target=es2020",
                           "--minify-whitespace", "--minify-syntax"],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise BuildError(f"esbuild failed on {entry.relative_to(root)}: {proc.stderr.strip()}")
    return proc.stdout


def release_figures() -> dict:
    """``web/release_figures.json``: the release's measured figures on real notes (cited)."""
    return json.loads((WEB / "release_figures.json").read_text(encoding="utf-8"))


def size_table(blocks: list[Block], total: int) -> list[dict]:
    """Bytes in the page by part: ``[{"part", "raw", "page"}]`` (``raw``: the files as they are;
    ``page``: what they take in the HTML, compressed and escaped), the HTML around them as
    ``page code`` too."""
    rows: dict[str, dict] = {}
    for b in blocks:
        r = rows.setdefault(PARTS[b.name], {"part": PARTS[b.name], "raw": 0, "page": 0})
        r["raw"] += b.size
        r["page"] += len(b.body)
    shell = total - sum(len(b.body) for b in blocks)
    r = rows.setdefault("page code", {"part": "page code", "raw": 0, "page": 0})
    r["raw"] += shell
    r["page"] += shell
    return sorted(rows.values(), key=lambda r: -r["page"])


def build(root: Path = ROOT, out: Path | None = None, allow_missing_corpus: bool = False,
          compile_python: bool = True, with_model: bool = True,
          ort_build: str = DEFAULT_ORT_BUILD) -> Path:
    """Render the page and write it; returns the output path. The size table
    (:func:`size_table`) is in the page's manifest (``parts``).

    ``with_model``: embed ``model/`` when it holds ``ner.onnx`` (else the rules-only page);
    ``ort_build``: a key of :data:`ORT_BUILDS`; ``compile_python``: precompile (and cut the
    standard library); without it the sources and the whole standard library go in.

    Raises:
        BuildError: see the module doc.
    """
    import jinja2
    from markupsafe import Markup

    out = out or root / "dist" / "deid.html"
    pyodide, version = pyodide_dir(root)
    corpus = root / "corpus" / "notes.jsonl"
    if not corpus.is_file():
        if not allow_missing_corpus:
            raise BuildError(f"{corpus} is missing (the self-benchmark needs it); "
                             "pass --allow-missing-corpus to build a page without it")
        print(f"warning: {corpus} missing: the page's self-benchmark and corpus viewer will be empty",
              file=sys.stderr)
        corpus = None
    lock_info = json.loads((pyodide / "pyodide-lock.json").read_text())["info"]
    model = read_model(root / "model") if with_model else None
    if with_model and model is None:
        print(f"note: {root / 'model' / 'ner.onnx'} not found: building the rules-only page",
              file=sys.stderr)

    start: list[tuple[str, bytes]] = [
        ("worker-prelude.js", (WEB / "worker" / "prelude.js").read_bytes()),
        ("pyodide.js", ((pyodide / "pyodide.js").read_text(encoding="utf-8") + "\n;\n"
                        + bundle_asm(root, pyodide)).encode("utf-8"))]
    model_payloads: list[tuple[str, bytes]] = []
    model_info = None
    if model is not None:
        if ort_build not in ORT_BUILDS:
            raise BuildError(f"unknown onnxruntime-web build {ort_build!r}; one of {sorted(ORT_BUILDS)}")
        ort, ort_version = npm_dir(root, "onnxruntime-web")
        bundle, wasm_name, providers = ORT_BUILDS[ort_build]
        start.append(("ort.js", bundle_iife(root, ort / "dist" / bundle, "ort").encode("utf-8")))
        model_payloads = [("ort.wasm", (ort / "dist" / wasm_name).read_bytes()), ("ner.onnx", model.onnx)]
        model_info = {"name": model.config.get("name"), "sha256": model.config["sha256"],
                      "bytes": len(model.onnx), "threshold": model.config.get("threshold"),
                      "ort_version": ort_version, "ort_build": ort_build, "ort_wasm": wasm_name,
                      "providers": list(providers), "dir": "model"}
    start.append(("worker.js", bundle_modules(root, WEB / "worker" / "main.js").encode("utf-8")))
    worker_pieces = [name for name, _ in start]
    archives = python_archives(root, corpus, model)
    if compile_python:
        stdlib, archives, report = precompile(pyodide, archives)
    else:
        stdlib, report = (pyodide / "python_stdlib.zip").read_bytes(), None
    start += [("pyodide.asm.wasm", (pyodide / "pyodide.asm.wasm").read_bytes()),
              ("python_stdlib.zip", stdlib)] + sorted(archives.items())
    blocks = [Block(f"deid-blob-{i}", name, len(data), encode_payload(gzip_bytes(data)),
                    "start" if i < len(start) else "model")
              for i, (name, data) in enumerate(start + model_payloads)]
    ids = {b.name: b.id for b in blocks}
    from deid_core.api import page_static   # the engine in this checkout (ROOT)
    manifest = {"worker": [ids[n] for n in worker_pieces],
                "blobs": {n: ids[n] for n in ("pyodide.asm.wasm", "python_stdlib.zip")},
                "archives": [ids[n] for n in sorted(archives)],
                "model_blobs": {n: ids[n] for n, _ in model_payloads}, "model": model_info,
                "lock_info": lock_info, "figures": release_figures(),
                # "What is removed", About, the real notes' residual risk: deid_core.api
                "texts": page_static((root / "LICENSE").read_text(encoding="utf-8")),
                "stdlib": None if report is None else {"kept": len(report["kept"]),
                                                       "dropped": report["dropped"]},
                "lists_left_out": None if report is None else report["lists_dropped"]}
    if report and report["lists_dropped"]:
        print(f"note: word lists no module of the page reads, left out: {', '.join(report['lists_dropped'])}",
              file=sys.stderr)

    app_js = bundle_modules(root, WEB / "page" / "main.js")
    style = (WEB / "style.css").read_text(encoding="utf-8")
    for name, text in (("page script", app_js), ("style.css", style)):
        if "</" in text.replace("<\\/", ""):
            raise BuildError(f"{name} contains '</', which would end its inline element early")
    csp = CSP_TEMPLATE.format(script_hashes=sha256_b64(app_js), style_hashes=sha256_b64(style))

    digest = hashlib.sha256()
    for name, data in start + model_payloads:
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(WEB)), autoescape=True,
                             keep_trailing_newline=True, undefined=jinja2.StrictUndefined)
    holes = {b.id: f"@@DEID-PAYLOAD-{b.id}@@" for b in blocks}

    def render(parts: list[dict] | None) -> bytes:
        m = dict(manifest, parts=parts)
        text = env.get_template("deid.html.j2").render(
            csp=csp, style=Markup(style), app_js=Markup(app_js),
            manifest=Markup(json.dumps(m, sort_keys=True, ensure_ascii=True).replace("<", "\\u003c")),
            start_blocks=[b for b in blocks if b.group == "start"],
            model_blocks=[b for b in blocks if b.group == "model"], holes=holes,
            pyodide_version=version, build_id=digest.hexdigest()[:12], model=model_info)
        try:
            html = text.encode("ascii")
        except UnicodeEncodeError as exc:
            raise BuildError(f"the page's text must be ASCII (a windows-1252 document): "
                             f"{text[max(0, exc.start - 40):exc.end + 40]!r}") from None
        for b in blocks:
            html = html.replace(holes[b.id].encode("ascii"), b.body, 1)
        return html

    # The size table is in the page; its own size changes the shell's by a few bytes: two passes.
    html = render(None)
    html = render(size_table(blocks, len(html)))
    html = render(size_table(blocks, len(html)))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(html)
    return out


def read_manifest(page: Path) -> dict:
    """The manifest embedded in a built page (``parts``, ``model``, ``figures``, block ids)."""
    data = page.read_bytes()
    m = re.search(rb'<script type="application/json" id="deid-manifest">(.*?)</script>', data, re.S)
    if not m:
        raise BuildError(f"{page} has no manifest: not a page this build made")
    return json.loads(m.group(1).decode("ascii"))


def print_sizes(page: Path, file=None) -> None:
    """Print the page's size by part (from its manifest) as a table."""
    parts = read_manifest(page)["parts"]
    total = sum(r["page"] for r in parts)
    print(f"{'part':34} {'files':>12} {'in the page':>12}", file=file)
    for r in parts:
        print(f"{r['part']:34} {r['raw'] / 1e6:9.2f} MB {r['page'] / 1e6:9.2f} MB", file=file)
    print(f"{'total':34} {'':12} {total / 1e6:9.2f} MB", file=file)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=None, help="output file (default dist/deid.html)")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="tree holding deid_core/, lists/, corpus/, node_modules/ (default: here)")
    parser.add_argument("--allow-missing-corpus", action="store_true",
                        help="build without corpus/notes.jsonl (development only)")
    parser.add_argument("--no-precompile", action="store_true",
                        help="embed Python sources only (slower page start; no Node step)")
    parser.add_argument("--no-model", action="store_true",
                        help="leave the NER model out: the rules-only page (also what you get without model/)")
    parser.add_argument("--ort-build", choices=sorted(ORT_BUILDS), default=DEFAULT_ORT_BUILD,
                        help=f"onnxruntime-web build to embed with the model (default {DEFAULT_ORT_BUILD})")
    args = parser.parse_args(argv)
    try:
        out = build(args.root.resolve(), args.out, args.allow_missing_corpus, not args.no_precompile,
                    not args.no_model, args.ort_build)
    except BuildError as exc:
        print(f"build.py: error: {exc}", file=sys.stderr)
        return 1
    data = out.read_bytes()
    print_sizes(out)
    print(f"{out}  {len(data):,} bytes ({len(data) / 1e6:.1f} MB)  sha256 {hashlib.sha256(data).hexdigest()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
