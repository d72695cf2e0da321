"""Go-compatible input handling for the CLI, so that ``python -m celwasm eval``
hands the module the same bytes as the Go CLI (cmd/celwasm/eval.go):

- ``read_documents``: JSON is passed through untouched; anything else is YAML,
  split into documents as k8s.io/apimachinery's ``YAMLReader`` does and
  converted as ``sigs.k8s.io/yaml.YAMLToJSON`` does (go-yaml v2's YAML 1.1
  scalar resolution, non-string keys turned into strings, then Go's
  ``encoding/json`` with sorted keys and Go's number formatting).
- ``select_path`` (``--at``): Go's ``json.Unmarshal`` into ``any`` (every
  number a float64) and ``json.Marshal``.
- ``go_marshal`` / ``GoNumber``: Go's ``json.Marshal`` of values decoded with
  ``UseNumber`` (the text form of messages).

The behaviour mirrored is Go's (go1.26 ``strconv``/``encoding/json``,
go.yaml.in/yaml/v2 v2.4.4, sigs.k8s.io/yaml v1.6.0); the Python CLI test
compares both CLIs byte for byte.
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
    "InputError",
    "go_marshal",
    "go_unmarshal_numbers",
    "go_float",
    "go_parse_uint",
    "go_parse_int",
    "go_trim_space",
    "go_json_valid",
    "go_compact",
    "go_is_blank",
    "read_events",
    "read_documents",
    "yaml_to_json",
    "select_path",
    "object_keys",
]


class InputError(ValueError):
    """The input cannot be read as the Go CLI would read it."""


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


def go_parse_int(s: str, base: int = 0, bits: int = 64) -> int:
    """Go's ``strconv.ParseInt``; raises ValueError on syntax or range errors."""
    if not s:
        raise ValueError("invalid syntax")
    neg = False
    body = s
    if s[0] in "+-":
        neg = s[0] == "-"
        body = s[1:]
    u = go_parse_uint(body, base, bits)
    # ParseUint checks underscores against the unsigned text; Go checks the
    # whole string, which differs only in the sign.
    v = -u if neg else u
    if not -(1 << (bits - 1)) <= v <= (1 << (bits - 1)) - 1:
        raise ValueError("value out of range")
    return v


_FLOAT_DOT = re.compile(r"\.[0-9]+(?:[eE][-+]?[0-9]+)?\Z")
_YAML_STYLE_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")


def _go_parse_float(s: str) -> Optional[float]:
    """Go's ParseFloat for the decimal forms YAML resolution hands it; None when
    Go would fail (syntax, or overflow to ±Inf)."""
    try:
        f = float(s)
    except ValueError:
        return None
    if f in (math.inf, -math.inf):
        return None
    return f


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


def _split_top_level(compact: bytes) -> List[bytes]:
    """The elements of a compact JSON array's text."""
    inner = compact[1:-1]
    if not inner:
        return []
    out: List[bytes] = []
    depth = 0
    start = 0
    i = 0
    n = len(inner)
    while i < n:
        c = inner[i]
        if c == 0x22:  # a string: skip to its closing quote
            i += 1
            while inner[i] != 0x22:
                i += 2 if inner[i] == 0x5C else 1
        elif c in (0x5B, 0x7B):
            depth += 1
        elif c in (0x5D, 0x7D):
            depth -= 1
        elif c == 0x2C and depth == 0:
            out.append(inner[start:i])
            start = i + 1
        i += 1
    out.append(inner[start:])
    return out


_MAX_LINE = 64 << 20


