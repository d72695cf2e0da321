"""What the Python SDK still does the Go way itself, so that it sends the
module the same request bytes as the Go host and the CLI parses flags as the
Go CLI does. Reading input (JSON/YAML documents, events, --at, the text and
JSON output forms) is not here: the module's ``celwasm_input`` export runs
the Go CLI's own code (wasm/input) for that.

What stays, and why it is not a module call:

- Request bytes the Go host makes before a call: ``json.Valid``
  (``go_json_valid``), ``json.Compact`` (``go_compact``), ``json.Marshal``
  of a ``json.RawMessage`` (``go_compact_html``), ``bytes.TrimSpace``
  (``go_trim_space``/``go_is_blank``), a JSON string (``go_quote``). They run
  on every ``eval_batch`` item and CRD argument, before an instance is taken
  from the pool; a module round trip per item would cost more than the check.
- The flag parser's Go behaviour (_cli.py): ``strconv.ParseUint`` for uint
  flags and ``strconv.Quote`` for defaults and ``%q`` in messages
  (``go_quote_string``, also kubectl's messages in ``ObjectResult.describe``).
  The CLI must print its usage and errors before it loads the module.
- ``format_text`` (a public SDK function, like JavaScript's ``formatText``)
  prints a message value's JSON as Go's ``json.Marshal`` does
  (``GoNumber``, ``go_marshal``, ``go_float``), without needing a module
  instance; ``go_encode`` is the same encoder with indentation (tests).

The behaviour mirrored is go1.26's ``strconv``/``encoding/json``; the CLI and
API tests compare with the Go CLI and host byte for byte.
"""

from __future__ import annotations

import json
import math
import re
import struct
import sys
from typing import Any, Dict, List, Optional, Tuple

__all__ = [
    "GoNumber",
    "go_quote",
    "go_encode",
    "go_quote_string",
    "go_compact_html",
    "go_marshal",
    "go_unmarshal_numbers",
    "go_float",
    "go_parse_uint",
    "go_trim_space",
    "go_json_valid",
    "go_compact",
    "go_is_blank",
]


class GoNumber(str):
    """A JSON number kept as its literal text (Go's ``json.Number``)."""

    __slots__ = ()


def _reject_constant(name: str) -> Any:
    raise ValueError("invalid JSON literal %s" % name)


def go_unmarshal_numbers(b: Any) -> Any:
    """``json.Unmarshal`` with ``UseNumber``: numbers become :class:`GoNumber`."""
    if isinstance(b, (bytes, bytearray)):
        b = bytes(b).decode("utf-8", "surrogateescape")
    return json.loads(b, parse_int=GoNumber, parse_float=GoNumber, parse_constant=_reject_constant)


# --- encoding/json output -------------------------------------------------

_HEX = "0123456789abcdef"
_SHORT = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_NEEDS_ESCAPE = re.compile("[\x00-\x1f\"\\\\<>&\u2028\u2029\ud800-\udfff]")


def _escape_char(m: "re.Match[str]") -> str:
    c = m.group(0)
    s = _SHORT.get(c)
    if s is not None:
        return s
    if "\ud800" <= c <= "\udfff":
        return "\\ufffd"  # invalid UTF-8 / lone surrogates
    o = ord(c)
    return "\\u%04x" % o


_NEEDS_ESCAPE_NO_HTML = re.compile("[\x00-\x1f\"\\\\\u2028\u2029\ud800-\udfff]")


def go_quote(s: str, html: bool = True) -> str:
    """A JSON string as Go's ``encoding/json`` writes it: HTML-escaped (``<``,
    ``>``, ``&``) unless ``html`` is false (an Encoder with
    ``SetEscapeHTML(false)``); U+2028, U+2029 and control characters always
    escaped, lone surrogates (invalid UTF-8) as U+FFFD."""
    return '"' + (_NEEDS_ESCAPE if html else _NEEDS_ESCAPE_NO_HTML).sub(_escape_char, s) + '"'


def go_encode(v: Any, *, indent: str = "", html: bool = True, prefix: str = "") -> str:
    """Go's ``json.Marshal`` (``indent`` empty) or an Encoder with
    ``SetIndent("", indent)`` (without its trailing newline) of JSON-ready
    values: dicts in their insertion order (struct fields), lists and tuples,
    str, bool, int, float (Go's float64 format), None."""
    out: List[str] = []
    _encode(v, out, indent, html, prefix)
    return "".join(out)


def _encode(v: Any, out: List[str], indent: str, html: bool, pre: str) -> None:
    if v is None:
        out.append("null")
    elif v is True:
        out.append("true")
    elif v is False:
        out.append("false")
    elif isinstance(v, str):
        out.append(go_quote(v, html))
    elif isinstance(v, float):
        out.append(go_float(v))
    elif isinstance(v, int):
        out.append(str(int(v)))
    elif isinstance(v, (list, tuple)):
        if not v:
            out.append("[]")
            return
        inner = pre + indent
        out.append("[")
        for i, e in enumerate(v):
            if i:
                out.append(",")
            if indent:
                out.append("\n" + inner)
            _encode(e, out, indent, html, inner)
        if indent:
            out.append("\n" + pre)
        out.append("]")
    elif isinstance(v, dict):
        if not v:
            out.append("{}")
            return
        inner = pre + indent
        out.append("{")
        for i, (k, e) in enumerate(v.items()):
            if i:
                out.append(",")
            if indent:
                out.append("\n" + inner)
            out.append(go_quote(k, html))
            out.append(": " if indent else ":")
            _encode(e, out, indent, html, inner)
        if indent:
            out.append("\n" + pre)
        out.append("}")
    else:
        raise TypeError("cannot encode %r" % (v,))


