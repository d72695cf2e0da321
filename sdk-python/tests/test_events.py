"""CloudEvents trigger filters, Tekton when expressions, eval_event and
eval_batch, compared with the Go host (github.com/celwasm/celwasm/host) over
the same inputs.

The expectations come from conformance/cmd/gohost — the Go host's
CompileFilter, CompileWhen, Compile, Eval, EvalEvent and EvalBatch — built and
run here at test time on the same module file. Nothing below is an expected
value typed by hand.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional

import pytest
import yaml

import celwasm
from celwasm import (
    CLOUD_EVENTS,
    ACTIVATIONS,
    BadRequestError,
    CelError,
    ClosedError,
    CompileError,
    CostLimitExceededError,
    DeadlineExceededError,
    EvaluationError,
    InvalidActivationError,
    InvalidArgumentError,
    Result,
)
from celwasm._gocompat import go_compact, go_is_blank
from celwasm._runtime import _batch_line, _parse_batch

from conftest import REPO, TESTDATA

EVENTS_FILE = TESTDATA / "cloudevents" / "events.ndjson"
EVENTS = [line for line in EVENTS_FILE.read_text("utf-8").split("\n") if line.strip()]
FILTER_FILES = sorted(p.name for p in (TESTDATA / "filters").glob("*.yaml"))
PIPELINE_CONTEXT = (TESTDATA / "tekton" / "pipelinerun-context.json").read_text("utf-8")

# cmd/celwasm TestFilterRejects' filters (as JSON) and malformed events, and more.
REJECTED_FILTERS: List[Any] = [
    {"attributes": {"type": "a"}, "expression": "ce.type == 'a'"},
    {"regex": {"type": "a"}},
    {"exact": {"Type": "a"}},
    {"cesql": "type = "},
    {"exact": {"type": "a"}, "prefix": {"type": "b"}},
    {"expression": "ce.type =="},
    {"expression": "ce.type"},
    {"expression": "   "},
    {"spec": {"filters": {}}},
    "not a filter",
]
MALFORMED_EVENTS = [
    '{"specversion":"1.0","id":"1","source":"/s","type":"a"}',
    "{not json",
    '{"no":"specversion"}',
    '{"headers":{"ce-specversion":"1.0","ce-type":"a","content-type":"application/json"},"body":"{bad"}',
    '{"specversion":"1.0","id":"2","source":"/s","type":"b"}',
]
BINARY_EVENTS: List[Dict[str, Any]] = [
    {"headers": {"ce-specversion": "1.0", "ce-id": "b1", "ce-source": "/s", "ce-type": "a", "content-type": "application/json"}, "body": '{"n": 2, "s": "x"}'},
    {"headers": {"CE-SpecVersion": "1.0", "Ce-Id": "b2", "ce-source": "/s%2Fx", "ce-type": "a", "ce-tag": "caf%C3%A9"}, "body": "plain text"},
    {"headers": {"ce-specversion": "1.0", "ce-id": "b3", "ce-source": "/s", "ce-type": "a", "content-type": "application/octet-stream"}, "bodyBase64": "/wAB"},
    {"headers": {"ce-specversion": "1.0", "ce-id": "b4", "ce-source": "/s", "ce-type": "a", "ce-time": "2026-11-21T10:00:00+02:00", "content-type": "application/cloudevents-batch+json; charset=utf-8"}, "body": "[1]"},
    {"headers": {"ce-id": "b5", "ce-type": "a"}, "body": ""},
    {"specversion": "1.0", "id": "s1", "source": "/s", "type": "a", "data_base64": "aGk="},
    {"specversion": "1.0", "id": "s2", "source": "/s", "type": "a", "time": "not a time"},
]
CE_ENV = {"base": "cel", "variables": [{"name": "ce", "type": "map(string, dyn)"}, {"name": "data", "type": "dyn"}]}
BINARY_EXPR = (
    "[ce.type, ce.source, has(ce.tag) ? ce.tag : '', has(ce.time) ? string(ce.time) : '', "
    "has(ce.datacontenttype) ? ce.datacontenttype : '', "
    "type(data) == bytes ? string(data.size()) : type(data) == string ? data : type(data) == map ? 'map' : type(data) == list ? 'list' : 'other']"
)
WHEN_CASES: List[List[str]] = [
    ["$(params.path) == 'README.md'"],
    ["$(tasks.check-file.results.exists) in ['yes']"],
    ["$(tasks.echo-file-exists.status) == 'Succeeded'", "$(tasks.status) == 'Succeeded'", "$(tasks.check-file.results.exists) == 'yes'", "$(params.path) == 'README.md'"],
    ["$(params.param1) != '' || $(params.param2) == '8.5' || $(params.param2) == '8.6'"],
    ["$(tasks.unit-test.results.test-coverage) >= 0.9"],
    ["$(tasks.unit-test.results.test-coverage) >= 0.95"],
    ["$(params.branch).matches('release/.*')"],
    ["'foo' in ['foo', 'bar']", "!('duh' in ['foo', 'bar'])"],
    ["'refs/heads/$(params.branch)' == 'refs/heads/release/v1.2'"],
    ["$(context.pipelineRun.name).startsWith('guarded-pr-')", "$(params.path) == 'nope'"],
    ["$(params.injection) == 'x'"],
    ["'$(params.injection)' == 'x'"],
    ["$(params['injection']) == \"x' == 'x' || true || 'y\""],
    ["$(params.path)"],
    ["$(workspaces.source.path) == ''"],
    ["$(params.nope) == ''"],
    ["$(params.path) =="],
    [],
]
WHEN_ACTIVATIONS = [PIPELINE_CONTEXT, "{}"]
WHEN_BATCH = [PIPELINE_CONTEXT, "{}", '{"params":{"path":"README.md"}}']
ACTIVATION_ITEMS = [
    '{"x":1}',
    '{"x":',
    '{"x":\n  41}',
    "",
    "   ",
    "\u00a0\u3000",
    '{"x": 2,\r\n "y": "ignored"}',
    "[1]",
    '{"x":"7"}',
    '{"x":9223372036854775807}',
    "null",
    '{"x":\n',
    "\n",
    '{"x":3}',
]
INT_ENV = {"base": "cel", "variables": [{"name": "x", "type": "int"}]}
COST_FILTER = {"expression": "ce.source.matches('github') && data.action == 'opened'"}


def _filter_json(name: str) -> str:
    return json.dumps(yaml.safe_load((TESTDATA / "filters" / name).read_text("utf-8")), separators=(",", ":"))


def _cases() -> Dict[str, Dict[str, Any]]:
    c: Dict[str, Dict[str, Any]] = {}
    for f in FILTER_FILES:
        c["file:" + f] = {"filter": json.loads(_filter_json(f)), "events": EVENTS, "batch": {"kind": CLOUD_EVENTS, "items": EVENTS}}
    for i, f in enumerate(REJECTED_FILTERS):
        c["reject:%d" % i] = {"filter": f, "events": MALFORMED_EVENTS, "batch": {"kind": CLOUD_EVENTS, "items": MALFORMED_EVENTS}}
    c["ok:malformed"] = {"filter": {"attributes": {"type": "a"}}, "events": MALFORMED_EVENTS, "batch": {"kind": CLOUD_EVENTS, "items": MALFORMED_EVENTS}}
    binary = [json.dumps(e) for e in BINARY_EVENTS]
    c["binary"] = {"expression": BINARY_EXPR, "env": CE_ENV, "events": binary, "batch": {"kind": CLOUD_EVENTS, "items": binary}}
    c["costLimit"] = {"filter": COST_FILTER, "costLimit": 10, "events": EVENTS, "batch": {"kind": CLOUD_EVENTS, "items": EVENTS}}
    for i, w in enumerate(WHEN_CASES):
        c["when:%d" % i] = {"when": w, "activations": WHEN_ACTIVATIONS, "batch": {"kind": ACTIVATIONS, "items": WHEN_BATCH}}
    c["activations"] = {
        "expression": "x + 1",
        "env": INT_ENV,
        "activations": [a for a in ACTIVATION_ITEMS if a.strip()],
        "batch": {"kind": ACTIVATIONS, "items": ACTIVATION_ITEMS},
    }
    c["activations:empty"] = {"expression": "x + 1", "env": INT_ENV, "batch": {"kind": ACTIVATIONS, "items": []}}
    c["activations:kind"] = {"expression": "1", "env": {"base": "cel"}, "batch": {"kind": "rows", "items": ["{}"]}}
    return c


CASES = _cases()


@pytest.fixture(scope="module")
def go(tmp_path_factory: pytest.TempPathFactory, module: celwasm.Module) -> Dict[str, Dict[str, Any]]:
    """Every case through the Go host (one process, one runtime). The driver is
    built here (quick with Go's build cache) unless CELWASM_GO_HOST names a
    built one."""
    binary = os.environ.get("CELWASM_GO_HOST", "")
    if not binary:
        exe = shutil.which("go")
        if exe is None:
            pytest.skip("Go is needed to run the Go host (conformance/cmd/gohost)")
        binary = str(tmp_path_factory.mktemp("gohost") / "gohost")
        subprocess.run([exe, "build", "-buildvcs=false", "-o", binary, "./conformance/cmd/gohost"], cwd=REPO, check=True, timeout=600)
    names = list(CASES)
    stdin = "".join(json.dumps(CASES[n], ensure_ascii=False) + "\n" for n in names).encode("utf-8")
    p = subprocess.run([binary, "-module", str(module.path)], input=stdin, capture_output=True, timeout=600)
    assert p.returncode == 0, p.stderr.decode("utf-8", "replace")
    lines = p.stdout.decode("utf-8").splitlines()
    assert len(lines) == len(names), p.stderr
    return {n: json.loads(line) for n, line in zip(names, lines)}


@pytest.fixture(scope="module")
def rt1(module: celwasm.Module) -> Iterator[celwasm.Runtime]:
    r = celwasm.Runtime(instances=1, module=module)
    yield r
    r.close()


def _env(rt: celwasm.Runtime, spec: Optional[Dict[str, Any]]) -> celwasm.Env:
    spec = spec or {}
    variables = [(v["name"], v["type"]) for v in spec.get("variables", [])]
    return rt.env(variables, base=spec.get("base", "kubernetes"), extensions=spec.get("extensions", ()))


def _error(e: CelError) -> Dict[str, Any]:
    """An error as the Go host's *Error marshals it."""
    o: Dict[str, Any] = {"code": e.code, "message": e.message}
    issues = getattr(e, "issues", None)
    if issues:
        o["issues"] = [{"line": i.line, "column": i.column, "message": i.message, "snippet": i.snippet} for i in issues]
    if e.cost is not None:
        o["cost"] = e.cost
    return o


def _result(r: Any) -> Dict[str, Any]:
    if isinstance(r, CelError):
        return {"error": _error(r)}
    assert isinstance(r, Result)
    return {"json": r.json.decode("utf-8"), "cost": r.cost}


def _attempt(f: Any) -> Dict[str, Any]:
    try:
        return _result(f())
    except CelError as e:
        return {"error": _error(e)}


def _run_case(rt: celwasm.Runtime, case: Dict[str, Any], compile: Any = None) -> Dict[str, Any]:
    """The case as the Go driver ran it, through the Python SDK; the same shape."""
    env = _env(rt, case.get("env"))
    out: Dict[str, Any] = {}
    try:
        if compile is not None:
            prg = compile(env)
        elif "filter" in case:
            prg = env.compile_filter(case["filter"])
        elif "when" in case:
            prg = env.compile_when(case["when"])
        else:
            prg = env.compile(case["expression"])
    except CelError as e:
        out["compile"] = {"error": _error(e)}
        return out
    with prg:
        c: Dict[str, Any] = {"expression": prg.expression, "outputType": prg.output_type}
        if prg.cost_estimate is not None:
            c["costEstimate"] = {"min": str(prg.cost_estimate.min), "max": str(prg.cost_estimate.max)}
        out["compile"] = c
        limit = case.get("costLimit")
        if case.get("events"):
            out["events"] = [_attempt(lambda e=e: prg.eval_event(e, cost_limit=limit)) for e in case["events"]]
        if case.get("activations"):
            out["activations"] = [_attempt(lambda a=a: prg.eval(a, cost_limit=limit)) for a in case["activations"]]
        if "batch" in case:
            try:
                results = prg.eval_batch(case["batch"]["items"], case["batch"]["kind"], cost_limit=limit)
                out["batch"] = [_result(r) for r in results]
            except CelError as e:
                out["batch"] = {"error": _error(e)}
    return out


def _request_offsets(x: Any) -> Any:
    """x with the module's "eval request: invalid JSON at offset N" made
    "offset _": N counts from the start of the eval request, whose program
    handle has as many digits as programs were compiled before it in that
    module, which differs between this test's runtime and the Go driver's
    since programs are split between celwasm and celwasm-full."""
    if isinstance(x, dict):
        return {k: _request_offsets(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_request_offsets(v) for v in x]
    if isinstance(x, str) and x.startswith("eval request: invalid JSON at offset "):
        return re.sub(r"^(eval request: invalid JSON at offset )\d+", r"\1_", x)
    return x


def _same(rt: celwasm.Runtime, go: Dict[str, Dict[str, Any]], name: str, compile: Any = None) -> Dict[str, Any]:
    got = _run_case(rt, CASES[name], compile)
    assert _request_offsets(got) == _request_offsets(go[name]), name
    return got


@pytest.mark.parametrize("name", FILTER_FILES)
def test_filter_fixture_same_as_go(rt1: celwasm.Runtime, go: Dict[str, Dict[str, Any]], name: str) -> None:
    # Every filter dialect of the fixtures: the same CEL, the same result per event, alone and in a batch.
    got = _same(rt1, go, "file:" + name)
    if "events" in got:
        assert got["batch"] == got["events"]


def test_filter_as_json_text_and_trigger(rt1: celwasm.Runtime, go: Dict[str, Dict[str, Any]]) -> None:
    text = _filter_json("20-subscriptions-dialects.yaml")
    want = go["file:20-subscriptions-dialects.yaml"]["compile"]["expression"]
    assert rt1.env().compile_filter(text).expression == want
    assert rt1.env().compile_filter(text.encode()).expression == want
    trigger = {"apiVersion": "eventing.knative.dev/v1", "kind": "Trigger", "metadata": {"name": "t"}, "spec": dict(json.loads(text)["spec"], broker="default")}
    assert rt1.env().compile_filter(trigger).expression == want


@pytest.mark.parametrize("i", range(len(REJECTED_FILTERS)))
def test_rejected_filters_same_as_go(rt1: celwasm.Runtime, go: Dict[str, Dict[str, Any]], i: int) -> None:
    f = REJECTED_FILTERS[i]
    # A str is JSON text for compile_filter; the Go host got the value's JSON.
    _same(rt1, go, "reject:%d" % i, (lambda env: env.compile_filter(json.dumps(f))) if isinstance(f, str) else None)


def test_filter_errors(rt1: celwasm.Runtime) -> None:
    with pytest.raises(CompileError, match="multiple dialects found"):
        rt1.env().compile_filter(REJECTED_FILTERS[0])
    with pytest.raises(CompileError) as ei:
        rt1.env().compile_filter({"expression": "ce.type =="})
    assert len(ei.value.issues) == 1 and ei.value.issues[0].snippet.endswith("^")
    for bad in ("{", b"{", 42, None, {"expression": b"x"}, {"expression": float("nan")}):
        with pytest.raises(InvalidArgumentError):
            rt1.env().compile_filter(bad)  # type: ignore[arg-type]
    with pytest.raises(CompileError):
        rt1.env().compile_filter("[]")


def test_malformed_events_fail_closed(rt1: celwasm.Runtime, go: Dict[str, Dict[str, Any]]) -> None:
    got = _same(rt1, go, "ok:malformed")
    assert len(got["batch"]) == len(MALFORMED_EVENTS)
    assert any(r.get("error", {}).get("code") == "invalid_activation" for r in got["batch"])
    assert any(r.get("json") == "true" for r in got["batch"])


def test_binary_mode(rt1: celwasm.Runtime, go: Dict[str, Dict[str, Any]]) -> None:
    got = _same(rt1, go, "binary")
    assert sum("json" in r for r in got["events"]) >= 3
    # Mappings are events too (encoded as JSON), binary envelopes included.
    prg = _env(rt1, CE_ENV).compile(BINARY_EXPR)
    assert [_attempt(lambda e=e: prg.eval_event(e)) for e in BINARY_EVENTS] == go["binary"]["events"]
    assert [_result(r) for r in prg.eval_batch(BINARY_EVENTS, CLOUD_EVENTS)] == go["binary"]["batch"]
    ping = json.loads((TESTDATA / "cloudevents" / "binary-ping.json").read_text())
    r = _env(rt1, CE_ENV).compile("[ce.type, data]").eval_event(ping)
    assert r.value == [ping["headers"]["ce-type"], ping["body"]]
    with pytest.raises(InvalidActivationError):
        prg.eval_event('{"no":"specversion"}')
    with pytest.raises(InvalidArgumentError):
        prg.eval_event({"specversion": "1.0", "data": b"x"})
    with pytest.raises(InvalidArgumentError):
        prg.eval_event(42)  # type: ignore[arg-type]


def test_cost_limit_per_event(rt1: celwasm.Runtime, go: Dict[str, Dict[str, Any]]) -> None:
    got = _same(rt1, go, "costLimit")
    assert any(r.get("error", {}).get("code") == "cost_limit_exceeded" for r in got["batch"])
    assert any(r.get("json") == "false" for r in got["batch"])
    prg = rt1.env().compile_filter(COST_FILTER)
    with pytest.raises(CostLimitExceededError) as ei:
        prg.eval_event(EVENTS[0], cost_limit=1)
    assert ei.value.cost is not None and ei.value.cost > 1


def test_fail_closed_counts_equal_go_host(rt1: celwasm.Runtime, go: Dict[str, Dict[str, Any]]) -> None:
    # Errors (and non-bool results) are not delivered; the Go host's results give the same counts.
    def counts(results: List[Dict[str, Any]]) -> Any:
        matched = sum(r.get("json") == "true" for r in results)
        errors = sum("error" in r or r["json"] not in ("true", "false") for r in results)
        return matched, errors

    seen_errors = 0
    for f in FILTER_FILES:
        want = go["file:" + f]
        if "error" in want["compile"]:
            continue
        results = rt1.env().compile_filter(json.loads(_filter_json(f))).eval_batch(EVENTS, CLOUD_EVENTS)
        got = counts([_result(r) for r in results])
        assert got == counts(want["batch"]), f
        seen_errors += got[1]
    assert seen_errors > 0


@pytest.mark.parametrize("i", range(len(WHEN_CASES)))
def test_when_same_as_go(rt1: celwasm.Runtime, go: Dict[str, Dict[str, Any]], i: int) -> None:
    _same(rt1, go, "when:%d" % i)


def test_when_injection_stays_a_value(rt1: celwasm.Runtime, go: Dict[str, Dict[str, Any]]) -> None:
    ctx = json.loads(PIPELINE_CONTEXT)
    for i in (10, 11, 12):
        prg = rt1.env().compile_when(WHEN_CASES[i])
        assert "||" not in prg.expression.replace(ctx["params"]["injection"], "")
        if i == 11:
            # Quoted: a string, unequal to 'x'.
            assert prg.evaluate(ctx) is False
        else:
            # Unquoted: Tekton would compile the text; celwasm refuses and asks to quote it.
            with pytest.raises(EvaluationError, match="quote the reference"):
                prg.evaluate(ctx)
    assert rt1.env().compile_when("'$(params.injection)' == 'x'").expression == go["when:11"]["compile"]["expression"]
    # One expression as a str; a task result that is a number compares as one.
    assert rt1.env().compile_when("$(tasks.unit-test.results.test-coverage) >= 0.9").evaluate(ctx) is True
    with pytest.raises(CompileError):
        rt1.env().compile_when("$(workspaces.source.path) == ''")
    with pytest.raises(InvalidArgumentError):
        rt1.env().compile_when([1])  # type: ignore[list-item]


def test_batch_with_malformed_items_same_as_go(rt1: celwasm.Runtime, go: Dict[str, Dict[str, Any]]) -> None:
    got = _same(rt1, go, "activations")
    assert len(got["batch"]) == len(ACTIVATION_ITEMS)
    prg = _env(rt1, INT_ENV).compile("x + 1")
    results = prg.eval_batch(ACTIVATION_ITEMS, ACTIVATIONS)
    first = results[0]
    assert isinstance(first, Result) and first.value == 2
    assert isinstance(results[1], InvalidActivationError)
    assert isinstance(results[9], EvaluationError) and results[9].cost is not None
    # bytes items, mappings, generators; None is null (an item error).
    mixed = prg.eval_batch((x for x in [b'{"x":1}', {"x": 2}, None, bytearray(b'{"x":\n3}')]), ACTIVATIONS)
    assert [r.json if isinstance(r, Result) else r.code for r in mixed] == [b'{"int":"2"}', b'{"int":"3"}', "invalid_activation", b'{"int":"4"}']
    with pytest.raises(InvalidArgumentError, match="batch item 1"):
        prg.eval_batch([{"x": 1}, {"x": b"1"}], ACTIVATIONS)
    with pytest.raises(InvalidArgumentError):
        prg.eval_batch([1], ACTIVATIONS)
    with pytest.raises(InvalidArgumentError):
        prg.eval_batch('{"x":1}', ACTIVATIONS)
    # An empty batch; an unknown kind fails the whole call, as in Go.
    _same(rt1, go, "activations:empty")
    _same(rt1, go, "activations:kind")
    with pytest.raises(BadRequestError):
        rt1.env(base="cel").compile("1").eval_batch(["{}"], "rows")
    prg.close()
    with pytest.raises(ClosedError):
        prg.eval_batch(['{"x":1}'], ACTIVATIONS)
    with pytest.raises(ClosedError):
        prg.eval_event(EVENTS[0])


def test_large_batch_equals_single_evaluations(rt1: celwasm.Runtime) -> None:
    prg = rt1.env().compile_filter({"any": [{"exact": {"type": "com.github.pull.create"}}, {"suffix": {"source": "/nightly"}}]})
    items = [EVENTS[i % len(EVENTS)] for i in range(4000)]
    single = [_attempt(lambda e=e: prg.eval_event(e)) for e in EVENTS]
    assert [_result(r) for r in prg.eval_batch(items, CLOUD_EVENTS)] == [single[i % len(EVENTS)] for i in range(len(items))]


def test_batch_timeout_fails_the_call(rt1: celwasm.Runtime) -> None:
    slow = rt1.env().compile("lists.range(1000).all(i, lists.range(1000).all(j, i + j >= 0))")
    t0 = time.monotonic()
    with pytest.raises(DeadlineExceededError):
        slow.eval_batch(["{}", "{}", "{}"], ACTIVATIONS, cost_limit=2**64 - 1, timeout=0.2)
    assert time.monotonic() - t0 < 10
    assert rt1.env().compile_filter({"exact": {"type": "a"}}).eval_batch([{"specversion": "1.0", "id": "1", "source": "s", "type": "a"}], CLOUD_EVENTS)[0].value is True  # type: ignore[union-attr]


def test_threads_share_programs(rt: celwasm.Runtime) -> None:
    from concurrent.futures import ThreadPoolExecutor

    prg = rt.env().compile_filter({"prefix": {"type": "com.github."}})
    want = [_result(r) for r in prg.eval_batch(EVENTS, CLOUD_EVENTS)]
    with ThreadPoolExecutor(max_workers=4) as ex:
        outs = list(ex.map(lambda _: [_result(r) for r in prg.eval_batch(EVENTS, CLOUD_EVENTS)], range(8)))
    assert all(o == want for o in outs)


def test_item_encoding_mirrors_the_go_host(rt: celwasm.Runtime) -> None:
    assert go_compact(b'{ "a" : [1, 2],\n "b": "x y\\n \\" z" }') == b'{"a":[1,2],"b":"x y\\n \\" z"}'
    assert go_compact(b"\n") is None and go_compact(b'{"a":\n') is None
    assert go_compact(b"[" * 10_000 + b"]" * 10_000) == b"[" * 10_000 + b"]" * 10_000
    assert go_compact(b"[" * 10_001 + b"]" * 10_001) is None
    assert _batch_line('{"a":\n1}', 0) == b'{"a":1}'
    assert _batch_line("{bad\n", 0) == b'"<invalid JSON item>"'
    assert _batch_line("\n", 0) == b'"<invalid JSON item>"'
    for blank in ("", " ", "\t\v\f", "\x85", "\xa0", "\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000"):
        assert _batch_line(blank, 0) == b"null" and go_is_blank(blank.encode())
    assert _batch_line("\ufeff", 0) == "\ufeff".encode()  # not white space for Go
    # The CLI's events, read by the module (celwasm_input, the Go CLI's code).
    def read_events(b: bytes) -> List[bytes]:
        return rt._input("events", b)[1]

    assert read_events(b" [ {\"a\": 1}, \"x,y\", [1, {\"b\":\"]\"}] ] ") == [b'{"a":1}', b'"x,y"', b'[1,{"b":"]"}]']
    assert read_events(b'{"a":\n1}') == [b'{"a":1}']
    assert read_events(b'{"a":1}\r\n\n  {"b":2} \n{bad') == [b'{"a":1}', b'{"b":2}', b"{bad"]
    assert read_events(b"") == []
    with pytest.raises(celwasm.CelError) as e:
        rt._input("nope", b"")
    assert e.value.code == "bad_request"
    # Whole-call failures versus item errors.
    with pytest.raises(celwasm.UnknownProgramError):
        _parse_batch(b'{"error":{"code":"unknown_program","message":"no program"}}', 1)
    with pytest.raises(EvaluationError):
        _parse_batch(b'{"error":{"code":"eval_error","message":"m"}}', 0)
    one = _parse_batch(b'{"error":{"code":"eval_error","message":"m","cost":3}}', 1)
    assert isinstance(one[0], EvaluationError) and one[0].cost == 3
    with pytest.raises(celwasm.InternalError):
        _parse_batch(b'{"value":true,"cost":1}', 2)
    assert len(_parse_batch(b'{"value":true,"cost":1}\n{"value":false,"cost":1}\n', 2)) == 2