def read_events(data: bytes) -> List[bytes]:
    """cmd/celwasm readEvents: NDJSON, a JSON array of events, or one JSON event;
    each event as compact JSON (NDJSON lines as they are, trimmed).

    Raises:
        InputError: a line longer than 64 MiB (Go's bufio.Scanner limit).
    """
    trimmed = go_trim_space(data)
    if not trimmed:
        return []
    if go_json_valid(trimmed):
        if trimmed[:1] == b"[":
            c = go_compact(trimmed)
            assert c is not None
            return _split_top_level(c)
        nl = trimmed.find(b"\n")
        if nl < 0 or not go_json_valid(trimmed[:nl]):
            c = go_compact(trimmed)
            assert c is not None
            return [c]
    out: List[bytes] = []
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    for line in lines:
        if len(line) >= _MAX_LINE:
            raise InputError("bufio.Scanner: token too long")
        if line.endswith(b"\r"):
            line = line[:-1]
        line = go_trim_space(line)
        if line:
            out.append(line)
    return out


# --- documents ----------------------------------------------------------------


def _lines(data: bytes) -> List[Tuple[bytes, bool]]:
    """bufio.Reader.ReadLine via LineReader: each line without its \\n or \\r\\n,
    plus \\n; the flag marks the final read (io.EOF)."""
    out: List[Tuple[bytes, bool]] = []
    parts = data.split(b"\n")
    for i, p in enumerate(parts):
        last = i == len(parts) - 1
        if not last and p.endswith(b"\r"):
            p = p[:-1]
        if last:
            # A final line without \n is returned without EOF, then an empty
            # read with EOF follows.
            if p:
                out.append((p + b"\n", False))
            out.append((b"\n", True))
        else:
            out.append((p + b"\n", False))
    return out


def _split_yaml(data: bytes) -> List[bytes]:
    """k8s.io/apimachinery/pkg/util/yaml.YAMLReader: documents separated by lines
    starting with ``---`` (only a comment may follow it)."""
    docs: List[bytes] = []
    buf: List[bytes] = []
    for line, eof in _lines(data):
        if line.startswith(b"---"):
            trimmed = line[3:].decode("utf-8", "surrogateescape").strip(_GO_SPACE)
            if trimmed and trimmed[0] != "#":
                raise InputError("invalid Yaml document separator: %s" % trimmed)
            if buf:
                docs.append(b"".join(buf))
                buf = []
                if eof:
                    return docs
                continue
            if eof:
                return docs
        if eof:
            if buf:
                docs.append(b"".join(buf))
            return docs
        buf.append(line)
    if buf:
        docs.append(b"".join(buf))
    return docs


def _strip_comments(doc: bytes) -> bytes:
    out = []
    for line in doc.split(b"\n"):
        t = line.decode("utf-8", "surrogateescape").strip(_GO_SPACE)
        if t == "---" or t.startswith("#"):
            continue
        out.append(line)
    return b"\n".join(out)


def read_documents(data: bytes) -> List[bytes]:
    """The Go CLI's readDocuments: JSON input as one document, byte for byte
    (trimmed); otherwise each non-empty YAML document as Go's JSON.

    Raises:
        InputError: invalid YAML or a document that has no JSON form.
    """
    trimmed = go_trim_space(data)
    if trimmed[:1] in (b"{", b"[") and go_json_valid(trimmed):
        return [trimmed]
    docs = []
    for doc in _split_yaml(data):
        if not go_trim_space(_strip_comments(doc)):
            continue
        j = yaml_to_json(doc)
        if j == b"null":
            continue
        docs.append(j)
    return docs


# --- YAML (go-yaml v2 semantics) -------------------------------------------

_STR = "tag:yaml.org,2002:str"
_BOOL = "tag:yaml.org,2002:bool"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_NULL = "tag:yaml.org,2002:null"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_BINARY = "tag:yaml.org,2002:binary"
_MERGE = "tag:yaml.org,2002:merge"
_PLAIN = "tag:celwasm,2026:go-plain"  # a plain scalar, resolved the go-yaml way