def go_quote_string(s: str) -> str:
    """Go's ``strconv.Quote`` (``%q``): printable characters as they are,
    ``\\a \\b \\f \\n \\r \\t \\v``, other characters as ``\\xHH``,
    ``\\uHHHH`` or ``\\UHHHHHHHH``; invalid UTF-8 bytes (surrogate escapes)
    as ``\\xHH``."""
    out = ['"']
    for c in s:
        o = ord(c)
        if c == '"' or c == "\\":
            out.append("\\" + c)
        elif 0xDC80 <= o <= 0xDCFF:
            out.append("\\x%02x" % (o - 0xDC00))
        elif c.isprintable():
            out.append(c)
        elif c in _QUOTE_SHORT:
            out.append(_QUOTE_SHORT[c])
        elif o < 0x20 or o == 0x7F:
            out.append("\\x%02x" % o)
        elif 0xD800 <= o <= 0xDFFF:
            out.append("\\ufffd")
        elif o < 0x10000:
            out.append("\\u%04x" % o)
        else:
            out.append("\\U%08x" % o)
    out.append('"')
    return "".join(out)


_QUOTE_SHORT = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v"}


def _shortest(f: float) -> Tuple[str, int]:
    """Shortest round-trip digits of a finite non-zero |f| and the decimal point
    position dp (|f| = 0.DIGITS × 10^dp)."""
    r = repr(abs(f))
    mant, _, exp = r.partition("e")
    ip, _, fp = mant.partition(".")
    d = (ip + fp).lstrip("0")
    q = (int(exp) if exp else 0) - len(fp)
    s = d.rstrip("0")
    q += len(d) - len(s)
    return s, q + len(s)


def go_float(f: float) -> str:
    """A float64 as Go's ``encoding/json`` writes it (ECMAScript-like: ``'f'``
    for 1e-6 ≤ |f| < 1e21, else ``'e'`` with a 1- or more-digit exponent;
    ``-0`` for negative zero).

    Raises:
        ValueError: NaN or ±Inf ("json: unsupported value").
    """
    if f != f or f in (math.inf, -math.inf):
        raise ValueError("json: unsupported value: %s" % ("NaN" if f != f else "+Inf" if f > 0 else "-Inf"))
    if f == 0:
        return "-0" if math.copysign(1.0, f) < 0 else "0"
    digits, dp = _shortest(f)
    sign = "-" if f < 0 else ""
    a = abs(f)
    if 1e-6 <= a < 1e21:
        if dp <= 0:
            return sign + "0." + "0" * (-dp) + digits
        if dp >= len(digits):
            return sign + digits + "0" * (dp - len(digits))
        return sign + digits[:dp] + "." + digits[dp:]
    e = dp - 1
    m = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    return "%s%se%s%d" % (sign, m, "-" if e < 0 else "+", abs(e))


def go_marshal(v: Any) -> str:
    """Go's ``json.Marshal`` of a decoded JSON value (maps with sorted keys)."""
    out: List[str] = []
    _marshal(v, out)
    return "".join(out)


def _marshal(v: Any, out: List[str]) -> None:
    if v is None:
        out.append("null")
    elif v is True:
        out.append("true")
    elif v is False:
        out.append("false")
    elif isinstance(v, GoNumber):
        out.append(str.__str__(v))
    elif isinstance(v, str):
        out.append(go_quote(v))
    elif isinstance(v, float):
        out.append(go_float(v))
    elif isinstance(v, int):
        out.append(str(int(v)))
    elif isinstance(v, list):
        out.append("[")
        for i, e in enumerate(v):
            if i:
                out.append(",")
            _marshal(e, out)
        out.append("]")
    elif isinstance(v, dict):
        out.append("{")
        # Go sorts keys by their UTF-8 bytes.
        for i, k in enumerate(sorted(v, key=lambda s: s.encode("utf-8", "surrogatepass"))):
            if i:
                out.append(",")
            out.append(go_quote(k))
            out.append(":")
            _marshal(v[k], out)
        out.append("}")
    else:
        raise TypeError("cannot marshal %r" % (v,))


# --- strconv ----------------------------------------------------------------


