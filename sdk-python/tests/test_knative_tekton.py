"""The Knative and Tekton vectors (conformance/testdata/knative/eventfilter.json,
conformance/testdata/tekton/when.json: Knative's eventfilter tests and Tekton's
when tests rebuilt as data) through the Python SDK."""

from __future__ import annotations

import json
from typing import Any, Dict, Iterator, List

import pytest

import celwasm
from celwasm import CompileError, EvaluationError

from conftest import TESTDATA

KNATIVE: List[Dict[str, Any]] = json.loads((TESTDATA / "knative" / "eventfilter.json").read_text("utf-8"))["cases"]
TEKTON: List[Dict[str, Any]] = json.loads((TESTDATA / "tekton" / "when.json").read_text("utf-8"))["cases"]


@pytest.fixture(scope="module")
def rt1(module: celwasm.Module) -> Iterator[celwasm.Runtime]:
    r = celwasm.Runtime(instances=1, module=module)
    yield r
    r.close()


def test_vector_counts() -> None:
    assert len(KNATIVE) >= 100 and len(TEKTON) >= 50


@pytest.mark.parametrize("c", KNATIVE, ids=[c["name"] for c in KNATIVE])
def test_knative_vector(rt1: celwasm.Runtime, c: Dict[str, Any]) -> None:
    if "error" in c:
        with pytest.raises(CompileError) as ei:
            rt1.env().compile_filter(c["filter"])
        assert c["error"] in ei.value.message
        return
    prg = rt1.env().compile_filter(c["filter"])
    assert prg.eval_event(c["event"]).value is c["deliver"], prg.expression


@pytest.mark.parametrize("c", TEKTON, ids=[c["name"] for c in TEKTON])
def test_tekton_vector(rt1: celwasm.Runtime, c: Dict[str, Any]) -> None:
    entries = [w if isinstance(w, str) else json.dumps(w) for w in c["when"]]
    if "error" in c:
        with pytest.raises(CompileError) as ei:
            rt1.env().compile_when(entries)
        assert c["error"] in ei.value.message
        return
    prg = rt1.env().compile_when(entries)
    if "evalError" in c:
        try:
            value = prg.evaluate(c["context"])
        except EvaluationError as e:
            assert c["evalError"] in e.message
            return
        assert not isinstance(value, bool), "%s: %r, want an error" % (c["name"], value)
        return
    assert prg.evaluate(c["context"]) is c["result"], prg.expression
