"""Bad input gives typed exceptions, and the interpreter (and the runtime) stay
alive: every test ends by evaluating something on the same runtime."""

from __future__ import annotations

import json

import pytest

import celwasm
from celwasm import (
    ClosedError,
    CompileError,
    CostLimitExceededError,
    EvaluationError,
    InvalidActivationError,
    InvalidArgumentError,
    TrapError,
)


@pytest.fixture(scope="module")
def prg(rt: celwasm.Runtime) -> celwasm.Program:
    return rt.env({"self": "dyn"}).compile("self.a")


def alive(rt: celwasm.Runtime) -> None:
    assert rt.env({"x": "int"}).compile("x + 1").evaluate({"x": 41}) == 42


@pytest.mark.parametrize(
    "activation",
    [
        b'{"self":',  # truncated
        b'{"self":{"a":1,}}',  # trailing comma
        b"[1,2]",  # not an object
        b"null",
        b'{"self":"\xff\xfe"}',  # invalid UTF-8
        b'{"self":NaN}',
        b'{"self":' + b"[" * 20000 + b"]" * 20000 + b"}",  # nesting beyond 10,000
        "",
    ],
    ids=["truncated", "trailing-comma", "array", "null", "bad-utf8", "nan", "deep", "empty"],
)
def test_invalid_activation_json(rt: celwasm.Runtime, prg: celwasm.Program, activation: bytes) -> None:
    with pytest.raises(InvalidActivationError) as e:
        prg.eval(activation)
    assert e.value.code == "invalid_activation"
    alive(rt)


def test_undeclared_variables(rt: celwasm.Runtime) -> None:
    with pytest.raises(CompileError) as e:
        rt.env({"x": "int"}).compile("x + nope")
    assert "undeclared reference to 'nope'" in e.value.message
    # Declared but absent from the activation: an evaluation error.
    with pytest.raises(EvaluationError) as e2:
        rt.env({"x": "int"}).compile("x + 1").eval({})
    assert "x" in e2.value.message
    # A value that does not convert to its declared type fails where read.
    p = rt.env({"x": "int", "y": "int"}).compile("y == 1 || x == 2")
    assert p.evaluate({"x": "not a number", "y": 1}) is True
    with pytest.raises(EvaluationError):
        p.evaluate({"x": "not a number", "y": 0})
    alive(rt)


def test_syntax_errors(rt: celwasm.Runtime) -> None:
    for expr in ("1 +", "((((", "'unterminated", "a.b.c(", "\x00", "🙂 + 1"):
        with pytest.raises(CompileError) as e:
            rt.env().compile(expr)
        assert e.value.issues and e.value.line >= 1 and e.value.column >= 1
    # cel-go's expression size limit (100,000 code points), reported without
    # a position (line -1).
    with pytest.raises(CompileError) as e:
        rt.env().compile("x" * 100_000 + " +")
    assert "exceeds limit" in e.value.issues[0].message
    alive(rt)


def test_cost_limit_bombs(rt: celwasm.Runtime) -> None:
    ten = "[1,2,3,4,5,6,7,8,9,10]"
    nested = "%s.map(a, %s.map(b, %s.map(c, %s.map(d, %s.map(e, %s.map(f, a+b+c+d+e+f))))))" % ((ten,) * 6)
    with pytest.raises(CostLimitExceededError) as e:
        rt.env(base="cel").compile(nested).eval()  # default limit: 1,000,000
    assert e.value.cost is not None and e.value.cost > celwasm.DEFAULT_COST_LIMIT
    # String doubling: cost grows with the string sizes.
    doubling = "['x'].map(s, s + s).map(s, s + s)"
    for _ in range(6):
        doubling = "%s.map(s, s + s + s + s + s + s + s + s)" % doubling
    with pytest.raises(CostLimitExceededError):
        rt.env(base="cel").compile(doubling + "[0].size()").eval(cost_limit=10_000)
    # Regex over a long string is charged by size.
    p = rt.env({"s": "string"}).compile("s.matches('^(a+)+$')")
    with pytest.raises(CostLimitExceededError):
        p.eval({"s": "a" * 200_000 + "b"}, cost_limit=1000)
    alive(rt)