def _underscore_ok(s: str) -> bool:
    # Go's strconv.underscoreOK: underscores only between digits or between a
    # base prefix and a digit.
    saw = "^"
    i = 0
    if len(s) >= 1 and s[0] in "+-":
        s = s[1:]
    hexa = False
    if len(s) >= 2 and s[0] == "0" and s[1].lower() in "bxo":
        i = 2
        saw = "0"
        hexa = s[1].lower() == "x"
    while i < len(s):
        c = s[i]
        if c.isdigit() and c.isascii() or hexa and c.lower() in "abcdef":
            saw = "0"
        elif c == "_":
            if saw != "0":
                return False
            saw = "_"
        else:
            if saw == "_":
                return False
            saw = "!"
        i += 1
    return saw != "_"


def go_parse_uint(s: str, base: int = 0, bits: int = 64) -> int:
    """Go's ``strconv.ParseUint``; raises ValueError on syntax or range errors."""
    if not s:
        raise ValueError("invalid syntax")
    s0 = s
    base0 = base == 0
    if base0:
        base = 10
        if s[0] == "0":
            if len(s) >= 3 and s[1].lower() == "b":
                base, s = 2, s[2:]
            elif len(s) >= 3 and s[1].lower() == "o":
                base, s = 8, s[2:]
            elif len(s) >= 3 and s[1].lower() == "x":
                base, s = 16, s[2:]
            else:
                base, s = 8, s[1:]
    n = 0
    underscores = False
    for c in s:
        if c == "_" and base0:
            underscores = True
            continue
        if "0" <= c <= "9":
            d = ord(c) - 48
        elif "a" <= c.lower() <= "z":
            d = ord(c.lower()) - 87
        else:
            raise ValueError("invalid syntax")
        if d >= base:
            raise ValueError("invalid syntax")
        n = n * base + d
    if underscores and not _underscore_ok(s0):
        raise ValueError("invalid syntax")
    if n >= 1 << bits:
        raise ValueError("value out of range")
    return n


# --- whitespace and JSON validity -----------------------------------------

_GO_SPACE = "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"


def go_trim_space(b: bytes) -> bytes:
    """Go's ``bytes.TrimSpace`` (ASCII and Unicode white space, UTF-8)."""
    s = b.decode("utf-8", "surrogateescape").strip(_GO_SPACE)
    return s.encode("utf-8", "surrogateescape")


_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"', re.S)
_NOT_BRACKETS = bytes(c for c in range(256) if c not in b"[]{}")


def _max_depth(b: bytes) -> int:
    if b.count(b"[") + b.count(b"{") < 500:
        return b.count(b"[") + b.count(b"{")
    br = _STRINGS.sub(b"", b).translate(None, _NOT_BRACKETS)
    depth = best = 0
    for c in br:
        if c == 0x5B or c == 0x7B:
            depth += 1
            if depth > best:
                best = depth
        else:
            depth -= 1
    return best


def _loads_deep(s: str, depth: int, **kw: Any) -> Any:
    old = sys.getrecursionlimit()
    need = depth * 2 + 200
    if need > old:
        sys.setrecursionlimit(need)
    try:
        return json.loads(s, **kw)
    finally:
        if need > old:
            sys.setrecursionlimit(old)


def go_json_valid(b: bytes) -> bool:
    """Go's ``json.Valid``: RFC 8259 JSON, nesting at most 10,000 levels; bytes
    inside strings are not checked for UTF-8 (as Go's scanner)."""
    depth = _max_depth(b)
    if depth > 10000:
        return False
    try:
        _loads_deep(b.decode("utf-8", "surrogateescape"), depth, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        return False
    return True


_WHITESPACE_OUTSIDE_STRINGS = re.compile(rb'("(?:[^"\\]|\\.)*")|[ \t\n\r]+', re.S)


def go_compact(b: bytes) -> Optional[bytes]:
    """Go's ``json.Compact``: the JSON text without the white space between
    tokens, or None when it is not valid JSON (:func:`go_json_valid`)."""
    if not go_json_valid(b):
        return None
    return _WHITESPACE_OUTSIDE_STRINGS.sub(lambda m: m.group(1) or b"", b)


_HTML_BYTES = re.compile(b"[<>&]|\xe2\x80[\xa8\xa9]")
_HTML_ESCAPES = {b"<": b"\\u003c", b">": b"\\u003e", b"&": b"\\u0026", b"\xe2\x80\xa8": b"\\u2028", b"\xe2\x80\xa9": b"\\u2029"}


def go_compact_html(b: bytes) -> Optional[bytes]:
    """What Go's ``json.Marshal`` writes of a ``json.RawMessage``: the JSON text
    compacted, with ``<``, ``>``, ``&``, U+2028 and U+2029 escaped (they occur
    only inside strings of valid JSON); None when it is not valid JSON."""
    c = go_compact(b)
    if c is None:
        return None
    return _HTML_BYTES.sub(lambda m: _HTML_ESCAPES[m.group(0)], c)


# First bytes of the UTF-8 encodings of Go's white space (unicode.IsSpace).
_SPACE_LEAD = frozenset(b"\t\n\v\f\r \xc2\xe1\xe2\xe3")


def go_is_blank(b: bytes) -> bool:
    """Whether Go's ``bytes.TrimSpace`` leaves nothing of ``b``."""
    return not b or (b[0] in _SPACE_LEAD and not go_trim_space(b))
