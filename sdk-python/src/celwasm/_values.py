"""CEL values in Python, and celwasm's canonical typed JSON (docs/value-encoding.md).

Decoding (results) maps canonical JSON to Python values:

==========================  ==============================================
CEL                         Python
==========================  ==============================================
null                        ``None``
bool                        ``bool``
int                         ``int``
uint                        :class:`UInt` (an ``int`` subclass)
double                      ``float`` (NaN, ±inf and -0.0 included)
string                      ``str``
bytes                       ``bytes``
list                        ``list``
map                         ``dict`` (keys ``bool``/``int``/:class:`UInt`/``str``)
timestamp                   :class:`Timestamp` (a UTC ``datetime``, + ns)
duration                    :class:`Duration` (a ``timedelta``, + ns)
optional                    :class:`OptionalValue`
type                        :class:`TypeValue`
library object              :class:`Object` (``kubernetes.Quantity``, ``net.IP``, ...)
protobuf message            :class:`Message`
==========================  ==============================================

Encoding (typed activations) is the inverse; ``tuple`` encodes as a list,
``bytearray``/``memoryview`` as bytes, an aware ``datetime`` as a timestamp,
``timedelta`` as a duration.
"""

from __future__ import annotations

import base64
import binascii
import datetime as _dt
import json
import math
import sys
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

from ._errors import DecodeError, InvalidArgumentError
from ._gocompat import _max_depth

__all__ = [
    "UInt",
    "Timestamp",
    "Duration",
    "OptionalValue",
    "TypeValue",
    "Object",
    "Message",
    "decode",
    "encode",
    "format_double",
]

INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1
UINT64_MAX = (1 << 64) - 1

_UTC = _dt.timezone.utc
_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_UTC)


class UInt(int):
    """A CEL ``uint`` (0 … 2^64−1). Behaves as an ``int``; arithmetic on it gives
    plain ``int``. In a typed activation it encodes as ``uint`` rather than ``int``."""

    __slots__ = ()

    def __new__(cls, value: Any = 0) -> "UInt":
        self = super().__new__(cls, value)
        if not 0 <= self <= UINT64_MAX:
            raise InvalidArgumentError("uint out of range [0, 2^64-1]: %d" % int(self))
        return self

    def __repr__(self) -> str:
        return "UInt(%d)" % int(self)


class Timestamp(_dt.datetime):
    """A CEL ``timestamp``: a timezone-aware UTC :class:`datetime.datetime` that
    keeps CEL's nanosecond precision in :attr:`nanosecond` (0–999, the part below
    ``microsecond``). Comparisons and arithmetic use the ``datetime`` part
    (microseconds); :attr:`epoch_nanoseconds` is exact. Range: years 1–9999."""

    _nanosecond: int

    def __new__(cls, *args: Any, nanosecond: int = 0, **kwargs: Any) -> "Timestamp":
        self = super().__new__(cls, *args, **kwargs)
        if not 0 <= nanosecond <= 999:
            raise ValueError("nanosecond must be in 0..999")
        self._nanosecond = nanosecond
        return self

    @property
    def nanosecond(self) -> int:
        """Nanoseconds below the microsecond, 0–999."""
        return self._nanosecond

    @property
    def epoch_nanoseconds(self) -> int:
        """Nanoseconds since 1970-01-01T00:00:00Z (exact)."""
        d = _dt.datetime.__sub__(self, _EPOCH)
        assert isinstance(d, _dt.timedelta)
        return ((d.days * 86400 + d.seconds) * 1_000_000 + d.microseconds) * 1000 + self._nanosecond

    def __reduce__(self) -> Any:
        return (_make_timestamp, (self.epoch_nanoseconds,))

    def __repr__(self) -> str:
        return "Timestamp(%r)" % format_timestamp(self)

    def __str__(self) -> str:
        return format_timestamp(self)


def _make_timestamp(epoch_ns: int) -> Timestamp:
    us, ns = divmod(epoch_ns, 1000)
    d = _EPOCH + _dt.timedelta(microseconds=us)
    return Timestamp(d.year, d.month, d.day, d.hour, d.minute, d.second, d.microsecond, tzinfo=_UTC, nanosecond=ns)


