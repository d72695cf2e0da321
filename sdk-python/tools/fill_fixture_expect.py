#!/usr/bin/env python3
"""Regenerates the sample corpus tests/fixtures/corpus/sample.jsonl from
tests/fixtures/corpus.in.jsonl (tests without expectations) and the Go host's
results for it — the expectations are what the Go host does, never typed by
hand:

    mkdir -p /tmp/in && cp tests/fixtures/corpus.in.jsonl /tmp/in/sample.jsonl
    (cd .. && go run ./conformance/cmd/run -host wasmtime -module build/celwasm.wasm \\
        -corpus /tmp/in -out /tmp/out)
    python tools/fill_fixture_expect.py /tmp/out/wasmtime.jsonl
"""

import json
import sys
from pathlib import Path

from conformance import raw_members

here = Path(__file__).resolve().parent.parent / "tests" / "fixtures"
results = [json.loads(l) for l in Path(sys.argv[1]).read_text("utf-8").split("\n") if l]
out = []
for line, r in zip((here / "corpus.in.jsonl").read_text("utf-8").split("\n"), results):
    m = raw_members(line)
    assert json.loads(m["id"]) == r["id"]
    if "skip" in m:
        expect = {}
    elif "error" in r["compile"]:
        expect = {"compileError": True}
    elif r["eval"] is None:
        expect = {"type": r["compile"]["outputType"]}
    elif "error" in r["eval"]:
        expect = {"evalError": True}
    else:
        expect = {"value": r["eval"]["value"]}
        if r["id"].startswith("k8s/"):
            expect["costEstimate"] = r["compile"]["costEstimate"]
            expect["cost"] = r["eval"]["cost"]
    parts = ['"id":' + m["id"], '"compile":' + m["compile"]]
    if "eval" in m:
        parts.append('"eval":' + m["eval"])
    parts.append('"expect":' + json.dumps(expect, ensure_ascii=False, separators=(",", ":")))
    if "skip" in m:
        parts.append('"skip":' + m["skip"])
    out.append("{" + ",".join(parts) + "}\n")
(here / "corpus" / "sample.jsonl").write_text("".join(out), "utf-8")
print("wrote", len(out), "tests")
