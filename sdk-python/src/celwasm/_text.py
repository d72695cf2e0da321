"""The CLI text form (docs/value-encoding.md, "Text form"): CEL literal syntax
built from the canonical JSON, byte for byte what the Go host's ``FormatText``
(host/text.go) prints."""

from __future__ import annotations

import base64
from typing import Any, List, Union

from ._errors import DecodeError
from ._gocompat import GoNumber, go_marshal, go_unmarshal_numbers

__all__ = ["format_text"]

_OBJECT_CONSTRUCTORS = {
    "kubernetes.Quantity": "quantity",
    "kubernetes.URL": "url",
    "kubernetes.Semver": "semver",
    "net.IP": "ip",
    "net.CIDR": "cidr",
}


def format_text(canonical: Union[bytes, str]) -> str:
    """Renders canonical typed JSON as CEL literal text for people: ``1``, ``2u``,
    ``3.0``, ``"s"``, ``b"\\xff"``, ``timestamp("...")``, ``duration("1.5s")``,
    ``[1, 2]``, ``{"a": 1}``, ``optional.of(1)``, ``quantity("1Gi")``.

    Raises:
        DecodeError: the input is not canonical typed JSON.
    """
    try:
        v = go_unmarshal_numbers(canonical)
        out: List[str] = []
        _fmt(v, out)
        return "".join(out)
    except DecodeError:
        raise
    except RecursionError:
        raise DecodeError("value nests too deeply for Python's recursion limit") from None
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as e:
        raise DecodeError("malformed canonical value: %s" % e) from None


def _fmt(v: Any, out: List[str]) -> None:
    if v is None:
        out.append("null")
    elif v is True:
        out.append("true")
    elif v is False:
        out.append("false")
    elif isinstance(v, GoNumber):
        raise DecodeError("unexpected JSON number in a canonical value")
    elif isinstance(v, str):
        out.append(quote_string(v))
    elif isinstance(v, list):
        out.append("[")
        for i, e in enumerate(v):
            if i:
                out.append(", ")
            _fmt(e, out)
        out.append("]")
    elif isinstance(v, dict):
        if not v:
            raise DecodeError("empty object in a canonical value")
        # Go ranges over the map and formats the first member; canonical
        # values have exactly one.
        tag, body = next(iter(v.items()))
        _fmt_tagged(tag, body, out)
    else:
        raise DecodeError("unexpected JSON %r in a canonical value" % (v,))


def _fmt_tagged(tag: str, body: Any, out: List[str]) -> None:
    s = body if isinstance(body, str) and not isinstance(body, GoNumber) else ""
    if tag == "int":
        out.append(s)
    elif tag == "uint":
        out.append(s + "u")
    elif tag == "double":
        if s == "NaN" or s.endswith("Infinity"):
            out.append('double("' + s + '")')
        elif "." in s or "e" in s:
            out.append(s)
        else:
            out.append(s + ".0")
    elif tag == "bytes":
        try:
            b = base64.b64decode(s, validate=True)
        except ValueError as e:
            raise DecodeError("malformed bytes: %s" % e) from None
        out.append(quote_bytes(b))
    elif tag in ("timestamp", "duration"):
        out.append(tag + '("' + s + '")')
    elif tag == "type":
        out.append(s)
    elif tag == "optional":
        items = body if isinstance(body, list) else []
        if not items:
            out.append("optional.none()")
            return
        out.append("optional.of(")
        _fmt(items[0], out)
        out.append(")")
    elif tag == "map":
        entries = body if isinstance(body, list) else []
        out.append("{")
        for i, entry in enumerate(entries):
            if not isinstance(entry, list) or len(entry) != 2:
                raise DecodeError("malformed map entry")
            if i:
                out.append(", ")
            _fmt(entry[0], out)
            out.append(": ")
            _fmt(entry[1], out)
        out.append("}")
    elif tag == "object":
        m = body if isinstance(body, dict) else {}
        t = m.get("type")
        t = t if isinstance(t, str) and not isinstance(t, GoNumber) else ""
        val = m.get("value")
        fn = _OBJECT_CONSTRUCTORS.get(t)
        if fn is not None and isinstance(val, str) and not isinstance(val, GoNumber):
            out.append(fn + "(" + quote_string(val) + ")")
        else:
            out.append("<" + t + ">")
    elif tag == "message":
        m = body if isinstance(body, dict) else {}
        t = m.get("type")
        t = t if isinstance(t, str) and not isinstance(t, GoNumber) else ""
        out.append(t + "(" + go_marshal(m.get("json")) + ")")
    else:
        raise DecodeError("unknown value tag %r" % tag)


def quote_string(s: str) -> str:
    """A CEL double-quoted string literal: ``\\"``, ``\\\\``, ``\\n``, ``\\r``,
    ``\\t`` and ``\\u00xx`` for other controls; everything else as is."""
    b: List[str] = ['"']
    for ch in s:
        if ch == '"':
            b.append('\\"')
        elif ch == "\\":
            b.append("\\\\")
        elif ch == "\n":
            b.append("\\n")
        elif ch == "\r":
            b.append("\\r")
        elif ch == "\t":
            b.append("\\t")
        elif ch < " ":
            b.append("\\u%04x" % ord(ch))
        elif "\ud800" <= ch <= "\udfff":
            b.append("\ufffd")  # Go ranges over invalid UTF-8 as U+FFFD
        else:
            b.append(ch)
    b.append('"')
    return "".join(b)


def quote_bytes(p: bytes) -> str:
    """A CEL bytes literal: printable ASCII as is (``\\"`` and ``\\\\`` escaped),
    every other byte ``\\xhh``."""
    b: List[str] = ['b"']
    for c in p:
        if c == 0x22:
            b.append('\\"')
        elif c == 0x5C:
            b.append("\\\\")
        elif 0x20 <= c < 0x7F:
            b.append(chr(c))
        else:
            b.append("\\x%02x" % c)
    b.append('"')
    return "".join(b)