class Duration(_dt.timedelta):
    """A CEL ``duration``: a :class:`datetime.timedelta` that keeps CEL's nanosecond
    precision in :attr:`nanosecond` (0–999, added to the ``timedelta`` part, so
    ``-1ns`` is ``timedelta(microseconds=-1)`` + 999 ns). Comparisons and
    arithmetic use the ``timedelta`` part; :attr:`total_nanoseconds` is exact.
    cel-go durations span about ±292 years."""

    _nanosecond: int

    def __new__(cls, *args: Any, nanosecond: int = 0, **kwargs: Any) -> "Duration":
        self = super().__new__(cls, *args, **kwargs)
        if not 0 <= nanosecond <= 999:
            raise ValueError("nanosecond must be in 0..999")
        self._nanosecond = nanosecond
        return self

    @classmethod
    def from_nanoseconds(cls, total: int) -> "Duration":
        """The duration of ``total`` nanoseconds."""
        us, ns = divmod(total, 1000)
        return cls(microseconds=us, nanosecond=ns)

    @property
    def nanosecond(self) -> int:
        """Nanoseconds added to the ``timedelta`` part, 0–999."""
        return self._nanosecond

    @property
    def total_nanoseconds(self) -> int:
        """The exact length in nanoseconds."""
        return _timedelta_ns(self) + self._nanosecond

    def __reduce__(self) -> Any:
        return (Duration.from_nanoseconds, (self.total_nanoseconds,))

    def __repr__(self) -> str:
        return "Duration(%r)" % format_duration(self.total_nanoseconds)

    def __str__(self) -> str:
        return format_duration(self.total_nanoseconds)


class OptionalValue:
    """A CEL optional: ``optional.of(v)`` (``has_value`` true) or ``optional.none()``.

    Build with :meth:`of` / :meth:`none`; compare with ``==``."""

    __slots__ = ("has_value", "value")

    has_value: bool
    value: Any

    def __init__(self, has_value: bool, value: Any = None) -> None:
        object.__setattr__(self, "has_value", bool(has_value))
        object.__setattr__(self, "value", value if has_value else None)

    @classmethod
    def of(cls, value: Any) -> "OptionalValue":
        return cls(True, value)

    @classmethod
    def none(cls) -> "OptionalValue":
        return cls(False)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("OptionalValue is immutable")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, OptionalValue):
            return NotImplemented
        return self.has_value == other.has_value and (not self.has_value or self.value == other.value)

    def __hash__(self) -> int:
        return hash((OptionalValue, self.has_value, self.value if self.has_value else None))

    def __repr__(self) -> str:
        return "OptionalValue.of(%r)" % (self.value,) if self.has_value else "OptionalValue.none()"


class TypeValue:
    """A CEL type used as a value, e.g. ``type(1)`` → ``TypeValue("int")``; ``name``
    is the type's name as cel-go gives it (``int``, ``list``,
    ``google.protobuf.Timestamp``, a message name)."""

    __slots__ = ("name",)
    name: str

    def __init__(self, name: str) -> None:
        object.__setattr__(self, "name", name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("TypeValue is immutable")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TypeValue) and other.name == self.name

    def __hash__(self) -> int:
        return hash((TypeValue, self.name))

    def __repr__(self) -> str:
        return "TypeValue(%r)" % self.name


class Object:
    """A value of a CEL library type without a JSON form: ``type`` is its CEL type
    name (``kubernetes.Quantity``, ``net.IP``, ``net.CIDR``, ``kubernetes.URL``,
    ``kubernetes.Semver``, ``kubernetes.authorization.Decision``, ...); ``value``
    its string form, which the library's constructor reads back
    (``quantity("1Gi")``), or None when the type has none. As an input,
    ``value`` may also be a JSON-able structure, for the declarative
    ``kubernetes.authorization.Authorizer`` (docs/value-encoding.md)."""

    __slots__ = ("type", "value")
    type: str
    value: Any

    def __init__(self, type: str, value: Any = None) -> None:
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "value", value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Object is immutable")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Object) and (other.type, other.value) == (self.type, self.value)

    def __hash__(self) -> int:
        return hash((Object, self.type, self.value if isinstance(self.value, (str, type(None))) else None))

    def __repr__(self) -> str:
        return "Object(%r, %r)" % (self.type, self.value)