_RESOLVE_MAP: Dict[str, Tuple[str, Any]] = {}
for _vals, _tag, _v in (
    (("y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"), _BOOL, True),
    (("n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"), _BOOL, False),
    (("", "~", "null", "Null", "NULL"), _NULL, None),
    ((".nan", ".NaN", ".NAN"), _FLOAT, math.nan),
    ((".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"), _FLOAT, math.inf),
    (("-.inf", "-.Inf", "-.INF"), _FLOAT, -math.inf),
    (("<<",), _MERGE, "<<"),
):
    for _s in _vals:
        _RESOLVE_MAP[_s] = (_tag, _v)


class _U64(int):
    """A go-yaml uint64 (an integer above int64)."""

    __slots__ = ()


def _hint(s: str) -> str:
    if s == "":
        return "N"
    c = s[0]
    if c in "+-":
        return "S"
    if "0" <= c <= "9":
        return "D"
    if c in "yYnNtTfFoO~":
        return "M"
    if c == ".":
        return "."
    return ""


def _resolve_untagged(s: str, tag: str) -> Tuple[str, Any]:
    hint = _hint(s)
    if hint and tag not in (_STR, _BINARY):
        item = _RESOLVE_MAP.get(s)
        if item is not None:
            return item
        if hint == ".":
            # strconv.ParseFloat on the raw text: Go accepts underscores
            # between digits here too (".5_0" is 0.5).
            plain = s.replace("_", "")
            if _FLOAT_DOT.match(plain) and ("_" not in s or _underscore_ok(s)):
                f = _go_parse_float(plain)
                if f is not None:
                    return _FLOAT, f
        elif hint in "DS":
            if tag in ("", _TIMESTAMP) and _looks_like_timestamp(s):
                return _TIMESTAMP, s
            plain = s.replace("_", "")
            try:
                return _INT, go_parse_int(plain)
            except ValueError:
                pass
            try:
                return _INT, _U64(go_parse_uint(plain))
            except ValueError:
                pass
            if _YAML_STYLE_FLOAT.match(plain):
                f = _go_parse_float(plain)
                if f is not None:
                    return _FLOAT, f
            if plain.startswith("0b"):
                try:
                    return _INT, go_parse_int(plain[2:], 2)
                except ValueError:
                    pass
                try:
                    return _INT, _U64(go_parse_uint(plain[2:], 2))
                except ValueError:
                    pass
            elif plain.startswith("-0b"):
                try:
                    return _INT, go_parse_int("-" + plain[3:], 2)
                except ValueError:
                    pass
    return _STR, s


_TS_FORMATS = [
    re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})[Tt](\d{1,2}):(\d{1,2}):(\d{1,2})(\.\d+)?(Z|[+-]\d{2}:\d{2})\Z"),
    re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2}) (\d{1,2}):(\d{1,2}):(\d{1,2})(\.\d+)?\Z"),
    re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})\Z"),
]


def _looks_like_timestamp(s: str) -> bool:
    # Only decides whether go-yaml tags the scalar !!timestamp; decoded into
    # interface{} it stays the original string either way, and a string that
    # starts with "DDDD-" can be neither an int nor a float. So precision here
    # matters only for an explicit !!timestamp tag.
    return any(f.match(s) for f in _TS_FORMATS)


def _resolve(tag: str, s: str) -> Tuple[str, Any]:
    """go-yaml v2's resolve(tag, in) for scalars."""
    if tag not in ("", _STR, _BOOL, _INT, _FLOAT, _NULL, _TIMESTAMP):
        return tag, s
    rtag, out = _resolve_untagged(s, tag)
    if tag in ("", rtag, _STR, _BINARY):
        return rtag, out
    if tag == _FLOAT and rtag == _INT and not isinstance(out, _U64):
        return _FLOAT, float(out)
    raise InputError("yaml: cannot decode %s `%s` as a %s" % (_short(rtag), s, _short(tag)))


def _short(tag: str) -> str:
    p = "tag:yaml.org,2002:"
    return "!!" + tag[len(p):] if tag.startswith(p) else tag