def test_huge_documents(rt: celwasm.Runtime) -> None:
    items = [{"name": "item%d" % i, "n": i, "tags": ["a", "b"]} for i in range(100_000)]
    doc = {"self": {"items": items, "padding": "x" * (8 << 20)}}
    raw = json.dumps(doc).encode()
    assert len(raw) > 12 << 20
    p = rt.env({"self": "dyn"}).compile("self.items.size() == 100000 && self.items[99999].n == 99999")
    assert p.evaluate(doc) is True
    assert p.evaluate(raw) is True  # bytes pass through untouched
    # The module reads lazily: a member the expression never touches costs
    # only validation.
    q = rt.env({"self": "dyn"}).compile("size(self.padding)")
    assert q.eval(raw).value == 8 << 20
    alive(rt)


def test_python_values_without_a_cel_form(rt: celwasm.Runtime, prg: celwasm.Program) -> None:
    for bad in ({1, 2}, object(), 2**70, {(1, 2): 3}):
        with pytest.raises(InvalidArgumentError) as e:
            prg.eval({"self": bad} if not isinstance(bad, int) else {"self": {"a": [bad, b"x"]}})
        assert e.value.code == "invalid_argument" and isinstance(e.value, ValueError)
    with pytest.raises(InvalidArgumentError):
        prg.eval({"self": "lone \ud800 surrogate"})
    with pytest.raises(InvalidArgumentError):
        prg.eval([1, 2])  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError):
        prg.eval({1: 2})  # type: ignore[dict-item]
    with pytest.raises(InvalidArgumentError):
        prg.eval({}, cost_limit=-1)
    deep: list = []
    cur = deep
    for _ in range(100_000):
        nxt: list = []
        cur.append(nxt)
        cur = nxt
    with pytest.raises(InvalidArgumentError):
        prg.eval({"self": deep})
    with pytest.raises(CompileError):
        rt.env().compile("'\ud800'")
    alive(rt)


def test_deep_values(rt: celwasm.Runtime) -> None:
    p = rt.env({"self": "dyn"}).compile("self")
    raw = b'{"self":' + b"[" * 900 + b"]" * 900 + b"}"
    r = p.eval(raw)
    assert r.json == b"[" * 900 + b"]" * 900
    v, depth = r.value, 0
    while v:
        v, depth = v[0], depth + 1
    assert depth == 899
    # Deeper values: the module's recursive encoder exhausts wasmtime's wasm
    # stack (512 KiB) somewhere past a few thousand levels; whatever the
    # failure, it is typed and the runtime carries on.
    deep = b'{"self":' + b"[" * 9000 + b"]" * 9000 + b"}"
    try:
        r = p.eval(deep)
        assert r.json == b"[" * 9000 + b"]" * 9000
        with pytest.raises(celwasm.DecodeError):
            r.value
    except celwasm.CelError as e:
        assert e.code in ("trap", "eval_error", "invalid_activation")
    alive(rt)
    assert p.evaluate({"self": [[1]]}) == [[1]]


def test_out_of_memory_traps_and_the_instance_is_replaced(module: celwasm.Module) -> None:
    r = celwasm.Runtime(instances=1, module=module, memory_limit=64 << 20)
    try:
        p = r.env({"s": "string"}, base="cel").compile("size(s)")
        assert p.evaluate({"s": "x" * 1000}) == 1000
        with pytest.raises(TrapError) as e:
            p.eval({"s": "x" * (50 << 20)})
        assert e.value.code == "trap"
        assert "replaced" in e.value.message
        assert e.value.details
        assert r.instances == 0  # discarded
        # The program compiles again lazily in the new instance.
        assert p.evaluate({"s": "yy"}) == 2
        assert r.instances == 1
    finally:
        r.close()


def test_closed_runtime(module: celwasm.Module) -> None:
    r = celwasm.Runtime(instances=1, module=module)
    r.close()
    with pytest.raises(ClosedError):
        r.env().compile("1")
    r.close()
