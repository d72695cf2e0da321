#!/usr/bin/env python3
"""Writes cases.jsonl, the adversarial corpus every host runs (docs/reliability.md).

One case per line:
  {"id": "...", "expression": "..." | [[PIECE, COUNT], ...], "variables": {"name": "CEL type"},
   "activation": [[PIECE, COUNT], ...],       # the activation's JSON text: each PIECE repeated COUNT times
   "costLimit": N,                              # optional; default 1,000,000
   "expect": {"value": V} | {"error": CODE},    # V as canonical typed JSON (docs/value-encoding.md)
   "cli": {"values": [V, ...]} | {"exit": N, "error": TEXT}}   # optional: the CLI, where a file differs
A PIECE is a string, or {"hex": "ff"} for bytes that are not UTF-8. A runner compiles the expression
with those declarations (base kubernetes, the default compatibility version), evaluates the activation
text as is (bytes, passed through untouched), and checks the outcome: the value, or the error code from
compile or eval. After every case it evaluates the canary below on the same runtime (one instance), which
must still answer 42. Run: python3 conformance/adversarial/gen.py > conformance/adversarial/cases.jsonl
"""
import json

CANARY = {"expression": "x + 1", "variables": {"x": "int"}, "activation": [['{"x":41}', 1]], "expect": {"value": {"int": "42"}}}
DYN = {"self": "dyn"}
LIMIT = 1000  # codec.MaxDepth: the activation object itself is level 1
cases = []


def case(id, expression, activation, expect, variables=DYN, **kw):
    c = {"id": id, "expression": expression, "variables": variables, "activation": activation, "expect": expect}
    c.update(kw)
    cases.append(c)


def doc(*pieces):
    return [['{"self":', 1], *pieces, ["}", 1]]


T = {"value": True}
BAD = {"error": "invalid_activation"}
# Nesting: at the limit (the activation object + 999 levels), past it, far past it.
for kind, open_, close in (("arrays", "[", "]"), ("objects", '{"a":', "}")):
    case(f"nest/{kind}-at-limit", "true", doc([open_, LIMIT - 1], ["1", 1], [close, LIMIT - 1]), T)
    case(f"nest/{kind}-past-limit", "true", doc([open_, LIMIT], ["1", 1], [close, LIMIT]), BAD)
    case(f"nest/{kind}-100000", "true", doc([open_, 100000], ["1", 1], [close, 100000]), BAD)
case("nest/unclosed-100000", "true", doc(["[", 100000]), BAD)
# Size: 3 MiB (kube-apiserver's request limit) and 64 MiB.
case("size/string-3MiB", "size(self)", doc(['"', 1], ["a", 3 << 20], ['"', 1]), {"value": {"int": str(3 << 20)}})
case("size/list-3MiB", "size(self) == 1048576 && self.all(i, i == 1)", doc(["[", 1], ["1,", (1 << 20) - 1], ["1]", 1]),
     {"error": "cost_limit_exceeded"})
case("size/list-3MiB-size", "size(self)", doc(["[", 1], ["1,", (1 << 20) - 1], ["1]", 1]), {"value": {"int": str(1 << 20)}})
case("size/string-64MiB", "size(self)", doc(['"', 1], ["a", 64 << 20], ['"', 1]), {"value": {"int": str(64 << 20)}})
# 32 Mi list elements as CEL values need more than the 1 GiB every host caps an instance at.
case("size/list-64MiB-memory-cap", "size(self)", doc(["[", 1], ["1,", (32 << 20) - 1], ["1]", 1]), {"error": "trap"})
# UTF-8.
case("utf8/invalid-in-value", "self", doc(['"a', 1], [{"hex": "ff"}, 1], ['b"', 1]), BAD)
case("utf8/invalid-in-key", "self", doc(['{"a', 1], [{"hex": "fe"}, 1], ['":1}', 1]), BAD)
case("utf8/overlong-slash", "self", doc(['"', 1], [{"hex": "c0af"}, 1], ['"', 1]), BAD)
case("utf8/truncated-sequence", "self", doc(['"', 1], [{"hex": "e282"}, 1], ['"', 1]), BAD)
case("utf8/encoded-surrogate", "self", doc(['"', 1], [{"hex": "eda080"}, 1], ['"', 1]), BAD)
case("utf8/escaped-lone-surrogate", "self", doc(['"\\ud800"', 1]), {"value": "\ufffd"})
case("utf8/escaped-nul", "self", doc(['"a\\u0000b"', 1]), {"value": "a\u0000b"})
case("utf8/raw-control-character", "self", doc(['"a', 1], [{"hex": "01"}, 1], ['b"', 1]), BAD)
# JSON syntax.
case("json/duplicate-keys", "self.a", doc(['{"a":1,"a":2}', 1]), {"value": {"int": "2"}})
case("json/duplicate-variable", "self", [['{"self":1,"self":2}', 1]], {"value": {"int": "2"}})
case("json/nan", "self", doc(["NaN", 1]), BAD)
case("json/infinity", "self", doc(["Infinity", 1]), BAD)
case("json/minus-infinity", "self", doc(["-Infinity", 1]), BAD)
case("json/trailing-garbage", "self", [['{"self":1} x', 1]], BAD)
case("json/two-values", "self", [['{"self":1}{"self":2}', 1]], BAD,
     cli={"values": [{"int": "1"}, {"int": "2"}]})   # a file: two documents, as kubectl reads JSON
