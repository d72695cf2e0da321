"""sigs.k8s.io/yaml's ``JSONToYAML`` (go.yaml.in/yaml/v2 v2.4.4's
``Unmarshal`` then ``Marshal``) for JSON data: the YAML the Go CLI prints for
a mutated object (``celwasm admit``: "mutated by admission to:").

An adapted copy of the parts of go-yaml v2 that JSON data reaches: how a
plain scalar would resolve (resolve.go), the natural key order (sorter.go),
the scalar style choice (encode.go ``stringv``, emitterc.go
``yaml_emitter_analyze_scalar`` and ``yaml_emitter_select_scalar_style``)
and the block emitter's writers with the default settings (2-space indent,
no line width, unicode). tests/test_cli_admit.py compares it with the Go CLI.
"""

from __future__ import annotations

import calendar
import re
import unicodedata
from decimal import Decimal
from functools import cmp_to_key
from typing import Any, List

__all__ = ["json_to_yaml"]

_INT64 = (-(1 << 63), (1 << 63) - 1)
_UINT64_MAX = (1 << 64) - 1

# resolve.go's resolveMap: the plain scalars that are not strings.
_RESOLVE_MAP = set(
    "y Y yes Yes YES true True TRUE on On ON n N no No NO false False FALSE off Off OFF ~ null Null NULL "
    ".nan .NaN .NAN .inf .Inf .INF +.inf +.Inf +.INF -.inf -.Inf -.INF <<".split()
) | {""}
_HINT = {c: "S" for c in "+-"}
_HINT.update({c: "D" for c in "0123456789"})
_HINT.update({c: "M" for c in "yYnNtTfFoO~"})
_HINT["."] = "."

_YAML_STYLE_FLOAT = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
_BASE60_FLOAT = re.compile(r"^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$")
# strconv.ParseInt/ParseUint with base 0 (underscores already removed).
_GO_INT = re.compile(r"^[+-]?(0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|0[0-7]*|[1-9][0-9]*)$")
# strconv.ParseFloat's decimal and hexadecimal forms, inf and nan.
_GO_FLOAT = re.compile(r"^[+-]?((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?\d+|inf|infinity|nan)$", re.I)
# time.Parse layouts of resolve.go's allowedTimestampFormats.
_TIMESTAMPS = (
    re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})[Tt](\d{1,2}):(\d{1,2}):(\d{1,2})(?:[.,]\d+)?(?:Z|[+-](\d{2}):(\d{2}))$"),
    re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2}) (\d{1,2}):(\d{1,2}):(\d{1,2})(?:[.,]\d+)?()()$"),
    re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})()()()()()$"),
)


def _go_int(s: str) -> Any:
    """strconv.ParseInt(s, 0, 64), else ParseUint(s, 0, 64); None if neither."""
    if not _GO_INT.match(s):
        return None
    sign = -1 if s[0] == "-" else 1
    body = s.lstrip("+-")
    low = body.lower()
    if low.startswith("0x"):
        n = int(body[2:], 16)
    elif low.startswith("0b"):
        n = int(body[2:], 2)
    elif low.startswith("0o"):
        n = int(body[2:], 8)
    elif len(body) > 1 and body[0] == "0":
        n = int(body[1:], 8)
    else:
        n = int(body)
    n *= sign
    if _INT64[0] <= n <= _INT64[1]:
        return n
    if s[0] not in "+-" and 0 <= n <= _UINT64_MAX:
        return n
    return None


def _go_float_ok(s: str) -> bool:
    """strconv.ParseFloat(s, 64) succeeds: the syntax, and no overflow."""
    if not _GO_FLOAT.match(s):
        return False
    low = s.lower().lstrip("+-")
    if low in ("inf", "infinity", "nan"):
        return True
    try:
        f = float.fromhex(s) if "0x" in low else float(s)
    except ValueError:
        return False
    return f not in (float("inf"), float("-inf"))


def _timestamp(s: str) -> bool:
    for rx in _TIMESTAMPS:
        m = rx.match(s)
        if not m:
            continue
        y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
        if not 1 <= mo <= 12 or not 1 <= d <= calendar.monthrange(y, mo)[1]:
            return False
        if m.group(4):
            if int(m.group(4)) >= 24 or int(m.group(5)) >= 60 or int(m.group(6)) >= 60:
                return False
        if m.group(7) and (int(m.group(7)) >= 24 or int(m.group(8)) >= 60):
            return False
        return True
    return False


def _resolves_to_str(s: str) -> bool:
    """resolve("", s) == !!str: what s means as a plain scalar."""
    hint = _HINT.get(s[0]) if s else "N"
    if hint is None:
        return True
    if s in _RESOLVE_MAP:
        return False
    if hint == "M":
        return True
    if hint == ".":
        return not _go_float_ok(s)
    if hint == "N":
        return True
    if _timestamp(s):
        return False
    plain = s.replace("_", "")
    if _go_int(plain) is not None:
        return False
    if _YAML_STYLE_FLOAT.match(plain) and _go_float_ok(plain):
        return False
    return True


