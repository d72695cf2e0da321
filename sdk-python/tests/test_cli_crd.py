"""`python -m celwasm validate` and `python -m celwasm cost` print the same
bytes, and exit with the same status, as the Go CLI (build/celwasm validate /
cost).

Every case runs through both CLIs; the Go CLI's output is the expectation:
the CRD corpus of conformance/testdata/crd (its files as conformance/cmd/gohost
resolves them, the gateway-api and karpenter CRDs from the Go module cache
included) — creates, updates with --old, -o json, --show-rules, --version,
cost reports with -v and -o json, CRDs kube-apiserver rejects — and the usage
and input errors of cmd/celwasm's TestValidateRouting. Stdout, stderr and the
exit status must be identical, except where the text of a YAML parser error
differs (go-yaml's and libyaml's).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import pytest

from celwasm import _cli

from conftest import REPO, go_cli, without_compile_line
from test_crd import gohost_binary, load_corpus

GO = go_cli()
pytestmark = pytest.mark.skipif(GO is None, reason="Go CLI (build/celwasm) not built; make -C .. cli builds it")

TD = REPO / "conformance" / "testdata" / "crd"

# cmd/celwasm TestValidateRouting's objects file: a List of two kinds, and a ConfigMap.
FILES: Dict[str, str] = {
    "objs.yaml": """apiVersion: v1