case("json/byte-order-mark", "self", [[{"hex": "efbbbf"}, 1], ['{"self":1}', 1]], BAD,
     cli={"values": [{"int": "1"}]})   # a file: not JSON (no {), so YAML, which allows the mark, as kubectl
case("json/single-quotes", "self", [["{'self':1}", 1]], BAD)
case("json/trailing-comma", "self", [['{"self":[1,2,],}', 1]], BAD)
case("json/not-an-object", "self", [["[1]", 1]], BAD)
case("json/empty", "1", [["", 1]], BAD,
     cli={"values": [{"int": "1"}]})   # a file with no documents: evaluated once without input, as with no -i
# Numbers: past int64 and uint64 (under dyn an integral number beyond int64 is a double, as in JSON).
case("number/int64-max", "self", doc(["9223372036854775807", 1]), {"value": {"int": "9223372036854775807"}})
case("number/int64-min", "self", doc(["-9223372036854775808", 1]), {"value": {"int": "-9223372036854775808"}})
case("number/past-int64", "self", doc(["9223372036854775808", 1]), {"value": {"double": "9223372036854776000"}})
case("number/past-uint64", "self", doc(["18446744073709551616", 1]), {"value": {"double": "18446744073709552000"}})
case("number/past-int64-declared-int", "x", [['{"x":9223372036854775808}', 1]], {"error": "eval_error"}, variables={"x": "int"})
case("number/past-uint64-declared-uint", "x", [['{"x":18446744073709551616}', 1]], {"error": "eval_error"}, variables={"x": "uint"})
case("number/exponent-overflow", "self", doc(["1e400", 1]), {"value": {"double": "Infinity"}})
case("number/400-digits", "self", doc(["1" + "0" * 400, 1]), {"value": {"double": "Infinity"}})
# Expressions: past cel-go's recursion and size limits.
E = {"error": "compile_error"}
case("expr/parentheses-250", [["(", 250], ["1", 1], [")", 250]], [["{}", 1]], E, variables={})
case("expr/lists-1000", [["[", 1000], ["1", 1], ["]", 1000]], [["{}", 1]], E, variables={})
case("expr/additions-10000", [["1+", 9999], ["1", 1]], [["{}", 1]], E, variables={})
case("expr/calls-300", [["'a'", 1], [".lowerAscii()", 300]], [["{}", 1]], E, variables={})
case("expr/string-literal-1MiB", [["size('", 1], ["a", 1 << 20], ["')", 1]], [["{}", 1]], E, variables={})
case("expr/int-literal-overflow", "99999999999999999999999", [["{}", 1]], E, variables={})
case("expr/uint-literal-overflow", "18446744073709551616u", [["{}", 1]], E, variables={})
case("expr/conjunction-5000", [["true && ", 4999], ["true", 1]], [["{}", 1]], T, variables={})
# Cost bombs: stopped by the runtime cost limit (kube-apiserver's PerCallLimit, 1,000,000).
R = "[1,2,3,4,5,6,7,8,9,10]"
case("cost/nested-comprehensions", f"{R}.all(a, {R}.all(b, {R}.all(c, {R}.all(d, {R}.all(e, {R}.all(f, a+b+c+d+e+f > 0))))))",
     [["{}", 1]], {"error": "cost_limit_exceeded"}, variables={})
case("cost/string-growth", "lists.range(1000).map(i, lists.range(1000).map(j, 'x').join('')).join('').size()",
     [["{}", 1]], {"error": "cost_limit_exceeded"}, variables={})
case("cost/list-concatenation", "lists.range(3000).map(i, lists.range(i)).size()", [["{}", 1]], {"error": "cost_limit_exceeded"}, variables={})
case("cost/within-a-raised-limit", "lists.range(3000).map(i, i * 2).size()", [["{}", 1]], {"value": {"int": "3000"}}, variables={},
     costLimit=100000000)
# Regular expressions that backtrack catastrophically elsewhere; RE2 is linear.
case("regex/nested-quantifier", "self.matches('^(a+)+$')", doc(['"' + "a" * 64 + '!"', 1]), {"value": False})
case("regex/alternation", "self.matches('(a|aa)*b')", doc(['"', 1], ["a", 100000], ['"', 1]), {"value": False})
case("regex/invalid-pattern", "self.matches('(')", doc(['"a"', 1]), {"error": "compile_error"})   # a constant pattern is compiled with the program
case("regex/invalid-pattern-at-runtime", "'a'.matches(self)", doc(['"("', 1]), {"error": "eval_error"})

print(json.dumps({"id": "canary", **CANARY}, ensure_ascii=False, separators=(",", ":")))
for c in cases:
    print(json.dumps(c, ensure_ascii=False, separators=(",", ":")))