_loader_cls: Any = None


def _loader() -> Any:
    global _loader_cls
    if _loader_cls is None:
        import yaml  # PyYAML
        from yaml.nodes import ScalarNode
        from yaml.resolver import BaseResolver

        try:
            from yaml import CParser as _Parser  # type: ignore[attr-defined]  # libyaml, what go-yaml is ported from
            base: Tuple[Any, ...] = (_Parser,)
        except ImportError:  # pragma: no cover - PyYAML without libyaml
            from yaml.composer import Composer
            from yaml.parser import Parser
            from yaml.reader import Reader
            from yaml.scanner import Scanner

            base = (Reader, Scanner, Parser, Composer)

        class _GoResolver(BaseResolver):
            def resolve(self, kind: Any, value: Any, implicit: Any) -> str:
                if kind is ScalarNode:
                    return _PLAIN if implicit[0] else _STR
                return str(BaseResolver.resolve(self, kind, value, implicit))  # type: ignore[no-untyped-call]

        class _GoLoader(*base, _GoResolver):  # type: ignore[misc]
            def __init__(self, stream: Any) -> None:
                base[0].__init__(self, stream)
                if len(base) > 1:
                    for b in base[1:]:
                        b.__init__(self)
                _GoResolver.__init__(self)

        _ = yaml
        _loader_cls = _GoLoader
    return _loader_cls


class _Decoder:
    """go-yaml v2's decoder into interface{}, over PyYAML's node graph."""

    def __init__(self) -> None:
        self.decode_count = 0
        self.alias_count = 0
        self.alias_depth = 0
        self.seen: "set[int]" = set()
        self.active: "set[int]" = set()

    def _count(self) -> None:
        self.decode_count += 1
        if self.alias_depth > 0:
            self.alias_count += 1
        if (
            self.alias_count > 100
            and self.decode_count > 1000
            and self.alias_count / self.decode_count > _allowed_alias_ratio(self.decode_count)
        ):
            raise InputError("yaml: document contains excessive aliasing")

    def unmarshal(self, node: Any) -> Any:
        key = id(node)
        if key in self.seen:
            # A node reached again is an alias (anchors precede their aliases).
            self._count()
            if key in self.active:
                raise InputError("yaml: anchor value contains itself")
            self.alias_depth += 1
            try:
                return self._node(node)
            finally:
                self.alias_depth -= 1
        self.seen.add(key)
        return self._node(node)

    def _node(self, node: Any) -> Any:
        from yaml.nodes import MappingNode, ScalarNode, SequenceNode

        self._count()
        key = id(node)
        self.active.add(key)
        try:
            if isinstance(node, ScalarNode):
                return self._scalar(node)
            if isinstance(node, SequenceNode):
                return [self.unmarshal(c) for c in node.value]
            if isinstance(node, MappingNode):
                out: Dict[Tuple[str, Any], Any] = {}
                self._mapping(node, out)
                return out
            raise InputError("yaml: unknown node")
        finally:
            self.active.discard(key)

    def _scalar(self, node: Any) -> Any:
        tag = node.tag
        if tag == _PLAIN:
            rtag, v = _resolve("", node.value)
        elif tag == _STR and node.style is not None:
            return node.value
        else:
            rtag, v = _resolve(tag, node.value)
            if rtag == _BINARY:
                import base64
                import binascii

                try:
                    data = base64.b64decode(v.replace("\r", "").replace("\n", ""), validate=True)
                except binascii.Error:
                    raise InputError("yaml: !!binary value contains invalid base64 data") from None
                return data.decode("utf-8", "surrogateescape")
        if rtag == _MERGE:
            return "<<"
        return v

    def _is_merge(self, node: Any) -> bool:
        from yaml.nodes import ScalarNode

        return isinstance(node, ScalarNode) and node.value == "<<" and node.tag in (_PLAIN, _MERGE)

    def _mapping(self, node: Any, out: Dict[Tuple[str, Any], Any]) -> None:
        for knode, vnode in node.value:
            if self._is_merge(knode):
                self._merge(vnode, out)
                continue
            k = self.unmarshal(knode)
            if isinstance(k, (list, dict)):
                raise InputError("yaml: invalid map key: %r" % (k,))
            v = self.unmarshal(vnode)
            out[_typed_key(k)] = v

    def _merge_into(self, node: Any, out: Dict[Tuple[str, Any], Any]) -> None:
        # d.unmarshal(n, out) with out the map being built.
        key = id(node)
        if key in self.seen:
            self._count()
            if key in self.active:
                raise InputError("yaml: anchor value contains itself")
            self.alias_depth += 1
            try:
                self._count()
                self.active.add(key)
                try:
                    self._mapping(node, out)
                finally:
                    self.active.discard(key)
            finally:
                self.alias_depth -= 1
            return
        self.seen.add(key)
        self._count()
        self.active.add(key)
        try:
            self._mapping(node, out)
        finally:
            self.active.discard(key)

    def _merge(self, node: Any, out: Dict[Tuple[str, Any], Any]) -> None:
        from yaml.nodes import MappingNode, SequenceNode

        if isinstance(node, MappingNode):
            self._merge_into(node, out)
        elif isinstance(node, SequenceNode):
            for child in reversed(node.value):
                if not isinstance(child, MappingNode):
                    raise InputError("yaml: map merge requires map or sequence of maps as the value")
                self._merge_into(child, out)
        else:
            raise InputError("yaml: map merge requires map or sequence of maps as the value")


