"""Activation dicts cut down to what a program reads (docs/abi.md, compile
``reads``): the module must answer exactly what it answers for the whole
document sent as JSON text — for every Kubernetes corpus case with an
activation, through eval and eval_batch — and only what is read is encoded."""

from __future__ import annotations

import json
from typing import Any, Dict, Tuple

import celwasm
from celwasm import CelError, InvalidArgumentError
from celwasm._runtime import _projected

from conftest import REPO


def _outcome(f: Any) -> Tuple[Any, ...]:
    try:
        r = f()
        return ("value", r.json, r.cost)
    except CelError as e:
        return ("error", e.code, e.cost)


def _batched(r: Any) -> Tuple[Any, ...]:
    if isinstance(r, CelError):
        return ("error", r.code, r.cost)
    return ("value", r.json, r.cost)


def _corpus() -> list:
    out = []
    for line in (REPO / "conformance" / "corpus" / "k8s.jsonl").read_text().splitlines():
        c = json.loads(line)
        if c.get("eval", {}).get("activation"):
            out.append(c)
    return out


def test_corpus_dicts_answer_as_their_json(rt: celwasm.Runtime) -> None:
    cases = _corpus()
    assert len(cases) >= 80
    cut = 0
    for c in cases:
        env = c["compile"]["env"]
        e = rt.env(
            [(v["name"], v["type"]) for v in env.get("variables", [])],
            compatibility_version=env.get("compatibilityVersion"),
            stored_expressions=env.get("envType") == "StoredExpressions",
            base=env.get("base", "kubernetes"),
            extensions=env.get("extensions", ()),
        )
        p = e.compile(c["compile"]["expression"])
        assert p.reads is not None, c["id"]
        act: Dict[str, Any] = c["eval"]["activation"]
        text = json.dumps(act).encode()
        want = _outcome(lambda: p.eval(text))
        assert _outcome(lambda: p.eval(act)) == want, c["id"]
        (batched,) = p.eval_batch([act], celwasm.ACTIVATIONS)
        assert _batched(batched) == want, c["id"]
        if json.dumps(_projected(act, p.reads)) != json.dumps(act):
            cut += 1
        p.close()
    assert cut > 0, "no corpus activation was cut"


def test_only_what_is_read_is_encoded(rt: celwasm.Runtime) -> None:
    p = rt.env({"ce": "map(string, dyn)", "data": "dyn"}).compile(
        'ce.type == "com.github.pull.create" && ce.source.startsWith("https://github.com")'
    )
    assert p.reads == {"ce": {"source": True, "type": True}}
    ce = {"type": "com.github.pull.create", "source": "https://github.com/x", "id": "1"}
    # object() has no CEL form: sent, it is InvalidArgumentError; unread, it is never looked at.
    doc = {"ce": dict(ce, ext=object()), "data": {"big": "x" * (1 << 20), "o": object()}}
    r = p.eval(doc)
    assert r.value is True
    assert r.cost == p.eval(json.dumps({"ce": {"type": ce["type"], "source": ce["source"]}})).cost
    assert _projected(doc, p.reads) == {"ce": {"source": ce["source"], "type": ce["type"]}}
    try:
        p.eval({"ce": dict(ce, type=object())})
        raise AssertionError("an unencodable value that is read must fail")
    except InvalidArgumentError:
        pass


def test_values_that_are_not_str_keyed_dicts_stay_whole(rt: celwasm.Runtime) -> None:
    e = rt.env({"self": "dyn"})
    p = e.compile("self.a.b == 1")
    assert p.reads == {"self": {"a": {"b": True}}}
    # Keys JSON would rename (an int becomes "1"): the dict is sent whole, as before.
    odd = {"a": {"b": 1, 2: "x"}, "z": 0}
    assert _projected({"self": odd}, p.reads) == {"self": {"a": {"b": 1, 2: "x"}}}
    assert p.evaluate({"self": odd}) is True
    lists = e.compile("self.items[0].name")
    assert lists.reads == {"self": {"items": True}}
    items = [{"name": "a", "other": 1}]
    assert _projected({"self": {"items": items, "skip": 1}}, lists.reads) == {"self": {"items": items}}
    assert e.compile("1 + 1").reads == {}
    assert rt.env({"self": "dyn"}, disable_type_check=True).compile("self.a").reads is None