class Message:
    """A protobuf message: ``type`` is its full name, ``json`` its protobuf JSON
    mapping (protojson) as parsed Python values (numbers as ``int``/``float``)."""

    __slots__ = ("type", "json")
    type: str
    json: Any

    def __init__(self, type: str, json: Any) -> None:
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "json", json)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Message is immutable")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Message) and (other.type, other.json) == (self.type, self.json)

    def __hash__(self) -> int:
        return hash((Message, self.type))

    def __repr__(self) -> str:
        return "Message(%r, %r)" % (self.type, self.json)


# ---------------------------------------------------------------------------
# Doubles: ECMAScript Number::toString, with -0 as "-0".


def _digits(f: float) -> Tuple[str, int]:
    """Shortest round-trip decimal digits of a finite, non-zero |f| and the
    ECMAScript exponent n, such that |f| = 0.DIGITS × 10^n."""
    r = repr(abs(f))
    mant, _, exp = r.partition("e")
    ip, _, fp = mant.partition(".")
    d = (ip + fp).lstrip("0")
    q = (int(exp) if exp else 0) - len(fp)
    stripped = d.rstrip("0")
    q += len(d) - len(stripped)
    return stripped, q + len(stripped)


def format_double(f: float) -> str:
    """A double in the canonical form: ECMAScript ``Number::toString`` (what
    JavaScript's ``String(x)`` gives), except ``-0``; ``NaN``, ``Infinity``,
    ``-Infinity`` spelled out."""
    if f != f:
        return "NaN"
    if f == math.inf:
        return "Infinity"
    if f == -math.inf:
        return "-Infinity"
    if f == 0:
        return "-0" if math.copysign(1.0, f) < 0 else "0"
    digits, n = _digits(f)
    k = len(digits)
    sign = "-" if f < 0 else ""
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    e = n - 1
    es = ("+" if e >= 0 else "-") + str(abs(e))
    if k == 1:
        return sign + digits + "e" + es
    return sign + digits[0] + "." + digits[1:] + "e" + es


def _parse_double(s: str) -> float:
    return float(s)  # reads "NaN", "Infinity", "-Infinity", "-0", "1e+21" exactly


# ---------------------------------------------------------------------------
# Timestamps and durations.


def _timedelta_ns(d: _dt.timedelta) -> int:
    return ((d.days * 86400 + d.seconds) * 1_000_000 + d.microseconds) * 1000


