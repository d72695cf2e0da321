#!/usr/bin/env bash
# Regenerates test/fixtures/text-form.jsonl from the Go CLI (build/celwasm, `make cli` at the
# repository root): for each expression, the canonical JSON (-o json) and the text form (-o text)
# as the Go host prints them. The JS tests check decodeValue/toTypedJson/formatText against them.
set -euo pipefail
cd "$(dirname "$0")/.."
CLI=${CLI:-../build/celwasm}
out=test/fixtures/text-form.jsonl
: > "$out"
while IFS= read -r expr; do
  [ -z "$expr" ] && continue
  json=$("$CLI" eval --base cel -e "$expr" -o json)
  text=$("$CLI" eval --base cel -e "$expr" -o text)
  node -e 'console.log(JSON.stringify({expr: process.argv[1], json: process.argv[2], text: process.argv[3]}))' -- "$expr" "$json" "$text" >> "$out"
done <<'EXPRS'
null
[true, false]
-5
18446744073709551615u
[1.5, -0.0, 0.0/0.0, -1.0/0.0, 1.0/0.0, 1e21, 0.1, 1e-7, 123456789.125, 5e-324]
-9223372036854775807 - 1
b"\xff\x00ab\"\\"
"tab\t nl\n quote\" bs\\ ctl\u0001 u2028\u2028 é 😀"
[timestamp("2009-02-13T23:31:30.123456789Z"), timestamp("0001-01-01T00:00:00Z"), timestamp("9999-12-31T23:59:59.999999999Z"), timestamp("2026-01-01T10:00:00.5+02:00")]
[duration("1.5s"), duration("-90m"), duration("0s"), duration("-0.000000001s"), duration("1000h")]
[type(1), type(timestamp(0)), type([]), type(type)]
[optional.of(1), optional.none(), optional.of(optional.of("x"))]
{'x': 1, 2u: 'y', true: 'z', -1: 0, false: 1, 'a': [], 3u: {}}
{'b': 1, 'a': 2, '\uffff': 3, '😀': 4, 'Z': 5}
[[], {}, [[]], {'k': {'k2': [null]}}]
EXPRS
echo "wrote $out ($(wc -l < "$out") cases)"
