"""The package's modules import each other without cycles: every import
between them counts, also those inside functions and under TYPE_CHECKING
(a cycle hidden in a function is still a cycle). A warm start imports only
what evaluation needs."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Set

import celwasm


def import_graph(pkg: Path) -> Dict[str, Set[str]]:
    modules = {p.stem: p for p in pkg.glob("*.py")}
    graph: Dict[str, Set[str]] = {}
    for name, path in modules.items():
        deps: Set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                if node.module:
                    deps.add(node.module.split(".")[0])
                else:  # from . import _module
                    deps.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("celwasm."):
                deps.add((node.module or "").split(".")[1])
            elif isinstance(node, ast.Import):
                deps.update(a.name.split(".")[1] for a in node.names if a.name.startswith("celwasm."))
        graph[name] = {d for d in deps if d in modules and d != name}
    return graph


def cycles(graph: Dict[str, Set[str]]) -> List[List[str]]:
    found: List[List[str]] = []
    state: Dict[str, int] = {}  # 1: on the path, 2: done
    path: List[str] = []

    def visit(n: str) -> None:
        state[n] = 1
        path.append(n)
        for d in sorted(graph[n]):
            if state.get(d) == 1:
                found.append(path[path.index(d) :] + [d])
            elif d not in state:
                visit(d)
        path.pop()
        state[n] = 2

    for n in sorted(graph):
        if n not in state:
            visit(n)
    return found


def test_no_import_cycles() -> None:
    graph = import_graph(Path(celwasm.__file__).parent)
    assert "_runtime" in graph and "_crd" in graph["_runtime"]  # the graph is read
    assert cycles(graph) == []


def test_the_check_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [["a", "b", "c", "a"]]


def test_a_warm_start_imports_only_what_evaluation_needs() -> None:
    # A warm start's time is mostly imports (RATIONALE, "Python warm start"):
    # CRD types, hashing and importlib.metadata (the wasmtime version names
    # cache files) are imported when they are used, not by every program.
    code = (
        "import sys, celwasm\n"
        "assert celwasm.Env().compile('1 + 1').evaluate() == 2\n"
        "late = ('celwasm._crd', 'celwasm._wire', 'hashlib', 'importlib.metadata')\n"
        "print(','.join(m for m in late if m in sys.modules))\n"
        "print(celwasm.CRDInfo.__module__, 'celwasm._crd' in sys.modules)\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == ["", "celwasm._crd True"], p.stdout
