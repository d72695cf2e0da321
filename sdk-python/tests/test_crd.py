"""CustomResourceDefinition validation (CRD.validate, CRD.cost) compared with
the Go host (github.com/celwasm/celwasm/host: NewCRD, Validate, Cost) over the
CRD corpus of conformance/testdata/crd — its CRDs, creates and updates, the
real CRDs it fetches into the Go module cache (gateway-api, karpenter), the
CRDs kube-apiserver rejects — and over bad input.

conformance/cmd/gohost reads the corpus as the differential test does
(conformance/crdref) and runs every case through the Go host at test time;
nothing below is an expected value typed by hand. Each answer, written as Go's
json.Marshal writes the Go host's structs, must be byte for byte the Go
host's.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
import time
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

import pytest

import celwasm
from celwasm import (
    CRD,
    BadRequestError,
    CelError,
    CRDCostReport,
    CRDObject,
    CRDValidation,
    FieldError,
    InvalidArgumentError,
    InvalidCRDError,
    InvalidObjectError,
    ObjectResult,
)
from celwasm._crd import go_json, go_struct
from celwasm._gocompat import go_compact_html, go_encode

from conftest import REPO

CORPUS_DIR = REPO / "conformance" / "testdata" / "crd"


def gohost_binary(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The Go driver: CELWASM_GO_HOST (make test builds it once), or built here."""
    binary = os.environ.get("CELWASM_GO_HOST", "")
    if binary:
        return binary
    exe = shutil.which("go")
    if exe is None:
        pytest.skip("Go is needed to run the Go host (conformance/cmd/gohost)")
    binary = str(tmp_path_factory.mktemp("gohost") / "gohost")
    subprocess.run([exe, "build", "-buildvcs=false", "-o", binary, "./conformance/cmd/gohost"], cwd=REPO, check=True, timeout=900)
    return binary


@pytest.fixture(scope="module")
def gohost(tmp_path_factory: pytest.TempPathFactory) -> str:
    return gohost_binary(tmp_path_factory)


def load_corpus(gohost: str) -> List[Dict[str, Any]]:
    """The corpus as crdref reads it (modules fetched into the Go module cache)."""
    p = subprocess.run([gohost, "-crd-corpus", str(CORPUS_DIR)], capture_output=True, timeout=900)
    assert p.returncode == 0, p.stderr.decode("utf-8", "replace")
    return [json.loads(line) for line in p.stdout.decode("utf-8").splitlines()]


@pytest.fixture(scope="module")
def corpus(gohost: str) -> List[Dict[str, Any]]:
    return load_corpus(gohost)


def _docs(files: List[Dict[str, Any]]) -> List[str]:
    return [d for f in files for d in f["docs"]]


def _group_kind(crd: str) -> Tuple[str, str]:
    spec = json.loads(crd).get("spec") or {}
    return spec.get("group", ""), (spec.get("names") or {}).get("kind", "")


Key = Tuple[str, str, str, str]


def _key_of(doc: str) -> Optional[Key]:
    try:
        o = json.loads(doc)
    except ValueError:
        return None
    if not isinstance(o, dict):
        return None
    av = o.get("apiVersion") if isinstance(o.get("apiVersion"), str) else ""
    i = av.rfind("/")
    md = o.get("metadata") if isinstance(o.get("metadata"), dict) else {}
    return (av[:i] if i >= 0 else "", o.get("kind", ""), md.get("namespace", ""), md.get("name", ""))


def _lookup_old(olds: Dict[Key, str], k: Key) -> Optional[str]:
    if k in olds:
        return olds[k]
    alt = "default" if k[2] == "" else "" if k[2] == "default" else k[2]
    return olds.get((k[0], k[1], alt, k[3]))


