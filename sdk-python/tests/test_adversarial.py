"""The adversarial corpus (conformance/adversarial/cases.jsonl, docs/reliability.md)
through the Python SDK: each case's one expected outcome (a value or an error code),
and the canary answering on the same one-instance runtime after every case."""

from __future__ import annotations

import json
from typing import Any, Iterator, List, Tuple

import pytest

import celwasm

from conftest import REPO

CORPUS = REPO / "conformance" / "adversarial" / "cases.jsonl"


def pieces(p: Any) -> bytes:
    if isinstance(p, str):
        return p.encode()
    out = []
    for piece, count in p:
        b = bytes.fromhex(piece["hex"]) if isinstance(piece, dict) else piece.encode()
        out.append(b * count)
    return b"".join(out)


def load() -> List[dict]:
    cases = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]
    assert len(cases) >= 50 and cases[0]["id"] == "canary"
    return cases


CASES = load()


@pytest.fixture(scope="module")
def one() -> Iterator[celwasm.Runtime]:
    rt = celwasm.Runtime(instances=1)
    yield rt
    rt.close()


def outcome(rt: celwasm.Runtime, c: dict) -> Tuple[Any, str]:
    try:
        prg = rt.env(c["variables"]).compile(pieces(c["expression"]).decode())
    except celwasm.CelError as e:
        return None, e.code
    try:
        kw = {"cost_limit": c["costLimit"]} if "costLimit" in c else {}
        return json.loads(prg.eval(pieces(c["activation"]), **kw).json), ""
    except celwasm.CelError as e:
        return None, e.code
    finally:
        prg.close()


@pytest.mark.parametrize("case", CASES[1:], ids=[c["id"] for c in CASES[1:]])
def test_case(one: celwasm.Runtime, case: dict) -> None:
    value, code = outcome(one, case)
    want = case["expect"]
    if "error" in want:
        assert code == want["error"], (value, code)
    else:
        assert (code, value) == ("", want["value"])
    assert outcome(one, CASES[0]) == (CASES[0]["expect"]["value"], "")