# --- emitterc.go's character classes ----------------------------------------------------------------


def _printable(c: str) -> bool:
    o = ord(c)
    return o == 0x0A or 0x20 <= o <= 0x7E or 0xA0 <= o <= 0xD7FF or (0xE000 <= o <= 0xFFFD and o != 0xFEFF)


def _is_break(c: str) -> bool:
    return c in "\r\n\x85\u2028\u2029"


def _is_blank(c: str) -> bool:
    return c in " \t"


_PLAIN, _SINGLE, _DOUBLE, _LITERAL = range(4)


def _analyze(s: str) -> "tuple[bool, bool, bool, bool]":
    """yaml_emitter_analyze_scalar: (multiline, block_plain_allowed,
    single_quoted_allowed, block_allowed)."""
    if not s:
        return False, True, True, False
    block_ind = s.startswith("---") or s.startswith("...")
    line_breaks = special = False
    leading_space = leading_break = trailing_space = trailing_break = False
    break_space = space_break = False
    preceded_ws = True
    prev_space = prev_break = False
    n = len(s)
    for i, c in enumerate(s):
        followed_ws = i + 1 >= n or _is_blank(s[i + 1]) or _is_break(s[i + 1])
        if i == 0:
            if c in "#,[]{}&*!|>'\"%@`":
                block_ind = True
            elif c in "?:" and followed_ws:
                block_ind = True
            elif c == "-" and followed_ws:
                block_ind = True
        else:
            if c == ":" and followed_ws:
                block_ind = True
            elif c == "#" and preceded_ws:
                block_ind = True
        if not _printable(c):
            special = True
        if c == " ":
            if i == 0:
                leading_space = True
            if i == n - 1:
                trailing_space = True
            if prev_break:
                break_space = True
            prev_space, prev_break = True, False
        elif _is_break(c):
            line_breaks = True
            if i == 0:
                leading_break = True
            if i == n - 1:
                trailing_break = True
            if prev_space:
                space_break = True
            prev_space, prev_break = False, True
        else:
            prev_space = prev_break = False
        preceded_ws = _is_blank(c) or _is_break(c)
    plain = single = block = True
    if leading_space or leading_break or trailing_space or trailing_break:
        plain = False
    if trailing_space:
        block = False
    if break_space:
        plain = single = False
    if space_break or special:
        plain = single = block = False
    if line_breaks or block_ind:
        plain = False
    return line_breaks, plain, single, block


def _style(s: str, simple_key: bool) -> int:
    """encode.go stringv, then yaml_emitter_select_scalar_style (block context)."""
    can_plain = _resolves_to_str(s) and not _BASE60_FLOAT.match(s)
    style = _LITERAL if "\n" in s else _PLAIN if can_plain else _DOUBLE
    multiline, plain_ok, single_ok, block_ok = _analyze(s)
    if simple_key and multiline:
        style = _DOUBLE
    if style == _PLAIN:
        if not plain_ok or (s == "" and simple_key):
            style = _SINGLE
    if style == _SINGLE and not single_ok:
        style = _DOUBLE
    if style == _LITERAL and (not block_ok or simple_key):
        style = _DOUBLE
    return style


_ESCAPES = {0: "0", 7: "a", 8: "b", 9: "t", 10: "n", 11: "v", 12: "f", 13: "r", 0x1B: "e", 0x22: '"', 0x5C: "\\", 0x85: "N", 0xA0: "_", 0x2028: "L", 0x2029: "P"}


def _literal_hints(s: str) -> str:
    hint = "2" if s[:1] == " " or (s[:1] != "" and _is_break(s[0])) else ""
    if s == "" or not _is_break(s[-1]):
        return hint + "-"
    if len(s) == 1 or _is_break(s[-2]):
        return hint + "+"
    return hint


def _key_less(a: str, b: str) -> bool:
    """sorter.go keyList.Less for two string keys."""
    ar, br = a, b
    for i in range(min(len(ar), len(br))):
        if ar[i] == br[i]:
            continue
        al, bl = ar[i].isalpha(), br[i].isalpha()
        if al and bl:
            return ar[i] < br[i]
        if al or bl:
            return bl
        an = bn = 0
        if ar[i] == "0" or br[i] == "0":
            j = i - 1
            while j >= 0 and unicodedata.category(ar[j]) == "Nd":
                if ar[j] != "0":
                    an = bn = 1
                    break
                j -= 1
        ai = i
        while ai < len(ar) and unicodedata.category(ar[ai]) == "Nd":
            an = an * 10 + ord(ar[ai]) - 48
            ai += 1
        bi = i
        while bi < len(br) and unicodedata.category(br[bi]) == "Nd":
            bn = bn * 10 + ord(br[bi]) - 48
            bi += 1
        if an != bn:
            return an < bn
        if ai != bi:
            return ai < bi
        return ar[i] < br[i]
    return len(ar) < len(br)


