#!/usr/bin/env python3
"""Runs the conformance corpus through the celwasm Extism plugin with
Extism's Python SDK (PyPI extism + extism-sys) and writes the result file
(conformance/FORMAT.md), byte for byte what every celwasm host writes:

    python conformance.py --plugin build/celwasm-extism.wasm [--corpus DIR] [--out FILE]
        [--compare FILE]...

The corpus reading, the per-test requests and the judging are the Python
SDK's runner (sdk-python/tools/conformance.py); this file only supplies an
instance that calls the plugin's compile, eval and free exports. A failed
Extism call (extism.Error) is recorded as {"hostError":"trap"} and the
instance replaced, as there.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path
from typing import List, Optional

import extism
from extism.extism import CompiledPlugin

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent.parent
sys.path.insert(0, str(ROOT / "sdk-python" / "tools"))
import conformance as runner  # noqa: E402  (sdk-python/tools/conformance.py)


def manifest(plugin: Path, timeout_ms: int = 0, max_pages: int = 0) -> dict:
    """The plugin's Extism manifest; WASI goes on at CompiledPlugin."""
    m: dict = {"wasm": [{"path": str(plugin)}]}
    if timeout_ms:
        m["timeout_ms"] = timeout_ms
    if max_pages:
        m["memory"] = {"max_pages": max_pages}
    return m


class Instance:
    """One plugin instance with the interface runner.run_test drives."""

    def __init__(self, compiled: CompiledPlugin) -> None:
        self.plugin = extism.Plugin(compiled)

    def compile(self, req: bytes) -> bytes:
        return self.plugin.call("compile", req)

    def eval(self, req: bytes) -> bytes:
        return self.plugin.call("eval", req)

    def free(self, handle: int) -> None:
        resp = self.plugin.call("free", b'{"program":%d}' % handle)
        if resp != b'{"freed":true}':
            raise extism.Error("free %d: %s" % (handle, resp.decode("utf-8", "replace")))

    def close(self) -> None:
        self.plugin.__del__()


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plugin", type=Path, default=ROOT / "build" / "celwasm-extism.wasm")
    ap.add_argument("--corpus", type=Path, default=ROOT / "conformance" / "corpus")
    ap.add_argument("--out", type=Path, default=ROOT / "out" / "conformance" / "extism-python.jsonl")
    ap.add_argument("--compare", type=Path, action="append", default=[], help="a result file that must be byte-identical")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    tests = runner.read_corpus(args.corpus)
    compiled = CompiledPlugin(manifest(args.plugin), wasi=True)
    loaded = time.perf_counter() - t0
    inst = Instance(compiled)
    out: List[bytes] = []
    host_errors = 0
    for t in tests:
        line, failed = runner.run_test(inst, t, trap=extism.Error)  # type: ignore[arg-type]
        if failed:
            host_errors += 1
            inst.close()
            inst = Instance(compiled)
        out.append(line + b"\n")
    inst.close()
    data = b"".join(out)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(data)
    digest = hashlib.sha256(data).hexdigest()
    print("extism-python: %d tests in %.1fs (plugin load %.1fs), %d host errors -> %s sha256 %s"
          % (len(tests), time.perf_counter() - t0, loaded, host_errors, args.out, digest))
    status = 1 if host_errors else 0
    counts = {"passed": 0, "failed": 0, "skipped": 0}
    failures = []
    for t, line in zip(tests, data.split(b"\n")):
        outcome, why = runner.judge(t, line)
        counts[outcome] += 1
        if outcome == "failed":
            failures.append("  %s: %s" % (t.id, why))
    print("extism-python: %(passed)d passed, %(failed)d failed, %(skipped)d skipped" % counts)
    for f in failures[:20]:
        print(f)
    if failures:
        status = 1
    if not args.compare:
        print("extism-python: FAIL: nothing to compare with (--compare)")
        status = 1
    for other in args.compare:
        if not other.exists():
            print("compare: %s is missing" % other)
            status = 1
        elif other.read_bytes() == data:
            print("compare: identical to %s" % other)
        else:
            print("compare: DIFFERS from %s (sha256 %s)" % (other, hashlib.sha256(other.read_bytes()).hexdigest()))
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
