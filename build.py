#!/usr/bin/env python3
"""Build ``dist/deid.html``: one self-contained page that de-identifies notes offline.

Usage::

    npm ci                      # Pyodide core and esbuild, pinned in package-lock.json
    python build.py             # writes dist/deid.html, prints its size and SHA-256
    python build.py --no-model  # the rules-only page (also what a tree without model/ gives)

What goes in (all embedded as gzip + base64 in ``<script type="application/octet-stream">``
blocks, unpacked in the page with the browser's ``DecompressionStream``):

* ``pyodide.asm.wasm`` and ``python_stdlib.zip`` from the npm package ``pyodide``;
* the worker script: ``web/worker-prelude.js`` (answers Pyodide's classic-worker probe without a
  ``data:`` script, which the CSP refuses) + ``pyodide.js`` + ``pyodide.asm.mjs`` turned into a
  classic script by ``esbuild --format=iife`` (a page opened from ``file://`` may not import ES
  modules) + ``web/worker.js``;
* ``app.zip``: the ``deid_core`` package, ``lists/``, ``corpus/notes.jsonl`` and ``web/deid_page.py``.

Both Python archives are precompiled to CPython 3.14 bytecode by ``web/precompile.mjs``, which runs
the same Pyodide under Node at build time: Pyodide ships its standard library as source, and
compiling it in the page at every start costs seconds.

The HTML comes from ``web/deid.html.j2`` (jinja2) with ``web/style.css`` and ``web/app.js`` inline; the
Content-Security-Policy carries the SHA-256 of exactly those inline texts and forbids every network
request. The build is deterministic: the same inputs give the same bytes (gzip mtime 0, zip entries
sorted with a fixed timestamp, no build time in the page).

The NER model (issue 4), when ``model/ner.onnx`` exists and ``--no-model`` is not given:

* onnxruntime-web (npm, pinned) as a classic script: esbuild IIFE (``--global-name=ort``) of the
  bundle chosen by ``--ort-build`` (:data:`ORT_BUILDS`), appended to the worker script;
* its wasm binary and ``ner.onnx`` as two more payloads (``ort.wasm``, ``ner.onnx``), unpacked by
  the worker only after the rules are ready, so the page is usable at once;
* ``model/ner.json`` and ``model/vocab.txt`` inside ``app.zip`` (Python's pre- and
  post-processing, :mod:`deid_core.ner.pipeline`, reads them from Pyodide's file system).

``ner.onnx`` must match the ``sha256`` and ``bytes`` in ``ner.json``. Without ``model/`` (or with
``--no-model``) the page is the rules-only page and says so. The CSP needs no change for the model
(``'wasm-unsafe-eval'`` is already allowed, the network stays closed).

Which onnxruntime-web build (``--ort-build``; onnxruntime-web 1.30.0; page sizes measured with the
17.1 MB int8 model of 2026-11-30, rules-only page 11.7 MB):

* ``wasm``: CPU only, works in every browser; page 35.2 MB.
* ``jspi`` (default): WebGPU + wasm, needs WebAssembly JSPI (Chromium 137+; where it is missing the
  model is reported unavailable and the rules still run); page 35.8 MB.
* ``webgpu``: WebGPU + wasm via asyncify, any browser; page 39.2 MB, 0.8 MB under the 40 MB budget,
  so any growth of the model breaks the budget.

All three run the model at the same speed on WASM (one thread: a ``file://`` page cannot be
cross-origin isolated). WebGPU's float math is not the CPU's: only WASM is held to the CLI's spans.

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


@dataclass(frozen=True)
class Block:
    """One embedded file: ``id`` of its script element, ``name``, raw ``size`` in bytes, ``data``
    (base64 of its gzip)."""

    id: str
    name: str
    size: int
    data: str


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
           "--log-level=error", "--charset=utf8"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise BuildError(f"esbuild failed: {proc.stderr.strip()}")
    return proc.stdout


#: onnxruntime-web builds: name -> (bundle in ``onnxruntime-web/dist``, its wasm binary, execution
#: providers the worker tries in order). See the module doc for sizes and the choice.
ORT_BUILDS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "wasm": ("ort.wasm.bundle.min.mjs", "ort-wasm-simd-threaded.wasm", ("wasm",)),
    "jspi": ("ort.jspi.bundle.min.mjs", "ort-wasm-simd-threaded.jspi.wasm", ("webgpu", "wasm")),
    "webgpu": ("ort.webgpu.bundle.min.mjs", "ort-wasm-simd-threaded.asyncify.wasm", ("webgpu", "wasm")),
}
DEFAULT_ORT_BUILD = "jspi"


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


def app_zip(root: Path, corpus: Path | None, model: Model | None = None) -> bytes:
    """The Python side of the page as a deterministic zip: ``deid_core/**.py``, ``lists/*``,
    ``corpus/notes.jsonl`` (when given), ``model/ner.json`` and ``model/vocab.txt`` (when a model
    is given) and ``deid_page.py``."""
    files: dict[str, bytes] = {}
    if model is not None:
        files["model/ner.json"] = model.config_bytes
        files["model/vocab.txt"] = model.vocab
    for p in sorted((root / "deid_core").rglob("*.py")):
        if "__pycache__" not in p.parts:
            files[p.relative_to(root).as_posix()] = p.read_bytes()
    for p in sorted((root / "lists").iterdir()):
        if p.is_file() and p.suffix in (".tsv", ".txt"):
            files["lists/" + p.name] = p.read_bytes()
    if corpus is not None:
        files["corpus/notes.jsonl"] = corpus.read_bytes()
    files["deid_page.py"] = (WEB / "deid_page.py").read_bytes()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            z.writestr(info, files[name])
    return buf.getvalue()


def precompile(pyodide: Path, app: bytes) -> tuple[bytes, bytes]:
    """Run ``web/precompile.mjs`` under Node: returns (stdlib zip of .pyc, app zip with
    ``__pycache__`` beside its sources).

    Raises:
        BuildError: when ``node`` is missing or the step fails.
    """
    node = shutil.which("node")
    if node is None:
        raise BuildError("node is not installed (needed to precompile the Python sources)")
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        (t / "app_in.zip").write_bytes(app)
        proc = subprocess.run([node, str(WEB / "precompile.mjs"), str(pyodide), str(t / "stdlib.zip"),
                               str(t / "app_in.zip"), str(t / "app.zip")], capture_output=True, text=True)
        if proc.returncode != 0:
            raise BuildError(f"web/precompile.mjs failed: {proc.stderr.strip()[-2000:]}")
        return (t / "stdlib.zip").read_bytes(), (t / "app.zip").read_bytes()


def build(root: Path = ROOT, out: Path | None = None, allow_missing_corpus: bool = False,
          compile_python: bool = True, with_model: bool = True,
          ort_build: str = DEFAULT_ORT_BUILD) -> Path:
    """Render the page and write it; returns the output path.

    ``with_model``: embed ``model/`` when it holds ``ner.onnx`` (else the rules-only page);
    ``ort_build``: a key of :data:`ORT_BUILDS`.

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

    scripts = [(pyodide / "pyodide.js").read_text(encoding="utf-8"), bundle_asm(root, pyodide)]
    model_payloads: list[tuple[str, bytes]] = []
    model_info = None
    if model is not None:
        if ort_build not in ORT_BUILDS:
            raise BuildError(f"unknown onnxruntime-web build {ort_build!r}; one of {sorted(ORT_BUILDS)}")
        ort, ort_version = npm_dir(root, "onnxruntime-web")
        bundle, wasm_name, providers = ORT_BUILDS[ort_build]
        scripts.append(bundle_iife(root, ort / "dist" / bundle, "ort"))
        model_payloads = [("ort.wasm", (ort / "dist" / wasm_name).read_bytes()), ("ner.onnx", model.onnx)]
        model_info = {"name": model.config.get("name"), "sha256": model.config["sha256"],
                      "bytes": len(model.onnx), "threshold": model.config.get("threshold"),
                      "ort_version": ort_version, "ort_build": ort_build, "ort_wasm": wasm_name,
                      "providers": list(providers), "dir": "model"}
    worker_js = "\n;\n".join([(WEB / "worker-prelude.js").read_text(encoding="utf-8")] + scripts
                               + [(WEB / "worker.js").read_text(encoding="utf-8")])
    app = app_zip(root, corpus, model)
    if compile_python:
        stdlib, app = precompile(pyodide, app)
    else:
        stdlib = (pyodide / "python_stdlib.zip").read_bytes()
    payloads = [("worker.js", worker_js.encode("utf-8")),
                ("pyodide.asm.wasm", (pyodide / "pyodide.asm.wasm").read_bytes()),
                ("python_stdlib.zip", stdlib),
                ("app.zip", app)]
    n_rules = len(payloads)
    payloads += model_payloads
    blocks = [Block(f"deid-blob-{i}", name, len(data), base64.b64encode(gzip_bytes(data)).decode("ascii"))
              for i, (name, data) in enumerate(payloads)]
    manifest = {"worker": blocks[0].id, "blobs": {b.name: b.id for b in blocks[1:n_rules]},
                "model_blobs": {b.name: b.id for b in blocks[n_rules:]}, "model": model_info,
                "lock_info": lock_info}
    manifest_json = json.dumps(manifest, sort_keys=True).replace("<", "\\u003c")

    app_js = (WEB / "app.js").read_text(encoding="utf-8")
    style = (WEB / "style.css").read_text(encoding="utf-8")
    for name, text in (("app.js", app_js), ("style.css", style)):
        if "</" in text.replace("<\\/", ""):
            raise BuildError(f"web/{name} contains '</', which would end its inline element early")
    csp = CSP_TEMPLATE.format(script_hashes=sha256_b64(app_js), style_hashes=sha256_b64(style))

    digest = hashlib.sha256()
    for name, data in payloads:
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(WEB)), autoescape=True,
                             keep_trailing_newline=True, undefined=jinja2.StrictUndefined)
    html = env.get_template("deid.html.j2").render(
        csp=csp, style=Markup(style), app_js=Markup(app_js), manifest=Markup(manifest_json),
        blocks=blocks, pyodide_version=version, build_id=digest.hexdigest()[:12], model=model_info)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(html.encode("utf-8"))
    return out


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
    print(f"{out}  {len(data):,} bytes ({len(data) / 1e6:.1f} MB)  sha256 {hashlib.sha256(data).hexdigest()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