def corpus_cases(corpus: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """Per CRD: one validate with its creates and updates (paired with the
    stored objects as the Go CLI pairs them) and one cost report; for CRDs with
    several versions, the same against another version."""
    out: List[Dict[str, Any]] = []
    for c in corpus:
        olds: Dict[Key, str] = {}
        for d in _docs((c.get("updates") or {}).get("old", [])):
            k = _key_of(d)
            if k is not None:
                olds[k] = d
        for ci, crd in enumerate(_docs(c["crds"])):
            group, kind = _group_kind(crd)

            def mine(d: str) -> Optional[Key]:
                k = _key_of(d)
                return k if k is not None and k[0] == group and k[1] == kind else None

            creates = [{"object": d} for d in _docs(c["valid"] + c["invalid"]) if mine(d)]
            updates = []
            u = c.get("updates") or {}
            for d in _docs(u.get("valid", []) + u.get("invalid", [])):
                k = mine(d)
                if k is not None:
                    o = {"object": d}
                    old = _lookup_old(olds, k)
                    if old is not None:
                        o["oldObject"] = old
                    updates.append(o)
            name = "%s/%d:%s" % (c["name"], ci, kind)
            out.append({"name": name, "creates": len(creates), "updates": len(updates), "input": {"crd": crd, "validate": True, "objects": creates + updates, "cost": True}})
            versions = [v["name"] for v in (json.loads(crd).get("spec") or {}).get("versions") or []]
            if len(versions) > 1 and not c["crdErrors"]:
                out.append({"name": "%s@%s" % (name, versions[-1]), "input": {"crd": crd, "version": versions[-1], "validate": True, "objects": (creates + updates)[:8], "cost": True}})
    return out


def bad_cases(corpus: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    kep = next(c for c in corpus if c["name"] == "kep")
    kep_crd = kep["crds"][0]["docs"][0]
    valid = kep["valid"][0]["docs"][0]
    gw = next(c for c in corpus if c["name"] == "gateway-api")
    httproute = next(d for d in _docs(gw["crds"]) if _group_kind(d)[1] == "HTTPRoute")
    foreign = next(d for d in _docs(gw["valid"]) if (_key_of(d) or ("",))[0] != "gateway.networking.k8s.io")
    objects = [
        {"object": o}
        for o in (
            '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm"}}',
            "[1]",
            '"a string"',
            "42",
            "null",
            '{"metadata":{"name":"x"}}',
            '{"apiVersion":"example.com/v2","kind":"WebApp","metadata":{"name":"a"}}',
            '{"apiVersion":"example.com/v1","kind":"WebApp","metadata":{"name":7}}',
            valid,
        )
    ]
    v1 = '{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"xs.example.com"}'
    return [
        {"name": "bad:crd not JSON", "input": {"crd": '{"apiVersion": ', "validate": True, "objects": [{"object": valid}], "cost": True}},
        {"name": "bad:crd v1beta1", "input": {"crd": '{"apiVersion":"apiextensions.k8s.io/v1beta1","kind":"CustomResourceDefinition"}', "validate": True, "objects": [{"object": valid}], "cost": True}},
        {"name": "bad:crd ConfigMap", "input": {"crd": '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm"},"data":{"a":"b"}}', "validate": True, "objects": [], "cost": True}},
        {"name": "bad:crd array", "input": {"crd": '[{"kind":"CustomResourceDefinition"}]', "validate": True, "objects": [], "cost": True}},
        {"name": "bad:crd null", "input": {"crd": "null", "validate": True, "objects": [], "cost": True}},
        {"name": "bad:crd missing group", "input": {"crd": '{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition"}', "validate": True, "objects": [], "cost": True}},
        {"name": "bad:crd no versions", "input": {"crd": v1 + ',"spec":{"group":"example.com","names":{"kind":"X","plural":"xs"},"scope":"Namespaced"}}', "validate": True, "objects": [], "cost": True}},
        {"name": "bad:crd wrong field type", "input": {"crd": v1 + ',"spec":{"group":5}}', "validate": True, "objects": [], "cost": True}},
        {"name": "bad:objects", "input": {"crd": kep_crd, "validate": True, "objects": objects}},
        {"name": "bad:object of another kind (gateway-api)", "input": {"crd": httproute, "validate": True, "objects": [{"object": foreign}, {"object": foreign, "oldObject": foreign}]}},
        {"name": "bad:object not JSON", "input": {"crd": kep_crd, "validate": True, "objects": [{"object": valid}, {"object": '{"apiVersion":'}]}},
        {"name": "bad:oldObject not an object", "input": {"crd": kep_crd, "validate": True, "objects": [{"object": valid, "oldObject": "[]"}]}},
        {"name": "bad:version", "input": {"crd": kep_crd, "version": "v9", "validate": True, "objects": [{"object": valid}], "cost": True}},
        {"name": "bad:no objects", "input": {"crd": kep_crd, "validate": True, "objects": []}},
    ]


@pytest.fixture(scope="module")
def go(gohost: str, corpus: List[Dict[str, Any]], module: celwasm.Module) -> Dict[str, Dict[str, Any]]:
    """Every case through one Go host runtime (wasmtime-go: the same bytes as
    wazero, faster at compiling CRDs) on the same module file."""
    cases = corpus_cases(corpus) + bad_cases(corpus)
    stdin = "".join(json.dumps(c["input"], ensure_ascii=False) + "\n" for c in cases).encode("utf-8")
    p = subprocess.run([gohost, "-module", str(module.path), "-engine", "wasmtime"], input=stdin, capture_output=True, timeout=900)
    assert p.returncode == 0, p.stderr.decode("utf-8", "replace")
    lines = p.stdout.decode("utf-8").splitlines()
    assert len(lines) == len(cases)
    return {c["name"]: dict(c, go=json.loads(line)) for c, line in zip(cases, lines)}


@pytest.fixture(scope="module")
def rt1(module: celwasm.Module) -> Iterator[celwasm.Runtime]:
    r = celwasm.Runtime(instances=1, module=module)
    yield r
    r.close()


def failure(e: CelError) -> str:
    """A failed call as gohost writes it: {"error": E, "fieldErrors": [...]}."""
    err: Dict[str, Any] = {"code": e.code, "message": e.message}
    if e.cost is not None:
        err["cost"] = e.cost
    o: Dict[str, Any] = {"error": err}
    if isinstance(e, InvalidCRDError) and e.field_errors:
        o["fieldErrors"] = [go_struct(f) for f in e.field_errors]
    return go_encode(o)


def answers(rt: celwasm.Runtime, inp: Dict[str, Any], *, as_data: bool = False) -> Dict[str, str]:
    """A case's validate and cost through the SDK, as Go marshals the answers."""
    conv = json.loads if as_data else (lambda s: s)
    out: Dict[str, str] = {}
    try:
        crd: Optional[CRD] = rt.crd(conv(inp["crd"]))
        arg_error: Optional[CelError] = None
    except CelError as e:
        crd, arg_error = None, e  # invalid_argument: the Go host fails the call instead
    version = inp.get("version")
    if inp.get("validate"):
        if crd is None:
            assert arg_error is not None
            out["validate"] = failure(arg_error)
        else:
            objs = [CRDObject(conv(o["object"]), conv(o["oldObject"]) if o.get("oldObject") else None) for o in inp["objects"]]
            try:
                out["validate"] = go_json(crd.validate(objs, version=version))
            except CelError as e:
                out["validate"] = failure(e)
    if inp.get("cost"):
        if crd is None:
            assert arg_error is not None
            out["cost"] = failure(arg_error)
        else:
            try:
                out["cost"] = go_json(crd.cost(version=version))
            except CelError as e:
                out["cost"] = failure(e)
    return out


def assert_same_as_go(name: str, got: Dict[str, str], want: Dict[str, Any]) -> None:
    """Byte for byte, except an invalid_argument's message (Go's JSON parser
    words it)."""
    assert set(got) == set(want), name
    for k, w in want.items():
        if json.loads(w).get("error", {}).get("code") == "invalid_argument":
            assert json.loads(got[k])["error"]["code"] == "invalid_argument", (name, k, got[k])
            continue
        assert got[k] == w, "%s: %s" % (name, k)


def test_corpus_same_as_go(go: Dict[str, Dict[str, Any]], rt1: celwasm.Runtime) -> None:
    creates = updates = compared = 0
    for name, c in go.items():
        if name.startswith("bad:"):
            continue
        assert_same_as_go(name, answers(rt1, c["input"]), c["go"])
        creates += c.get("creates", 0)
        updates += c.get("updates", 0)
        compared += 1
    # As the differential test demands of the corpus (conformance/crd).
    assert compared >= 19 and creates >= 140 and updates >= 32, (compared, creates, updates)
    # What the Go host answered covers the shapes.
    text = "\n".join(c["go"].get("validate", "") + c["go"].get("cost", "") for c in go.values())
    for needle in ('"valid":false', '"rule":{"schemaPath"', '"warnings":[', '"celSkipped":true', '"costExceeded":true', '"operation":"update"',
                   '"fieldErrors":[', '"exceeds":true', '"fixes":[', '"combinedFix":[', '"rules":null', '"code":"invalid_crd"', '"unknownSizes":[', '"runsFromRequestSize":true'):
        assert needle in text, needle


def test_data_instead_of_text_same_bytes(go: Dict[str, Dict[str, Any]], rt1: celwasm.Runtime) -> None:
    # Mappings are sent as their JSON (then compacted as the Go host does): the same sha256,
    # the same answers.
    for name, c in go.items():
        if name.startswith(("kep/", "budget/", "karpenter/")):
            assert_same_as_go(name, answers(rt1, c["input"], as_data=True), c["go"])


def test_yaml_text_converted_as_the_go_cli(corpus: List[Dict[str, Any]], go: Dict[str, Dict[str, Any]], rt1: celwasm.Runtime) -> None:
    # Every CRD file of the corpus holding one document, as YAML text: the JSON sent is the
    # Go CLI's (sigs.k8s.io/yaml), byte for byte — so the module sees the same CRD.
    n = 0
    for c in corpus:
        for f in c["crds"]:
            if len(f["docs"]) != 1:
                continue
            text = Path(f["file"]).read_text("utf-8")
            assert CRD(text, runtime=rt1).json == go_compact_html(f["docs"][0].encode("utf-8")), f["file"]
            assert CRD(text.encode("utf-8"), runtime=rt1).json == CRD(text, runtime=rt1).json
            n += 1
    assert n >= 15
    # And the answers: the KEP CRD and its stored objects as YAML documents.
    kep = next(c for c in corpus if c["name"] == "kep")
    want = json.loads(go["kep/0:WebApp"]["go"]["cost"])
    assert rt1.crd((CORPUS_DIR / "kep" / "crd.yaml").read_bytes()).cost().crd.sha256 == want["crd"]["sha256"]
    yaml_docs = (CORPUS_DIR / "kep" / "valid.yaml").read_text("utf-8").split("\n---\n")
    from_yaml = rt1.crd(kep["crds"][0]["docs"][0]).validate([d for d in yaml_docs if d.strip(" \n-#") and "kind: WebApp" in d])
    from_json = rt1.crd(kep["crds"][0]["docs"][0]).validate(_docs(kep["valid"]))
    assert go_json(from_yaml) == go_json(from_json)


def test_bad_input_typed_errors(go: Dict[str, Dict[str, Any]], rt1: celwasm.Runtime, corpus: List[Dict[str, Any]]) -> None:
    for name, c in go.items():
        if name.startswith("bad:"):
            assert_same_as_go(name, answers(rt1, c["input"]), c["go"])
    kep = next(c for c in corpus if c["name"] == "kep")
    crd = rt1.crd(kep["crds"][0]["docs"][0])
    # A CRD kube-apiserver would reject: InvalidCRDError with its field errors.
    nonstructural = next(c for c in corpus if c["name"] == "nonstructural")["crds"][0]["docs"][0]
    with pytest.raises(InvalidCRDError) as ei:
        rt1.crd(nonstructural).validate([kep["valid"][0]["docs"][0]])
    e = ei.value
    assert e.code == "invalid_crd" and len(e.field_errors) == 2
    assert all(isinstance(f, FieldError) and f.field.startswith("spec.validation.openAPIV3Schema.") and f.type.startswith("Field") for f in e.field_errors)
    assert str(e.field_errors[0]) == e.field_errors[0].field + ": " + e.field_errors[0].message
    # ... while cost reports it.
    rep = rt1.crd(nonstructural).cost()
    assert rep.valid is False and [f.field for f in rep.errors] == [f.field for f in e.field_errors]
    # Not a CRD: invalid_crd without field errors; no crd: bad_request.
    with pytest.raises(InvalidCRDError) as ei2:
        rt1.crd({"apiVersion": "v1", "kind": "ConfigMap"}).cost()
    assert ei2.value.field_errors == ()
    with pytest.raises(BadRequestError):
        rt1.crd("null").cost()
    # Objects the module cannot validate: InvalidObjectError in their place.
    v = crd.validate([{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm"}}, "[1]", "apiVersion: example.com/v2\nkind: WebApp\nmetadata: {name: a}\n", kep["valid"][0]["docs"][0]])
    assert [type(r) for r in v.results[:3]] == [InvalidObjectError] * 3
    assert all(isinstance(r, CelError) and r.code == "invalid_object" for r in v.results[:3])
    assert isinstance(v.results[3], ObjectResult) and v.results[3].valid
    # Arguments no host can send: InvalidArgumentError (a ValueError) before the module is called.
    for bad in ["{", "a: [unclosed", "a: 1\n---\nb: 2\n", "", 42, None, {"a": object()}, {"a": float("nan")}]:
        with pytest.raises(InvalidArgumentError):
            rt1.crd(bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError):
        crd.validate(['{"apiVersion":'])
    with pytest.raises(InvalidArgumentError):
        crd.validate({"object": "{}"})  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError):
        crd.validate(kep["valid"][0]["docs"][0])
    with pytest.raises(InvalidArgumentError):
        crd.validate([CRDObject("{}", old_object=b"- a\n---\n- b\n")])
    with pytest.raises(InvalidArgumentError):
        crd.cost(version=1)  # type: ignore[arg-type]


def test_typed_answers(go: Dict[str, Dict[str, Any]], rt1: celwasm.Runtime, corpus: List[Dict[str, Any]]) -> None:
    kep = next(c for c in corpus if c["name"] == "kep")
    crd = rt1.crd(kep["crds"][0]["docs"][0])
    rep = crd.cost()
    assert isinstance(rep, CRDCostReport) and rep.valid and rep.crd.name == "webapps.example.com"
    sc = rep.schemas[0]
    assert sc.total_limit == 100_000_000 and sc.versions == ("v1",)
    for r in sc.rules:
        assert r.cost == r.per_call * r.cardinality and r.limit == 10_000_000, r.path
        assert r.explanation is not None and r.explanation.summary.startswith("estimated cost ")
    v = crd.validate(_docs(kep["invalid"]))
    assert isinstance(v, CRDValidation) and len(v.results) == len(_docs(kep["invalid"]))
    r = next(x for x in v.results if isinstance(x, ObjectResult) and x.errors and x.errors[0].rule is not None)
    assert r.invalid and r.reason == "Invalid" and r.code == 422 and r.cost_budget == 10_000_000 and r.cost > 0
    assert r.describe().startswith('The WebApp "%s" is invalid: ' % r.name)
    assert r.errors[0].rule is not None and r.errors[0].rule.schema_path.startswith("openAPIV3Schema")
    # Saturated estimates (2^64−1) are exact ints.
    expensive = rt1.crd(next(c for c in corpus if c["name"] == "expensive")["crds"][0]["docs"][0]).cost()
    assert expensive.valid is False and expensive.schemas[0].total_cost == 2**64 - 1
    assert any(rc.exceeds and rc.explanation and rc.explanation.fixes for s in expensive.schemas for rc in s.rules)
    # A schema without rules: an empty tuple (the module's null).
    refgrant = next(c for c in go.values() if c["name"].endswith(":ReferenceGrant"))
    assert rt1.crd(refgrant["input"]["crd"]).cost().schemas[0].rules == ()
    # Updates through CRDObject; versions through the version argument.
    old = kep["updates"]["old"][0]["docs"][0]
    u = crd.validate([CRDObject(old, old_object=old)])
    assert isinstance(u.results[0], ObjectResult) and u.results[0].operation == "update"
    with pytest.raises(InvalidCRDError):
        crd.validate([old], version="v2")


def test_default_runtime_and_threads(corpus: List[Dict[str, Any]], module: celwasm.Module) -> None:
    # A CRD without a runtime uses the default runtime; a runtime is safe for concurrent use.
    kep = next(c for c in corpus if c["name"] == "kep")
    objs = _docs(kep["valid"]) + _docs(kep["invalid"])
    want = go_json(CRD(kep["crds"][0]["docs"][0]).validate(objs))
    with celwasm.Runtime(instances=2, module=module) as rt:
        crd = rt.crd(kep["crds"][0]["docs"][0])
        got: List[str] = []

        def run() -> None:
            got.append(go_json(crd.validate(objs)))

        threads = [threading.Thread(target=run) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert got == [want] * 4
        assert rt.instances <= 2


# A rule on each of 20 rows of 250 cells: within kube-apiserver's estimated
# and per-call limits, about 8,800,000 cost units for a full grid, which
# takes over 10 s in the module (host/crd_test.go).
GRID_CRD = {
    "apiVersion": "apiextensions.k8s.io/v1",
    "kind": "CustomResourceDefinition",
    "metadata": {"name": "grids.example.com"},
    "spec": {
        "group": "example.com",
        "scope": "Namespaced",
        "names": {"plural": "grids", "singular": "grid", "kind": "Grid", "listKind": "GridList"},
        "versions": [{"name": "v1", "served": True, "storage": True, "schema": {"openAPIV3Schema": {
            "type": "object",
            "properties": {"spec": {"type": "object", "properties": {"rows": {
                "type": "array", "maxItems": 20, "items": {
                    "type": "object",
                    "x-kubernetes-validations": [{"rule": "self.cells.all(i, self.cells.all(j, i + j >= 0))"}],
                    "properties": {"cells": {"type": "array", "maxItems": 250, "items": {"type": "integer"}}},
                }}}}},
        }}}],
    },
}


def grid(rows: int, cells: int) -> Dict[str, Any]:
    return {"apiVersion": "example.com/v1", "kind": "Grid", "metadata": {"name": "g", "namespace": "default"},
            "spec": {"rows": [{"cells": list(range(cells))} for _ in range(rows)]}}


def test_validate_timeout_interrupts_rules(rt1: celwasm.Runtime) -> None:
    crd = rt1.crd(GRID_CRD)
    small = crd.validate([grid(1, 3)])  # compiles the CRD in the instance
    assert isinstance(small.results[0], ObjectResult) and small.results[0].valid
    start = time.monotonic()
    with pytest.raises(celwasm.DeadlineExceededError):
        crd.validate([grid(20, 250)], timeout=0.2)
    assert time.monotonic() - start < 3
    # The instance goes on.
    again = crd.validate([grid(2, 5)])
    assert isinstance(again.results[0], ObjectResult) and again.results[0].valid