def _allowed_alias_ratio(n: int) -> float:
    if n <= 400000:
        return 0.99
    if n >= 4000000:
        return 0.10
    return 0.99 - 0.89 * ((n - 400000) / 3600000.0)


def _typed_key(k: Any) -> Tuple[str, Any]:
    if k is None:
        return ("n", None)
    if k is True or k is False:
        return ("b", k)
    if isinstance(k, _U64):
        return ("u", int(k))
    if isinstance(k, int):
        return ("i", k)
    if isinstance(k, float):
        return ("f", k)
    return ("s", k)


def _format_float32_g(f: float) -> str:
    """strconv.FormatFloat(f, 'g', -1, 32), with go-yaml's .inf/.nan names."""
    if f != f:
        return ".nan"
    try:
        f32 = struct.unpack("<f", struct.pack("<f", f))[0]
    except OverflowError:
        f32 = math.inf if f > 0 else -math.inf
    if f32 in (math.inf, -math.inf):
        return ".inf" if f32 > 0 else "-.inf"
    if f32 == 0:
        return "-0" if math.copysign(1.0, f32) < 0 else "0"
    digits = ""
    exp10 = 0
    for p in range(1, 10):
        s = "%.*e" % (p - 1, f32)
        if struct.unpack("<f", struct.pack("<f", float(s)))[0] == f32:
            mant, _, e = s.partition("e")
            digits = mant.replace(".", "").replace("-", "").rstrip("0") or "0"
            exp10 = int(e)
            break
    sign = "-" if f32 < 0 else ""
    nd = len(digits)
    dp = exp10 + 1
    x = dp - 1
    if x < -4 or x >= 6:  # shortest: %e when the exponent is < -4 or >= 6 (eprec)
        m = digits[0] + ("." + digits[1:] if nd > 1 else "")
        return "%s%se%s%02d" % (sign, m, "-" if x < 0 else "+", abs(x))
    if dp <= 0:
        return sign + "0." + "0" * (-dp) + digits
    if dp >= nd:
        return sign + digits + "0" * (dp - nd)
    return sign + digits[:dp] + "." + digits[dp:]