def _key_cmp(a: str, b: str) -> int:
    return -1 if _key_less(a, b) else 1 if _key_less(b, a) else 0


# Go's sort.Sort is not stable and keyList.Less is not a strict weak order for
# every set of keys (e.g. "1e3", "01", "0a"): there go-yaml's own order depends
# on the map's iteration order; for the keys objects have, it is this one.
_KEY_ORDER = cmp_to_key(_key_cmp)


def _go_float(f: float) -> str:
    """strconv.FormatFloat(f, 'g', -1, 64), as encode.go floatv writes it."""
    if f != f:
        return ".nan"
    if f in (float("inf"), float("-inf")):
        return ".inf" if f > 0 else "-.inf"
    if f == 0:
        return "-0" if str(f).startswith("-") else "0"
    # repr is the shortest decimal that reads back as f, as Go's shortest formatting.
    sign, digits, exp = Decimal(repr(f)).as_tuple()
    assert isinstance(exp, int)
    dp = len(digits) + exp  # the decimal point's position in the digits
    ds = "".join(map(str, digits)).lstrip("0")
    dp -= len(digits) - len(ds)
    ds = ds.rstrip("0") or "0"
    x = dp - 1
    neg = "-" if sign else ""
    # %e when the exponent is below -4 or at least 6 (the shortest form's precision for %g).
    if x < -4 or x >= 6:
        m = ds[0] + ("." + ds[1:] if len(ds) > 1 else "")
        return "%s%se%s%02d" % (neg, m, "-" if x < 0 else "+", abs(x))
    if dp <= 0:
        return neg + "0." + "0" * -dp + ds
    if dp >= len(ds):
        return neg + ds + "0" * (dp - len(ds))
    return neg + ds[:dp] + "." + ds[dp:]