kind: List
items:
- {apiVersion: budget.example.com/v1, kind: Inventory, metadata: {name: tiny}, spec: {items: [{sku: a, tags: [x]}]}}
- {apiVersion: example.com/v1, kind: WebApp, metadata: {name: other}, spec: {replicas: 1}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cm}
""",
    # A JSON List, pretty-printed, with a WebApp in another namespace and an unknown field.
    "list.json": json.dumps(
        {"kind": "List", "apiVersion": "v1", "items": [
            {"apiVersion": "example.com/v1", "kind": "WebApp", "metadata": {"name": "singleton", "namespace": "x"}, "spec": {"replicas": 1, "extra": "<&>"}},
            {"apiVersion": "example.com/v1", "kind": "WebApp", "metadata": {"name": "singleton"}, "spec": {"replicas": 2}},
        ]},
        indent=2,
    ),
    "empty-list.yaml": "apiVersion: v1\nkind: List\nitems: []\n",
    "not-objects.yaml": "just a string\n---\n- a list\n---\n42\n",
    "unicode.yaml": "apiVersion: example.com/v1\nkind: WebApp\nmetadata: {name: \"caf\u00e9\u00a0\\t\"}\nspec: {replicas: 1}\n",
}

Case = Tuple[List[str], Optional[bytes]]


def _cases(corpus: List[Dict[str, Any]]) -> List[Case]:
    cases: List[Case] = []
    for c in corpus:
        crd_args: List[str] = []
        for f in c["crds"]:
            crd_args += ["--crd", f["file"]]
        objs = [f["file"] for f in c["valid"] + c["invalid"]]
        if c["crdErrors"]:
            # Rejected CRDs: kubectl's message for each, exit 1; their cost reports.
            cases.append((["validate"] + crd_args + [str(TD / "kep" / "valid.yaml")], None))
            cases.append((["cost"] + crd_args, None))
            cases.append((["cost", "-o", "json"] + crd_args, None))
            continue
        cases.append((["validate"] + crd_args + objs, None))
        cases.append((["cost"] + crd_args, None))
        cases.append((["cost", "-v", "-o", "json"] + crd_args, None))
        if c["name"] in ("kep", "budget"):
            cases.append((["validate", "-o", "json"] + crd_args + objs, None))
            cases.append((["validate", "--show-rules"] + crd_args + objs, None))
            cases.append((["cost", "-v"] + crd_args, None))
        u = c.get("updates")
        if u:
            old = ["--old", u["old"][0]["file"]]
            news = [f["file"] for f in u["valid"] + u["invalid"]]
            cases.append((["validate"] + crd_args + old + news, None))
            cases.append((["validate", "--show-rules", "-o", "json"] + crd_args + old + news, None))
    gw = next(c for c in corpus if c["name"] == "gateway-api")
    httproute = next(f["file"] for f in gw["crds"] if f["file"].endswith("_httproutes.yaml"))
    http_examples = [f["file"] for f in gw["valid"] if "http" in Path(f["file"]).name][:4]
    kep = str(TD / "kep" / "crd.yaml")
    cases += [
        # --version: another version than the objects' (converted), one schema of the report.
        (["validate", "--version", "v1beta1", "--crd", httproute] + http_examples, None),
        (["cost", "--version", "v1beta1", "--crd", httproute], None),
        (["cost", "--version", "v9", "--crd", httproute], None),
        (["validate", "--version", "v9", "--crd", kep, str(TD / "kep" / "valid.yaml")], None),
        # TestValidateRouting: objects go to the CRD of their kind; unknown kinds are errors.
        (["validate", "--crd", kep, "--crd", str(TD / "budget" / "crd.yaml"), "@objs.yaml"], None),
        (["validate", "-o", "json", "--crd", kep, "--crd", str(TD / "budget" / "crd.yaml"), "@objs.yaml"], None),
        (["validate", "--crd", str(TD / "invalid" / "crd.yaml"), "@objs.yaml"], None),
        (["validate", "--crd", str(TD / "invalid" / "fields-crd.yaml"), "-"], b'{"apiVersion":"v1","kind":"ConfigMap"}'),
        (["validate", "--crd", kep, "-"], b'{"apiVersion":"example.com/v2","kind":"WebApp","metadata":{"name":"a"}}'),
        (["validate", "-o", "json", "--crd", kep, "-"], b'{"apiVersion":"example.com/v1","kind":"WebApp","metadata":{"name":"singleton","namespace":"x"},"spec":{"replicas":1}}'),
        (["validate", "--crd", kep, "--old", "@list.json", "@list.json", "@empty-list.yaml", "@unicode.yaml"], None),
        (["validate", "--crd", kep, "-", "@not-objects.yaml"], b"just a string\n---\n- a list\n"),
        (["validate", "-o", "json", "--crd", kep, "@not-objects.yaml"], None),
        # stdin for the CRD and the objects: read once, then empty.
        (["validate", "--crd", "-", "-"], (TD / "kep" / "crd.yaml").read_bytes()),
        (["validate", "--crd", "-", "-o", "json", str(TD / "kep" / "valid.yaml")], b'{"apiVersion":"apiextensions.k8s.io/v1beta1","kind":"CustomResourceDefinition"}'),
        (["cost", "--crd", "-"], (TD / "budget" / "crd.yaml").read_bytes()),
        # Usage and input errors.
        (["validate", str(TD / "kep" / "valid.yaml")], None),
        (["validate", "--crd", kep], None),
        (["validate", "--crd", kep, "-o", "yaml", "-"], None),
        (["validate", "--crd", str(TD / "kep" / "valid.yaml"), str(TD / "kep" / "valid.yaml")], None),
        (["validate", "--crd", kep, "-"], b"a: [unclosed"),
        (["validate", "--crd", kep, "/nonexistent.yaml"], None),
        (["validate", "--crd", "/nonexistent.yaml", "x.yaml"], None),
        (["validate", "--crd", str(TD / "kep"), "x.yaml"], None),
        (["validate", "--crd", "@empty-list.yaml", "x.yaml"], None),
        (["validate", "--crd", kep, "--engine", "nope", str(TD / "kep" / "valid.yaml")], None),
        (["validate", "--crd", kep, "--show-rules=maybe", "x"], None),
        (["validate", "-h"], None),
        (["validate", "--crd"], None),
        (["cost"], None),
        (["cost", "--crd", kep, "extra"], None),
        (["cost", "-o", "yaml", "--crd", kep], None),
        (["cost", "--help"], None),
        (["cost", "--nope"], None),
    ]
    return cases


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> List[Case]:
    return _cases(load_corpus(gohost_binary(tmp_path_factory)))


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("cli-crd")
    for name, data in FILES.items():
        (d / name).write_text(data, "utf-8")
    return d


def _materialize(args: List[str], d: Path) -> List[str]:
    return [str(d / a[1:]) if a.startswith("@") else a for a in args]


@pytest.fixture(scope="module")
def go_results(cases: List[Case], files: Path) -> Dict[int, Tuple[int, bytes, bytes]]:
    assert GO is not None

    def run(i: int) -> Tuple[int, Tuple[int, bytes, bytes]]:
        args, stdin = cases[i]
        # The Go CLI on wasmtime-go (the same bytes as on wazero, faster at compiling CRDs); a
        # case's own --engine comes later and wins.
        argv = _materialize(args, files)
        argv = argv[:1] + ["--engine", "wasmtime"] + argv[1:]
        p = subprocess.run([GO] + argv, input=stdin or b"", capture_output=True, timeout=300, cwd=files)
        return i, (p.returncode, p.stdout, p.stderr)

    with ThreadPoolExecutor(max_workers=2) as ex:
        return dict(ex.map(run, range(len(cases))))


def _py(args: List[str], stdin: Optional[bytes]) -> Tuple[int, bytes, str]:
    out, err = io.BytesIO(), io.StringIO()
    rc = _cli.run(args, stdin=io.BytesIO(stdin or b""), stdout=out, stderr=err)
    return rc, out.getvalue(), err.getvalue()


def test_same_output_as_go(cases: List[Case], files: Path, go_results: Dict[int, Tuple[int, bytes, bytes]]) -> None:
    differ = []
    for i, (args, stdin) in enumerate(cases):
        rc, out, err = _py(_materialize(args, files), stdin)
        go_rc, go_out, go_err = go_results[i]
        name = " ".join(Path(a).name if "/" in a else a for a in args)[:120]
        if (rc, out) != (go_rc, go_out):
            differ.append("%s: exit %d/%d, stdout differs: %s" % (name, rc, go_rc, out != go_out))
        # A YAML parser's error text is its own (go-yaml's, libyaml's).
        elif b": yaml: " not in go_err and without_compile_line(err) != without_compile_line(go_err.decode("utf-8")):
            differ.append("%s: stderr differs:\n%s\n---\n%s" % (name, err, go_err.decode("utf-8")))
    # Every case runs (one test, since the cases come from the corpus the Go driver resolves at
    # test time); the message lists each that differs.
    assert not differ, "%d of %d cases differ:\n%s" % (len(differ), len(cases), "\n".join(differ))
    assert len(cases) >= 50


def test_the_cases_cover_every_outcome(go_results: Dict[int, Tuple[int, bytes, bytes]]) -> None:
    assert {rc for rc, _, _ in go_results.values()} == {0, 1, 2}
    out = b"".join(o for _, o, _ in go_results.values())
    err = b"".join(e for _, _, e in go_results.values())
    for needle in (b": valid (create, rule cost ", b": invalid (update, ", b"(create, rules not run)", b"rule cost limit exceeded", b"Warning: unknown field",
                   b"  EXCEEDS 10,000,000", b"fix: maxItems", b"does not compile: ", b"no x-kubernetes-validations", b'"costBudget": 10000000',
                   b"no CustomResourceDefinition for kind", b"a document is not an object", b'"rules": null', b": rule \""):
        assert needle in out, needle
    for needle in (b'The CustomResourceDefinition "', b"Usage: celwasm validate", b"Usage: celwasm cost", b"  -crd file\n", b"is not a CustomResourceDefinition",
                   b"invalid_crd: ", b"no such file or directory"):
        assert needle in err, needle


def test_python_dash_m_celwasm(cases: List[Case], files: Path, go_results: Dict[int, Tuple[int, bytes, bytes]]) -> None:
    # The entry point as a user runs it, for one validate with updates and one cost report.
    for want in (["validate", "--show-rules", "-o", "json"], ["cost", "-v", "-o", "json"]):
        i = next(j for j, (a, _) in enumerate(cases) if a[: len(want)] == want)
        args, stdin = cases[i]
        p = subprocess.run([sys.executable, "-m", "celwasm"] + _materialize(args, files), input=stdin or b"", capture_output=True, timeout=300, cwd=files, env=dict(os.environ))
        assert (p.returncode, p.stdout, p.stderr) == go_results[i], args