def _jsonable(v: Any) -> Any:
    """sigs.k8s.io/yaml convertToJSONableObject (no target)."""
    if isinstance(v, dict):
        out: Dict[str, Any] = {}
        for (kind, k), val in v.items():
            if kind == "s":
                ks = k
            elif kind == "i":
                ks = str(k)
            elif kind == "f":
                ks = _format_float32_g(k)
            elif kind == "b":
                ks = "true" if k else "false"
            else:
                raise InputError("unsupported map key of type: %s, key: %r" % ("uint64" if kind == "u" else "<nil>", k))
            out[ks] = _jsonable(val)
        return out
    if isinstance(v, list):
        return [_jsonable(e) for e in v]
    return v


def yaml_to_json(doc: bytes) -> bytes:
    """sigs.k8s.io/yaml.YAMLToJSON of one document: go-yaml v2 values (YAML 1.1
    booleans, ints, floats; timestamps stay strings), keys as strings, then Go's
    ``json.Marshal``.

    Raises:
        InputError: invalid YAML, unsupported keys, NaN/Inf values.
    """
    import yaml

    loader = _loader()(doc)
    try:
        try:
            node = loader.get_node() if loader.check_node() else None
        except yaml.YAMLError as e:
            raise InputError("yaml: %s" % e) from None
        if node is None:
            return b"null"
        try:
            value = _Decoder().unmarshal(node)
            return go_marshal(_jsonable(value)).encode("utf-8", "surrogateescape")
        except RecursionError:
            raise InputError("yaml: document nests too deeply") from None
        except ValueError as e:
            if isinstance(e, InputError):
                raise
            raise InputError(str(e)) from None
    finally:
        dispose = getattr(loader, "dispose", None)
        if dispose is not None:
            dispose()


# --- --at and --activation ----------------------------------------------------


def _float_checked(s: str) -> float:
    f = float(s)
    if f in (math.inf, -math.inf):
        raise ValueError("json: cannot unmarshal number %s into Go value of type float64" % s)
    return f


def select_path(doc: bytes, path: str) -> bytes:
    """The Go CLI's selectPath: the JSON value at a dotted field path, re-encoded
    as Go does (``json.Unmarshal`` into ``any``, so every number is a float64,
    then ``json.Marshal``)."""
    depth = _max_depth(doc)
    try:
        cur = _loads_deep(
            doc.decode("utf-8", "surrogateescape"),
            depth,
            parse_int=_float_checked,
            parse_float=_float_checked,
            parse_constant=_reject_constant,
        )
    except RecursionError:
        raise InputError("exceeded max depth") from None
    except ValueError as e:
        raise InputError(str(e)) from None
    for field in path.split("."):
        if not isinstance(cur, dict):
            raise InputError("%s: not an object" % json.dumps(field))
        if field not in cur:
            raise InputError("no field %s" % json.dumps(field))
        cur = cur[field]
    try:
        return _marshal_deep(cur, depth).encode("utf-8", "surrogateescape")
    except ValueError as e:
        raise InputError(str(e)) from None


def _marshal_deep(v: Any, depth: int) -> str:
    old = sys.getrecursionlimit()
    need = depth * 2 + 200
    if need > old:
        sys.setrecursionlimit(need)
    try:
        return go_marshal(v)
    finally:
        if need > old:
            sys.setrecursionlimit(old)


def object_keys(doc: bytes) -> Optional[List[str]]:
    """The top-level member names of a JSON object document (Go's
    ``json.Unmarshal`` into ``map[string]json.RawMessage``); None for ``null``.

    Raises:
        InputError: the document is not a JSON object.
    """
    try:
        v = _loads_deep(doc.decode("utf-8", "surrogateescape"), _max_depth(doc), parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        raise InputError("not a JSON object") from None
    if v is None:
        return None
    if not isinstance(v, dict):
        raise InputError("not a JSON object")
    return [k.encode("utf-8", "surrogateescape").decode("utf-8", "replace") for k in v]