def _frac(ns: int) -> str:
    """0, 3, 6 or 9 fraction digits: the fewest that hold ns (0..999999999)."""
    if ns == 0:
        return ""
    if ns % 1_000_000 == 0:
        return ".%03d" % (ns // 1_000_000)
    if ns % 1000 == 0:
        return ".%06d" % (ns // 1000)
    return ".%09d" % ns


def format_timestamp(t: _dt.datetime) -> str:
    """The canonical RFC 3339 form of an aware datetime, in UTC with ``Z``."""
    if t.tzinfo is None or t.utcoffset() is None:
        raise InvalidArgumentError(
            "naive datetime %s: CEL timestamps are absolute; attach a tzinfo (datetime.timezone.utc)" % t.isoformat()
        )
    ns = getattr(t, "_nanosecond", 0)
    u = t.astimezone(_UTC)
    return "%04d-%02d-%02dT%02d:%02d:%02d%sZ" % (
        u.year,
        u.month,
        u.day,
        u.hour,
        u.minute,
        u.second,
        _frac(u.microsecond * 1000 + ns),
    )


def format_duration(total_ns: int) -> str:
    """The canonical form of a duration of ``total_ns`` nanoseconds: seconds with
    0, 3, 6 or 9 fraction digits and an ``s`` suffix (protobuf's JSON form)."""
    sign = "-" if total_ns < 0 else ""
    secs, ns = divmod(abs(total_ns), 1_000_000_000)
    return "%s%d%ss" % (sign, secs, _frac(ns))


def _parse_timestamp(s: str) -> Timestamp:
    # YYYY-MM-DDTHH:MM:SS[.f{3,6,9}]Z, always UTC.
    try:
        if len(s) < 20 or s[-1] != "Z" or s[4] != "-" or s[7] != "-" or s[10] != "T" or s[13] != ":" or s[16] != ":":
            raise ValueError
        frac = s[19:-1]
        ns = 0
        if frac:
            if frac[0] != "." or not frac[1:].isdigit() or len(frac) > 10:
                raise ValueError
            ns = int(frac[1:].ljust(9, "0"))
        us, sub = divmod(ns, 1000)
        return Timestamp(
            int(s[0:4]), int(s[5:7]), int(s[8:10]), int(s[11:13]), int(s[14:16]), int(s[17:19]), us,
            tzinfo=_UTC, nanosecond=sub,
        )
    except (ValueError, IndexError):
        raise DecodeError("malformed timestamp %r" % s) from None


def _parse_duration(s: str) -> Duration:
    try:
        if not s.endswith("s"):
            raise ValueError
        body = s[:-1]
        neg = body.startswith("-")
        if neg:
            body = body[1:]
        secs, _, frac = body.partition(".")
        if not secs.isdigit() or (frac and (not frac.isdigit() or len(frac) > 9)):
            raise ValueError
        total = int(secs) * 1_000_000_000 + (int(frac.ljust(9, "0")) if frac else 0)
        return Duration.from_nanoseconds(-total if neg else total)
    except (ValueError, OverflowError):
        raise DecodeError("malformed duration %r" % s) from None


# ---------------------------------------------------------------------------
# Decoding canonical typed JSON.


def decode(canonical: Union[bytes, str]) -> Any:
    """Decodes canonical typed JSON (docs/value-encoding.md) into Python values
    (see the module docstring for the mapping).

    Raises:
        DecodeError: malformed input, map keys that collide in Python (CEL
            ``true`` and ``1``, or ``1`` and ``1u``), nesting beyond Python's
            recursion limit.
    """
    # Fast paths for the common scalar results.
    if canonical == b"true" or canonical == "true":
        return True
    if canonical == b"false" or canonical == "false":
        return False
    if canonical == b"null" or canonical == "null":
        return None
    try:
        try:
            return _decode(json.loads(canonical))
        except RecursionError:
            pass
        # Deeply nested (results nest at most 1,000 + 64 levels, the module's
        # encoder bound; 10,000 is a safe margin): retry with a recursion limit to match.
        b = canonical.encode("utf-8") if isinstance(canonical, str) else bytes(canonical)
        depth = _max_depth(b)
        if depth > 10_000:
            raise RecursionError
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 2 * depth + 1000))
        try:
            return _decode(json.loads(canonical))
        finally:
            sys.setrecursionlimit(old)
    except DecodeError:
        raise
    except RecursionError:
        raise DecodeError("value nests too deeply for Python's recursion limit; read Result.json instead") from None
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as e:
        raise DecodeError("malformed canonical value: %s" % e) from None


def _decode(v: Any) -> Any:
    if v is None or v is True or v is False or type(v) is str:
        return v
    if type(v) is list:
        return [_decode(e) for e in v]
    if type(v) is dict and len(v) == 1:
        ((tag, body),) = v.items()
        return _decode_tagged(tag, body)
    raise DecodeError("unexpected JSON %r in a canonical value" % (v,))


def _decode_tagged(tag: str, body: Any) -> Any:
    if type(body) is str:
        if tag == "int":
            return int(body)
        if tag == "uint":
            return UInt(int(body))
        if tag == "double":
            return _parse_double(body)
        if tag == "bytes":
            try:
                return base64.b64decode(body, validate=True)
            except binascii.Error:
                raise DecodeError("malformed bytes %r" % body) from None
        if tag == "timestamp":
            return _parse_timestamp(body)
        if tag == "duration":
            return _parse_duration(body)
        if tag == "type":
            return TypeValue(body)
    elif tag == "map" and type(body) is list:
        return _decode_map(body)
    elif tag == "optional" and type(body) is list and len(body) <= 1:
        return OptionalValue.of(_decode(body[0])) if body else OptionalValue.none()
    elif tag == "object" and type(body) is dict and type(body.get("type")) is str:
        value = body.get("value")
        return Object(body["type"], value if type(value) is str else None)
    elif tag == "message" and type(body) is dict and type(body.get("type")) is str:
        return Message(body["type"], body.get("json"))
    raise DecodeError("malformed %r value" % tag)


