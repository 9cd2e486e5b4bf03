"""The import graph of ``deid_core/``, computed from the source (``ast``): no cycle, no import of a
``deid_core`` module inside a function (the way a cycle is usually hidden), and no engine module
(what the page loads) importing a host module (the CLI, batch, harvest, Spark, the onnxruntime
host). Third-party imports inside functions (onnxruntime, onnx, pyarrow, pyspark, tqdm) are not
checked: they are optional at run time, so they are imported where they are needed."""
from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "deid_core"

#: ``(importing module, imported module)`` pairs allowed inside a function, with why.
FUNCTION_LEVEL_ALLOWED: dict[tuple[str, str], str] = {
    ("deid_core.ner.make_tables", "deid_core.ner.wordpiece"):
        "the developer script regenerates ner/_tables.py, which wordpiece imports at its top: it "
        "must run when _tables.py is missing or broken",
}

#: Modules of the host side (command line, corpus scale, the CPython model runner): the engine,
#: which the page loads, must not import any of them (``deid_core.batch`` covers its package).
HOST = ("deid_core.cli", "deid_core.batch", "deid_core.harvest", "deid_core.spark",
        "deid_core.ner.loading", "deid_core.ner.onnx_runtime", "deid_core.ner.make_tables")


def _modules() -> dict[str, tuple[Path, bool]]:
    """``{dotted name: (path, is a package __init__)}`` of every module under ``deid_core/``."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        out[".".join(parts[:-1] if is_pkg else parts)] = (path, is_pkg)
    return out


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_pkg: bool,
             modules: dict) -> list[str]:
    """The ``deid_core`` modules an import statement loads (``from pkg import sub`` names the
    submodule ``pkg.sub``; ``from pkg import name`` the package ``pkg``)."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        if node.level:
            base = module.split(".") if is_pkg else module.split(".")[:-1]
            base = base[:len(base) - (node.level - 1)]
            prefix = ".".join(base + ([node.module] if node.module else []))
        else:
            prefix = node.module or ""
        names = []
        for a in node.names:
            sub = f"{prefix}.{a.name}"
            names.append(sub if sub in modules else prefix)
    return sorted({n for n in names if n == "deid_core" or n.startswith("deid_core.")})


@lru_cache(maxsize=1)
def _graph() -> tuple[dict[str, set[str]], list[tuple[str, str, int]]]:
    """``({module: modules it imports}, [(module, imported, line) inside a function])``; imports
    under ``if TYPE_CHECKING:`` count as edges too (they would hide a cycle just as well)."""
    modules = _modules()
    edges: dict[str, set[str]] = {m: set() for m in modules}
    inside: list[tuple[str, str, int]] = []
    for module, (path, is_pkg) in modules.items():
        def visit(node: ast.AST, in_function: bool) -> None:
            for child in ast.iter_child_nodes(node):
                nested = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                           ast.Lambda))
                if isinstance(child, (ast.Import, ast.ImportFrom)):
                    for target in _targets(child, module, is_pkg, modules):
                        edges[module].add(target)
                        if nested:
                            inside.append((module, target, child.lineno))
                visit(child, nested)
        visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return edges, inside


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module, or of one that imports
    itself (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in edges:
                    continue
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.append(x)
                    if x == v:
                        break
                if len(comp) > 1 or v in edges[v]:
                    out.append(sorted(comp))
    return out


def _is_host(module: str) -> bool:
    return any(module == h or module.startswith(h + ".") for h in HOST)


@pytest.mark.parametrize("edges, want", [
    ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
    ({"a": {"b"}, "b": {"a"}, "c": {"a"}}, [["a", "b"]]),
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"d"}}, [["a", "b", "c"], ["d"]]),
])
def test_the_cycle_finder_finds_cycles(edges, want):
    edges = {k: set(v) for k, v in edges.items()}
    assert sorted(_cycles(edges)) == want


def test_the_graph_sees_the_package():
    edges, _ = _graph()
    assert "deid_core.analyze" in edges["deid_core.api"]
    assert "deid_core.corpus_rules" in edges["deid_core.analyze"]
    assert "deid_core.batch.pool" in edges["deid_core.harvest"]
    assert len(edges) > 40


def test_no_import_cycle():
    cycles = _cycles(_graph()[0])
    assert not cycles, "import cycles in deid_core: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_no_deid_core_import_inside_a_function():
    _, inside = _graph()
    bad = [f"{m}:{line} imports {t}" for m, t, line in inside if (m, t) not in FUNCTION_LEVEL_ALLOWED]
    assert not bad, "imports of deid_core modules inside functions: " + "; ".join(bad)
    used = {(m, t) for m, t, _ in inside}
    assert set(FUNCTION_LEVEL_ALLOWED) <= used, "an allowance no longer needed: remove it"


def test_the_engine_imports_no_host_module():
    edges, _ = _graph()
    bad = sorted(f"{m} imports {t}" for m, ts in edges.items() if not _is_host(m)
                 for t in ts if _is_host(t))
    assert not bad, "engine modules importing host modules: " + "; ".join(bad)
