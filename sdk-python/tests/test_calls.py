"""The call path under the public API: the unchecked wasmtime entry point
(called without ctypes argtypes), the memoryview over linear memory, and the
C JSON encoder built once. Each must give what the slower form it replaces
gives."""

from __future__ import annotations

import ctypes
import json
import math
from typing import Any, List

import pytest

import celwasm
from celwasm import TrapError, _module
from celwasm._values import _NeedsTyped, _plain_c_encoder, _plain_encoder, _plain_text

PLAIN_VALUES: List[Any] = [
    {},
    [],
    {"self": {"minReplicas": 1, "replicas": 3, "maxReplicas": 5}},
    {"a": [1, -2, 2**63, -(2**80), 0.1, -0.0, 1e300, 5e-324, True, False, None]},
    {"s": "é\n\t\"\\\u2028\u0000\U0001f600", "": "", "k\u00e9y": ["x", {"y": []}]},
    {1: "int key", 1.5: "float key", True: "bool key", None: "none key"},
    ("tuple", ["list"]),
    "top-level string",
    42,
    3.25,
    None,
    [[[[[[[[[[1]]]]]]]]]],
]


@pytest.mark.skipif(_plain_c_encoder is None, reason="no C JSON encoder in this Python")
@pytest.mark.parametrize("value", PLAIN_VALUES, ids=lambda v: type(v).__name__)
def test_plain_text_is_json_encoder(value: Any) -> None:
    assert _plain_text(value) == _plain_encoder.encode(value)


def test_plain_text_errors_are_json_encoders() -> None:
    circular: dict = {}
    circular["me"] = [circular]
    for v, err in (
        (circular, ValueError),  # "Circular reference detected", not RecursionError
        ({"x": math.nan}, ValueError),
        ({"x": math.inf}, ValueError),
        ({"x": b"bytes"}, _NeedsTyped),
        ({"x": {1, 2}}, _NeedsTyped),
    ):
        with pytest.raises(err):
            _plain_encoder.encode(v)
        with pytest.raises(err):
            _plain_text(v)
    deep: Any = 1
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(RecursionError):
        _plain_text(deep)


def test_circular_activation_is_invalid_argument(rt: celwasm.Runtime) -> None:
    a: dict = {"y": 1}
    a["self"] = a
    p = rt.env({"x": "dyn"}).compile("x")
    with pytest.raises(celwasm.InvalidArgumentError):
        p.eval({"x": a})
    assert p.evaluate({"x": 1}) == 1


@pytest.fixture()
def inst(module: celwasm.Module) -> Any:
    i = module.instantiate()
    if not i._fast:
        i.close()
        pytest.skip("wasmtime-py without the unchecked call path")
    yield i
    i.close()


def _compile(i: Any, expr: str) -> int:
    req = json.dumps({"expression": expr, "env": {"variables": [{"name": "x", "type": "dyn"}]}}).encode()
    return int(json.loads(i.compile(req))["program"])


def test_fast_and_slow_calls_agree(inst: Any) -> None:
    """Every argument slot and both result kinds, through the raw entry point
    and through wasmtime-py's Func.__call__, on the same instance."""
    b = _compile(inst, "x.minReplicas <= x.replicas && x.replicas <= x.maxReplicas")
    lst = _compile(inst, "[x.replicas, x.maxReplicas]")
    act = b'{"x":{"minReplicas":1,"replicas":3,"maxReplicas":5}}'
    big_limit = (1 << 32) + 7  # the high word goes in the third argument
    cases = [(b, 0, act), (b, big_limit, act), (b, 2, act), (lst, 0, act), (lst, 1, act)]
    fast = [inst.eval_activation(h, lim, a) for h, lim, a in cases]
    ereq = b'{"program":%d,"activation":%s}' % (lst, act)
    fast += [inst.eval(ereq), inst.free(10_000), inst.version()]
    inst._fast = False
    try:
        slow = [inst.eval_activation(h, lim, a) for h, lim, a in cases]
        slow += [inst.eval(ereq), inst.free(10_000), inst.version()]
    finally:
        inst._fast = True
    assert fast == slow
    assert fast[0] == (True, fast[0][1]) and fast[1] == fast[0]
    assert b"cost_limit_exceeded" in fast[2]
    assert celwasm.decode(json.dumps(json.loads(fast[3])["value"]).encode()) == [3, 5]
    assert fast[6] is False


def test_responses_after_memory_grows(inst: Any) -> None:
    """A response written where memory has grown since the last call is read
    through a view made again for the new length."""
    h = _compile(inst, "x + x")
    before = inst.memory_size
    s = "ab" * (8 << 20)
    out = inst.eval(b'{"program":%d,"activation":%s}' % (h, json.dumps({"x": s}).encode()))
    assert inst.memory_size > before
    assert json.loads(out)["value"] == s + s


def test_error_pointer_becomes_trap_error(inst: Any) -> None:
    """An error (not a trap) from the raw entry point, as wasmtime returns it
    for a WASI exit: a TrapError with its message, and the instance dead."""
    from wasmtime import _bindings

    err = _bindings.wasmtime_error_new(ctypes.create_string_buffer(b"an error from wasmtime"))
    with pytest.raises(TrapError) as e:
        inst._fail_raw(ctypes.cast(err, ctypes.c_void_p).value)
    assert "an error from wasmtime" in e.value.message
    assert inst.dead
    with pytest.raises(TrapError):
        inst.free(1)


def test_raw_entry_point_declaration() -> None:
    """The C signature the argtypes-free call relies on is wasmtime-py's own."""
    if _module._raw_call is None:
        pytest.skip("wasmtime-py without the unchecked call path")
    from wasmtime import _bindings

    assert list(_bindings._wasmtime_func_call_unchecked.argtypes) == _module._RAW_ARGTYPES
    assert _module._raw_call.argtypes is None
    assert _module._raw_call.restype is ctypes.c_void_p
