"""The value mapping: canonical typed JSON ⇄ Python, checked against the module
(the module's canonical bytes are the reference)."""

from __future__ import annotations

import datetime as dt
import math
import struct
from pathlib import Path
from typing import Any

import pytest

import celwasm
from celwasm import (
    DecodeError,
    Duration,
    InvalidArgumentError,
    Message,
    Object,
    OptionalValue,
    Timestamp,
    TypeValue,
    UInt,
    decode,
    encode,
    format_double,
    format_text,
)

from conftest import REPO

UTC = dt.timezone.utc


def test_format_double_matches_node() -> None:
    # wasm/codec/testdata/doubles.tsv: float64 bits and JavaScript's String(x),
    # checked against node by the engine's tests.
    path = REPO / "wasm" / "codec" / "testdata" / "doubles.tsv"
    assert path.exists(), "%s is missing: the test would compare nothing" % path
    n = 0
    for line in path.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        bits, want = line.split("\t")
        f = struct.unpack(">d", bytes.fromhex(bits))[0]
        assert format_double(f) == want, (bits, f)
        n += 1
    assert n > 4000


@pytest.mark.parametrize(
    "expr, want_json, want",
    [
        ("1", b'{"int":"1"}', 1),
        ("-9223372036854775808", b'{"int":"-9223372036854775808"}', -(2**63)),
        ("18446744073709551615u", b'{"uint":"18446744073709551615"}', UInt(2**64 - 1)),
        ("1.5", b'{"double":"1.5"}', 1.5),
        ("-0.0", b'{"double":"-0"}', -0.0),
        ("1e21", b'{"double":"1e+21"}', 1e21),
        ("0.1", b'{"double":"0.1"}', 0.1),
        ("'héllo\\n\"'", '"héllo\\n\\""'.encode(), 'héllo\n"'),
        ("b'\\xff\\x00'", b'{"bytes":"/wA="}', b"\xff\x00"),
        ("null", b"null", None),
        ("[1, 's', null]", b'[{"int":"1"},"s",null]', [1, "s", None]),
        ("timestamp('2009-02-13T23:31:30.123456789Z')", b'{"timestamp":"2009-02-13T23:31:30.123456789Z"}',
         Timestamp(2009, 2, 13, 23, 31, 30, 123456, tzinfo=UTC, nanosecond=789)),
        ("duration('1.5s')", b'{"duration":"1.500s"}', Duration(seconds=1.5)),
        ("duration('-90m')", b'{"duration":"-5400s"}', Duration(minutes=-90)),
        ("type(1)", b'{"type":"int"}', TypeValue("int")),
        ("optional.of(1)", b'{"optional":[{"int":"1"}]}', OptionalValue.of(1)),
        ("optional.none()", b'{"optional":[]}', OptionalValue.none()),
    ],
)
def test_decode_module_results(cel_env: celwasm.Env, expr: str, want_json: bytes, want: Any) -> None:
    r = cel_env.compile(expr).eval()
    assert r.json == want_json
    v = r.value
    assert v == want
    assert type(v) is type(want)
    if isinstance(want, float):
        assert math.copysign(1, v) == math.copysign(1, want)


def test_nan_and_infinities(cel_env: celwasm.Env) -> None:
    r = cel_env.compile("[0.0/0.0, 1.0/0.0, -1.0/0.0]").eval()
    assert r.json == b'[{"double":"NaN"},{"double":"Infinity"},{"double":"-Infinity"}]'
    nan, inf, ninf = r.value
    assert math.isnan(nan) and inf == math.inf and ninf == -math.inf
    assert r.text == '[double("NaN"), double("Infinity"), double("-Infinity")]'


def test_map_keys_and_text(cel_env: celwasm.Env) -> None:
    r = cel_env.compile("{'x': 1, 2u: 'y', true: 'z', -1: 0}").eval()
    assert r.json == b'{"map":[[true,"z"],[{"int":"-1"},{"int":"0"}],[{"uint":"2"},"y"],["x",{"int":"1"}]]}'
    assert r.value == {True: "z", -1: 0, UInt(2): "y", "x": 1}
    assert r.text == '{true: "z", -1: 0, 2u: "y", "x": 1}'


def test_map_keys_that_collide_in_python(cel_env: celwasm.Env) -> None:
    r = cel_env.compile("{true: 'a', 1: 'b'}").eval()
    assert r.json == b'{"map":[[true,"a"],[{"int":"1"},"b"]]}'
    with pytest.raises(DecodeError) as e:
        r.value
    assert e.value.code == "decode_error"


def test_timestamp_and_duration_keep_nanoseconds() -> None:
    t = decode(b'{"timestamp":"0001-01-01T00:00:00.000000001Z"}')
    assert isinstance(t, dt.datetime) and t.tzinfo is UTC
    assert (t.year, t.microsecond, t.nanosecond) == (1, 0, 1)
    assert encode(t) == '{"timestamp":"0001-01-01T00:00:00.000000001Z"}'
    d = decode(b'{"duration":"-0.000000001s"}')
    assert isinstance(d, dt.timedelta) and d.total_nanoseconds == -1
    assert encode(d) == '{"duration":"-0.000000001s"}'
    assert encode(dt.timedelta(days=1, microseconds=5)) == '{"duration":"86400.000005s"}'
    # An aware datetime in another zone is converted to UTC.
    cet = dt.timezone(dt.timedelta(hours=2))
    assert encode(dt.datetime(2026, 1, 1, 12, tzinfo=cet)) == '{"timestamp":"2026-01-01T10:00:00Z"}'