def _decode_map(entries: List[Any]) -> Dict[Any, Any]:
    out: Dict[Any, Any] = {}
    for e in entries:
        if type(e) is not list or len(e) != 2:
            raise DecodeError("map entry must be [key, value]")
        k = _decode(e[0])
        out[k] = _decode(e[1])
    if len(out) != len(entries):
        raise DecodeError(
            "map keys collide in Python (CEL true/1, false/0 or 1/1u are distinct keys); read Result.json instead"
        )
    return out


# ---------------------------------------------------------------------------
# Encoding Python values as canonical typed JSON (typed activations).


def encode(value: Any) -> str:
    """Encodes a Python value as canonical typed JSON text (for ``typedActivation``).

    Raises:
        InvalidArgumentError: a value with no CEL form (a set, an arbitrary
            object), an ``int`` outside int64 (use :class:`UInt` for uint64), a
            naive datetime, a map key that is not bool/int/str, nesting beyond
            Python's recursion limit.
    """
    parts: List[str] = []
    try:
        _encode(value, parts)
    except RecursionError:
        raise InvalidArgumentError("value nests too deeply for Python's recursion limit") from None
    return "".join(parts)


def _jstr(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


_KEY_RANK = {bool: 0, int: 1, UInt: 2, str: 3}


def _encode(v: Any, out: List[str]) -> None:
    t = type(v)
    if v is None:
        out.append("null")
    elif t is bool:
        out.append("true" if v else "false")
    elif t is str:
        out.append(_jstr(v))
    elif t is UInt:
        out.append('{"uint":"%d"}' % v)
    elif isinstance(v, int) and not isinstance(v, bool):
        if not INT64_MIN <= v <= INT64_MAX:
            raise InvalidArgumentError("int %d outside int64; use celwasm.UInt for uint64" % v)
        out.append('{"int":"%d"}' % v)
    elif isinstance(v, float):
        out.append('{"double":"%s"}' % format_double(v))
    elif isinstance(v, (bytes, bytearray, memoryview)):
        out.append('{"bytes":"%s"}' % base64.b64encode(bytes(v)).decode("ascii"))
    elif isinstance(v, str):
        out.append(_jstr(str(v)))
    elif isinstance(v, (list, tuple)):
        out.append("[")
        for i, e in enumerate(v):
            if i:
                out.append(",")
            _encode(e, out)
        out.append("]")
    elif isinstance(v, Mapping):
        items = []
        for k, val in v.items():
            kt = UInt if type(k) is UInt else bool if type(k) is bool else int if isinstance(k, int) else str if isinstance(k, str) else None
            if kt is None:
                raise InvalidArgumentError("map key %r: CEL map keys are bool, int, uint or string" % (k,))
            items.append((_KEY_RANK[kt], k if kt is not str else str(k), val))
        items.sort(key=lambda x: (x[0], x[1]))
        out.append('{"map":[')
        for i, (_, k, val) in enumerate(items):
            if i:
                out.append(",")
            out.append("[")
            _encode(k, out)
            out.append(",")
            _encode(val, out)
            out.append("]")
        out.append("]}")
    elif isinstance(v, _dt.datetime):
        out.append('{"timestamp":"%s"}' % format_timestamp(v))
    elif isinstance(v, _dt.timedelta):
        total = _timedelta_ns(v) + getattr(v, "_nanosecond", 0)
        out.append('{"duration":"%s"}' % format_duration(total))
    elif t is OptionalValue:
        if v.has_value:
            out.append('{"optional":[')
            _encode(v.value, out)
            out.append("]}")
        else:
            out.append('{"optional":[]}')
    elif t is TypeValue:
        out.append('{"type":%s}' % _jstr(v.name))
    elif t is Object:
        if v.value is None:
            out.append('{"object":{"type":%s}}' % _jstr(v.type))
        elif isinstance(v.value, str):
            out.append('{"object":{"type":%s,"value":%s}}' % (_jstr(v.type), _jstr(v.value)))
        else:
            try:
                body = json.dumps(v.value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
            except (TypeError, ValueError) as e:
                raise InvalidArgumentError("object %s: value: %s" % (v.type, e)) from None
            out.append('{"object":{"type":%s,"value":%s}}' % (_jstr(v.type), body))
    elif t is Message:
        try:
            body = json.dumps(v.json, ensure_ascii=False, separators=(",", ":"), sort_keys=True, allow_nan=False)
        except (TypeError, ValueError) as e:
            raise InvalidArgumentError("message %s: json: %s" % (v.type, e)) from None
        out.append('{"message":{"type":%s,"json":%s}}' % (_jstr(v.type), body))
    else:
        raise InvalidArgumentError("%s value %r has no CEL form" % (t.__name__, v))


# --- plain JSON arguments (requests) ------------------------------------------


def _plain_default(o: Any) -> Any:
    raise _NeedsTyped


class _NeedsTyped(Exception):
    pass


_plain_encoder = json.JSONEncoder(
    ensure_ascii=False, separators=(",", ":"), allow_nan=False, default=_plain_default, check_circular=True
)


def _make_plain_c_encoder() -> Any:
    """CPython's C encoder with _plain_encoder's options, built once.

    ``JSONEncoder.encode`` builds one (``json.encoder.c_make_encoder``) on
    every call: ~0.5 µs of the ~1.5 µs a small activation takes. This one
    has no circular-reference markers (a shared dict is not safe across
    threads), so a circular value ends in RecursionError, and _plain_text
    asks _plain_encoder for the error. None where the C encoder is missing
    or encodes differently (checked on a probe value)."""
    try:
        from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]

        if c_make_encoder is None:
            return None
        enc = c_make_encoder(None, _plain_default, encode_basestring, None, ":", ",", False, False, False)
        probe = {"a": [1, -2.5, 1e300, "é\n\u2028\"", None, True, False], "b": {}, "c": []}
        if "".join(enc(probe, 0)) != _plain_encoder.encode(probe):
            return None
        return enc
    except Exception:  # pragma: no cover - other Python implementations
        return None


_plain_c_encoder = _make_plain_c_encoder()


def _plain_text(value: Any) -> str:
    """``_plain_encoder.encode(value)``, through the C encoder built once
    when there is one. Raises what _plain_encoder raises."""
    if _plain_c_encoder is None or type(value) is str:
        return _plain_encoder.encode(value)
    try:
        return "".join(_plain_c_encoder(value, 0))
    except RecursionError:
        # Circular (ValueError from _plain_encoder) or deeply nested (RecursionError again).
        return _plain_encoder.encode(value)


def _json_value(value: Any, what: str) -> bytes:
    """Plain JSON data (dicts with str keys, lists, str, int, float, bool, None)
    as compact JSON; anything else is an InvalidArgumentError."""
    try:
        return _plain_text(value).encode("utf-8")
    except (_NeedsTyped, ValueError, TypeError, UnicodeEncodeError) as e:
        detail = "" if isinstance(e, _NeedsTyped) else ": %s" % e
        raise InvalidArgumentError("%s is not plain JSON data%s" % (what, detail)) from None
    except RecursionError:
        raise InvalidArgumentError("%s nests too deeply for Python's recursion limit" % what) from None


def _text_bytes(value: Any, what: str) -> Optional[bytes]:
    """JSON text given as bytes-like or str, as UTF-8 bytes (a str that is not
    valid Unicode is an InvalidArgumentError naming ``what``); None for any
    other value."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    if isinstance(value, str):
        try:
            return value.encode("utf-8")
        except UnicodeEncodeError as e:
            raise InvalidArgumentError("%s: %s" % (what, e)) from None
    return None