class _Emitter:
    """The block emitter's state (emitterc.go): column, whitespace, indention, indent."""

    def __init__(self) -> None:
        self.out: List[str] = []
        self.column = 0
        self.whitespace = True
        self.indention = True
        self.indent = -1
        self.indents: List[int] = []

    def put(self, s: str) -> None:
        self.out.append(s)
        self.column += len(s)

    def put_break(self) -> None:
        self.out.append("\n")
        self.column = 0

    def write_indent(self) -> None:
        indent = max(self.indent, 0)
        if not self.indention or self.column > indent or (self.column == indent and not self.whitespace):
            self.put_break()
        if self.column < indent:
            self.put(" " * (indent - self.column))
        self.whitespace = self.indention = True

    def indicator(self, s: str, need_ws: bool, is_ws: bool, is_indention: bool) -> None:
        if need_ws and not self.whitespace:
            self.put(" ")
        self.put(s)
        self.whitespace = is_ws
        self.indention = self.indention and is_indention

    def increase(self, flow: bool, indentless: bool) -> None:
        self.indents.append(self.indent)
        if self.indent < 0:
            self.indent = 2 if flow else 0
        elif not indentless:
            self.indent += 2

    def pop(self) -> None:
        self.indent = self.indents.pop()

    def node(self, v: Any, mapping: bool = False, simple_key: bool = False) -> None:
        if isinstance(v, dict):
            if not v:
                self.empty("{", "}")
                return
            self.increase(False, False)
            for k in sorted(v, key=_KEY_ORDER):
                self.write_indent()
                simple = "\n" not in k and not any(_is_break(c) for c in k) and len(k.encode("utf-8")) <= 128
                if simple:
                    self.node(k, mapping=True, simple_key=True)
                    self.indicator(":", False, False, False)
                else:
                    self.indicator("?", True, False, True)
                    self.node(k, mapping=True)
                    self.write_indent()
                    self.indicator(":", True, False, True)
                self.node(v[k], mapping=True)
            self.pop()
        elif isinstance(v, list):
            if not v:
                self.empty("[", "]")
                return
            self.increase(False, mapping and not self.indention)
            for x in v:
                self.write_indent()
                self.indicator("-", True, False, True)
                self.node(x)
            self.pop()
        else:
            self.scalar(v, simple_key)

    def empty(self, open_: str, close: str) -> None:
        self.increase(True, False)
        self.indicator(open_, True, True, False)
        self.pop()
        self.indicator(close, False, False, False)

    def scalar(self, v: Any, simple_key: bool) -> None:
        if v is None:
            text, style = "null", _PLAIN
        elif v is True or v is False:
            text, style = ("true" if v else "false"), _PLAIN
        elif isinstance(v, int):
            if _INT64[0] <= v <= _UINT64_MAX:
                text = str(v)
            else:
                text = _go_float(float(v))
            style = _PLAIN
        elif isinstance(v, float):
            text, style = _go_float(v), _PLAIN
        else:
            text, style = v, _style(v, simple_key)
        self.increase(True, False)
        if style == _LITERAL:
            self.literal(text)
        else:
            self.flow_scalar(text, style, not simple_key)
        self.pop()


    def write(self, c: str) -> None:
        self.out.append(c)
        self.column += 1

    def write_break(self, c: str) -> None:
        self.out.append(c)
        self.column = 0

    def flow_scalar(self, text: str, style: int, allow_breaks: bool) -> None:
        """yaml_emitter_write_plain_scalar, _single_quoted_scalar and
        _double_quoted_scalar: long lines break at a space past column 80."""
        if style == _PLAIN:
            if not self.whitespace:
                self.put(" ")
        else:
            self.indicator("'" if style == _SINGLE else '"', True, False, False)
        spaces = breaks = False
        n = len(text)
        i = 0
        while i < n:
            c = text[i]
            nxt = text[i + 1] if i + 1 < n else ""
            if style == _DOUBLE and (not _printable(c) or c == "\ufeff" or _is_break(c) or c in '"\\'):
                o = ord(c)
                e = _ESCAPES.get(o)
                if e is None:
                    e = "x%02X" % o if o <= 0xFF else "u%04X" % o if o <= 0xFFFF else "U%08X" % o
                self.put("\\" + e)
                spaces = False
            elif c == " ":
                edge = style == _PLAIN or 0 < i < n - 1
                if allow_breaks and not spaces and self.column > 80 and edge and (style == _DOUBLE or nxt != " "):
                    self.write_indent()
                    if style == _DOUBLE and nxt == " ":
                        self.put("\\")
                else:
                    self.write(c)
                spaces = True
            elif style != _DOUBLE and _is_break(c):
                if not breaks and c == "\n":
                    self.put_break()
                if c == "\n":
                    self.put_break()
                else:
                    self.write_break(c)
                self.indention = True
                breaks = True
            else:
                if breaks:
                    self.write_indent()
                if style == _SINGLE and c == "'":
                    self.put("'")
                self.write(c)
                if style != _DOUBLE:
                    self.indention = False
                spaces = breaks = False
            i += 1
        if style != _PLAIN:
            self.indicator("'" if style == _SINGLE else '"', False, False, False)
        self.whitespace = self.indention = False

    def literal(self, text: str) -> None:
        """yaml_emitter_write_literal_scalar."""
        self.indicator("|", True, False, False)
        self.put(_literal_hints(text))
        self.put_break()
        self.indention = self.whitespace = True
        breaks = True
        for c in text:
            if _is_break(c):
                if c == "\n":
                    self.put_break()
                else:
                    self.write_break(c)
                self.indention = breaks = True
            else:
                if breaks:
                    self.write_indent()
                    breaks = False
                self.write(c)
                self.indention = False


# What go-yaml's reader refuses in the JSON text json.Marshal writes (raw
# there: DEL, C1 controls, U+FFFE, U+FFFF): JSONToYAML fails.
_UNREADABLE = re.compile("[\x7f-\x84\x86-\x9f\ufffe\uffff]")
# The one line break json.Marshal leaves raw, NEL, with the spaces around it:
# go-yaml's scanner folds it inside a double-quoted scalar.
_NEL_RUN = re.compile(" *(?:\x85 *)+")


def _fold(m: "re.Match[str]") -> str:
    n = m.group(0).count("\x85")
    return " " if n == 1 else "\n" * (n - 1)


def _as_read(v: Any) -> Any:
    """v as yaml.Unmarshal reads its json.Marshal text."""
    if isinstance(v, str):
        if _UNREADABLE.search(v):
            raise ValueError("yaml: control characters are not allowed")
        return _NEL_RUN.sub(_fold, v) if "\x85" in v else v
    if isinstance(v, dict):
        if any("\x85" in k for k in v):
            # A key over two lines is not a key of a flow mapping.
            raise ValueError("yaml: did not find expected ',' or '}'")
        return {_as_read(k): _as_read(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_as_read(x) for x in v]
    return v


def json_to_yaml(v: Any) -> str:
    """The YAML sigs.k8s.io/yaml.JSONToYAML writes for JSON data ``v``
    (as ``json.loads`` returns it: dict, list, str, int, float, bool, None).

    Raises:
        ValueError: JSONToYAML fails on it (characters go-yaml does not read).
    """
    e = _Emitter()
    e.node(_as_read(v))
    e.write_indent()
    return "".join(e.out)