def test_library_objects(rt: celwasm.Runtime) -> None:
    r = rt.env().compile("[dyn(quantity('1Gi')), dyn(ip('::1')), dyn(cidr('10.0.0.0/8')), dyn(semver('1.2.3'))]").eval()
    assert r.value == [
        Object("kubernetes.Quantity", "1Gi"),
        Object("net.IP", "::1"),
        Object("net.CIDR", "10.0.0.0/8"),
        Object("kubernetes.Semver", "1.2.3"),
    ]
    assert r.text == '[quantity("1Gi"), ip("::1"), cidr("10.0.0.0/8"), semver("1.2.3")]'


ROUND_TRIP = [
    0,
    -1,
    2**63 - 1,
    UInt(0),
    UInt(2**64 - 1),
    1.25,
    -0.0,
    1e300,
    5e-324,
    "",
    "ünïcødé \u2028 \x00 \"q\"",
    b"",
    b"\x00\xff",
    True,
    None,
    [1, [2, [3, []]]],
    {"a": {"b": [1, 2.5, "c"]}},
    {1: "one", -2: "minus two"},
    {UInt(3): True, "k": b"v"},
    Timestamp(2026, 5, 17, 8, 30, 0, 999999, tzinfo=UTC, nanosecond=1),
    dt.datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
    Duration(seconds=-3, nanosecond=7),
    dt.timedelta(hours=-1),
    OptionalValue.of([1, "x"]),
    OptionalValue.none(),
    TypeValue("google.protobuf.Timestamp"),
]


@pytest.mark.parametrize("value", ROUND_TRIP, ids=lambda v: repr(v)[:40])
def test_typed_activation_round_trip(cel_env: celwasm.Env, value: Any) -> None:
    # Python → canonical typed JSON → module → canonical JSON → Python.
    prg = cel_env.compile("x")
    r = prg.eval(typed_activation={"x": value})
    assert r.json == encode(value).encode("utf-8")
    back = r.value
    assert back == value
    if isinstance(value, float):
        assert math.copysign(1, back) == math.copysign(1, value)
    # The plain activation path sends JSON, and the typed form by itself for
    # values JSON cannot carry. JSON has no uint and only string keys: under
    # dyn those arrive as int and string keys (as with Go's json.Marshal).
    plain = prg.eval({"x": value}).value
    if type(value) is UInt:
        # A JSON number that fits int64 is an int, any other a double.
        assert (plain, type(plain)) == ((int(value), int) if value < 2**63 else (float(value), float))
    elif isinstance(value, dict) and all(isinstance(k, int) for k in value):
        assert plain == {str(k): v for k, v in value.items()}
    else:
        assert plain == value


def test_quantity_round_trip(rt: celwasm.Runtime) -> None:
    prg = rt.env({"q": "kubernetes.Quantity"}).compile("q.isLessThan(quantity('1Gi')) ? q : quantity('0')")
    assert prg.evaluate({"q": Object("kubernetes.Quantity", "512Mi")}) == Object("kubernetes.Quantity", "512Mi")


def test_encode_rejects_values_without_cel_form() -> None:
    for bad in ({1, 2}, object(), 2**63, -(2**63) - 1, dt.datetime(2026, 1, 1), {(1, 2): "tuple key"}, {1.5: "x"}):
        with pytest.raises(InvalidArgumentError):
            encode(bad)
    with pytest.raises(InvalidArgumentError):
        UInt(-1)


def test_decode_rejects_malformed() -> None:
    for bad in (b'{"int":"x"}', b'{"nope":1}', b"{", b'{"timestamp":"yesterday"}', b'{"duration":"1m"}', b"1", b'{"a":1,"b":2}'):
        with pytest.raises(DecodeError):
            decode(bad)


def test_message_text_uses_go_json() -> None:
    # Messages print as TypeName(JSON) with Go's json.Marshal (HTML-escaped).
    t = format_text(b'{"message":{"type":"a.B","json":{"s":"<&>","n":1.5e+300,"z":[true,null]}}}')
    assert t == 'a.B({"n":1.5e+300,"s":"\\u003c\\u0026\\u003e","z":[true,null]})'
    m = decode(b'{"message":{"type":"a.B","json":{"x":1}}}')
    assert m == Message("a.B", {"x": 1})


def test_text_form() -> None:
    assert format_text(b'{"double":"3"}') == "3.0"
    assert format_text(b'{"double":"1e+21"}') == "1e+21"
    assert format_text(b'{"bytes":"ImFcXP8="}') == 'b"\\"a\\\\\\\\\\xff"'
    assert format_text(b'"tab\\t\\u0001"') == '"tab\\t\\u0001"'
    assert format_text(b'{"object":{"type":"kubernetes.authorization.Decision"}}') == "<kubernetes.authorization.Decision>"
