#!/usr/bin/env python3
"""Runs the conformance corpus (conformance/corpus/*.jsonl) through the Python
host and writes the result file (conformance/FORMAT.md), byte for byte what
the Go hosts' runner (conformance/cmd/run) writes:

    python tools/conformance.py [--corpus DIR] [--out FILE] [--expect]

One instance runs every test in corpus order (files in byte order of their
names); compile and eval requests are the corpus bytes as they are; a test's
program is freed after its eval; a trap is recorded as {"hostError":"trap"}
and the instance replaced. --expect also judges the results against the
corpus expectations and prints "N passed, N failed, N skipped".
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple, Type

if TYPE_CHECKING:
    from celwasm import Instance, Module

_DECODER = json.JSONDecoder()
_WS = " \t\n\r"


def raw_members(line: str) -> Dict[str, str]:
    """The top-level members of a JSON object line with their values' raw text
    (Go's json.RawMessage: exact bytes, nothing re-encoded)."""
    i = 0
    n = len(line)

    def ws(j: int) -> int:
        while j < n and line[j] in _WS:
            j += 1
        return j

    i = ws(i)
    if i >= n or line[i] != "{":
        raise ValueError("not a JSON object")
    i = ws(i + 1)
    out: Dict[str, str] = {}
    if i < n and line[i] == "}":
        return out
    while True:
        key, i = _DECODER.raw_decode(line, i)
        if not isinstance(key, str):
            raise ValueError("object key is not a string")
        i = ws(i)
        if i >= n or line[i] != ":":
            raise ValueError("expected ':'")
        i = ws(i + 1)
        _, end = _DECODER.raw_decode(line, i)
        out[key] = line[i:end]
        i = ws(end)
        if i < n and line[i] == ",":
            i = ws(i + 1)
            continue
        if i < n and line[i] == "}":
            if ws(i + 1) != n:
                raise ValueError("trailing data")
            return out
        raise ValueError("expected ',' or '}'")


class Test:
    __slots__ = ("id", "compile", "eval", "expect", "skip", "part")

    def __init__(self, line: str, part: str) -> None:
        m = raw_members(line)
        self.id: str = json.loads(m["id"])
        self.compile: bytes = m.get("compile", "").encode("utf-8")
        ev = m.get("eval")
        self.eval: Optional[bytes] = None if ev is None else ev.encode("utf-8")
        self.expect: Dict[str, Any] = json.loads(m.get("expect", "{}"))
        skip = json.loads(m["skip"]) if "skip" in m else ""
        self.skip: str = skip if isinstance(skip, str) else ""
        self.part = part


def corpus_files(directory: Path) -> List[Path]:
    """The corpus files in the order runners read them: byte order of names."""
    return sorted(directory.glob("*.jsonl"), key=lambda p: p.name.encode("utf-8"))


def read_corpus(directory: Path) -> List[Test]:
    tests: List[Test] = []
    seen = set()
    files = corpus_files(directory)
    if not files:
        raise SystemExit("no corpus files in %s" % directory)
    for f in files:
        data = f.read_bytes()
        lines = data.split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        for no, raw in enumerate(lines, 1):
            if raw.endswith(b"\r"):
                raw = raw[:-1]
            try:
                t = Test(raw.decode("utf-8"), f.stem)
            except (ValueError, KeyError) as e:
                raise SystemExit("%s:%d: %s" % (f, no, e))
            if t.id in seen:
                raise SystemExit("%s:%d: duplicate id %r" % (f, no, t.id))
            seen.add(t.id)
            tests.append(t)
    return tests


def _strip_handle(resp: bytes) -> Tuple[int, bytes, bool]:
    prefix = b'{"program":'
    if not resp.startswith(prefix):
        return 0, resp, False
    rest = resp[len(prefix):]
    i = rest.find(b",")
    if i < 0 or not rest[:i].isdigit():
        return 0, resp, False
    n = int(rest[:i])
    if n > 0xFFFFFFFF:
        return 0, resp, False
    return n, b"{" + rest[i + 1:], True


def _trim_space(b: bytes) -> bytes:
    return b.strip(b" \t\n\r\v\f")


def run_test(inst: "Instance", t: Test, trap: Optional[Type[BaseException]] = None) -> Tuple[bytes, bool]:
    """One result line (without \\n) and whether the instance failed. inst
    has compile, eval and free; trap is the exception a failed call raises
    (celwasm.TrapError; another host's for the Extism plugin runner,
    wasm/extism/test-python)."""
    if trap is None:
        from celwasm import TrapError as trap
    id_json = json.dumps(t.id).encode("ascii")  # ids are printable ASCII without '"' and '\\'
    if t.skip:
        return b'{"id":' + id_json + b',"skip":true}', False
    host_error = b'{"id":' + id_json + b',"hostError":"trap"}'
    try:
        resp = inst.compile(t.compile)
    except trap as e:
        print("%s: %s" % (t.id, e), file=sys.stderr)
        return host_error, True
    handle, compile_resp, ok = _strip_handle(resp)
    line = b'{"id":' + id_json + b',"compile":' + compile_resp + b',"eval":'
    if not ok or t.eval is None:
        return line + b"null}", False
    ev = _trim_space(t.eval)
    req = b'{"program":%d' % handle
    req += b"," + ev[1:] if len(ev) > 2 else b"}"
    try:
        resp = inst.eval(req)
        inst.free(handle)
    except trap as e:
        print("%s: %s" % (t.id, e), file=sys.stderr)
        return host_error, True
    return line + resp + b"}", False


def run(tests: List[Test], module: Optional["Module"] = None) -> Tuple[bytes, int]:
    """Runs the tests; returns the result file's bytes and the host errors."""
    from celwasm import Module

    module = module or Module()
    inst = module.instantiate()
    out: List[bytes] = []
    host_errors = 0
    for t in tests:
        line, failed = run_test(inst, t)
        if failed:
            host_errors += 1
            inst.close()
            inst = module.instantiate()
        out.append(line)
        out.append(b"\n")
    inst.close()
    return b"".join(out), host_errors


# --- judging (as conformance/cmd/compare judges; with --expect a failure fails the run) ---


def judge(t: Test, line: bytes) -> Tuple[str, str]:
    r = json.loads(line)
    if t.skip:
        return ("skipped", "") if r.get("skip") else ("failed", "ran a skipped test")
    if "hostError" in r:
        return "failed", "host error " + r["hostError"]
    comp, ev = r.get("compile") or {}, r.get("eval")
    exp = t.expect
    if exp.get("compileError"):
        return ("passed", "") if "error" in comp else ("failed", "compiled")
    if "error" in comp:
        return "failed", "compile error: " + str(comp["error"].get("message", ""))[:200]
    if "type" in exp and comp.get("outputType") != exp["type"]:
        return "failed", "type %s, want %s" % (comp.get("outputType"), exp["type"])
    if "costEstimate" in exp and comp.get("costEstimate") != exp["costEstimate"]:
        return "failed", "cost estimate %s, want %s" % (comp.get("costEstimate"), exp["costEstimate"])
    if t.eval is None:
        return "passed", ""
    if not isinstance(ev, dict):
        return "failed", "no eval"
    if exp.get("evalError"):
        return ("passed", "") if "error" in ev else ("failed", "evaluated to %s" % json.dumps(ev.get("value"))[:200])
    if "error" in ev:
        return "failed", "eval error: " + str(ev["error"].get("message", ""))[:200]
    if "value" in exp and ev.get("value") != exp["value"]:
        return "failed", "value %s, want %s" % (json.dumps(ev.get("value"))[:200], json.dumps(exp["value"])[:200])
    if "cost" in exp and ev.get("cost") != exp["cost"]:
        return "failed", "cost %s, want %s" % (ev.get("cost"), exp["cost"])
    return "passed", ""


def main(argv: Optional[List[str]] = None) -> int:
    here = Path(__file__).resolve().parent
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=here.parent.parent / "conformance" / "corpus")
    ap.add_argument("--out", type=Path, default=here.parent.parent / "out" / "conformance" / "python.jsonl")
    ap.add_argument("--expect", action="store_true", help="judge the results against the corpus expectations")
    ap.add_argument("--compare", type=Path, action="append", default=[], help="a result file that must be byte-identical")
    args = ap.parse_args(argv)
    from celwasm import Module

    t0 = time.perf_counter()
    tests = read_corpus(args.corpus)
    module = Module()
    loaded = time.perf_counter() - t0
    data, host_errors = run(tests, module)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(data)
    digest = hashlib.sha256(data).hexdigest()
    print(
        "python: %d tests in %.1fs (module load %.1fs), %d host errors -> %s sha256 %s"
        % (len(tests), time.perf_counter() - t0, loaded, host_errors, args.out, digest)
    )
    status = 0
    if host_errors:
        print("python: FAIL: %d host errors" % host_errors)
        status = 1
    if args.expect:
        counts = {"passed": 0, "failed": 0, "skipped": 0}
        failures: List[str] = []
        for t, line in zip(tests, data.split(b"\n")):
            outcome, why = judge(t, line)
            counts[outcome] += 1
            if outcome == "failed":
                failures.append("  %s: %s" % (t.id, why))
        print("python: %(passed)d passed, %(failed)d failed, %(skipped)d skipped" % counts)
        for f in failures[:20]:
            print(f)
        if failures:
            print("python: FAIL: %d unmet expectations" % len(failures))
            status = 1
    for other in args.compare:
        if not other.exists():
            print("compare: %s is missing" % other)
            status = 1
            continue
        od = hashlib.sha256(other.read_bytes()).hexdigest()
        if od == digest:
            print("compare: identical to %s (sha256 %s)" % (other, od))
        else:
            print("compare: DIFFERS from %s (sha256 %s)" % (other, od))
            mine, theirs = data.split(b"\n"), other.read_bytes().split(b"\n")
            shown = 0
            for a, b in zip(mine, theirs):
                if a != b and shown < 5:
                    print("  python: %s\n  other:  %s" % (a[:300].decode("utf-8", "replace"), b[:300].decode("utf-8", "replace")))
                    shown += 1
            if len(mine) != len(theirs):
                print("  %d lines vs %d" % (len(mine), len(theirs)))
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
