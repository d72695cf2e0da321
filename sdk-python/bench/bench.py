#!/usr/bin/env python3
"""Python benchmarks: the core issue's reference set (a)-(d) through celwasm
(wasmtime-py), PyPI cel-python (pure Python) and PyPI
common-expression-language (Rust) in one process, and cold start (import →
first result) with and without the compiled-module cache.

    python bench/bench.py --repo .. [--update ../docs/benchmarks.md]

Writes the "## Python" section of docs/benchmarks.md between
<!-- python-bench:start --> and <!-- python-bench:end --> (other sections
are left alone). Run by `make -C sdk-python bench`.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

import yaml

import celwasm

START, END = "<!-- python-bench:start -->", "<!-- python-bench:end -->"


def load_cases(repo: Path) -> List[Dict[str, Any]]:
    td = repo / "conformance" / "testdata"
    event_text = (td / "cloudevents" / "github-pull-request.json").read_text()
    event = json.loads(event_text)
    spec = yaml.safe_load((td / "k8s" / "webapp.yaml").read_text())["spec"]
    assert len(spec["items"]) == 100
    return [
        {"name": "(a) CloudEvent filter", "expr": 'ce.type == "com.github.pull.create" && ce.source.startsWith("https://github.com")', "var": "ce", "doc": event},
        {"name": "(b) replicas in range", "expr": "self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas", "var": "self", "doc": {"minReplicas": 1, "replicas": 3, "maxReplicas": 5}},
        {"name": "(c) 100 items match a regex", "expr": "self.items.all(i, i.name.matches('^[a-z]+$'))", "var": "self", "doc": spec},
        {"name": "(d) quantity compare", "expr": "quantity(self.mem).isLessThan(quantity('1Gi'))", "var": "self", "doc": {"mem": "768Mi"}},
    ]


def measure(fn: Callable[[], Any], budget: float) -> float:
    """Seconds per call: the fastest of 7 batches of ~budget/7 seconds each
    (the batch least disturbed by other load on a shared machine)."""
    for _ in range(3):
        fn()
    t0 = time.perf_counter()
    fn()
    one = max(time.perf_counter() - t0, 1e-7)
    n = max(1, int(budget / 7 / one))
    samples = []
    for _ in range(7):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        samples.append((time.perf_counter() - t0) / n)
    return min(samples)


def bench_celwasm(case: Dict[str, Any], budget: float, rt: celwasm.Runtime) -> Dict[str, Optional[float]]:
    prg = rt.env({case["var"]: "dyn"}).compile(case["expr"])
    act = {case["var"]: case["doc"]}
    raw = json.dumps(act, separators=(",", ":")).encode()
    assert prg.evaluate(act) is True and prg.evaluate(raw) is True
    # The module alone: the raw ABI on one instance, request bytes prepared.
    inst = rt.module.instantiate()
    try:
        creq = json.dumps({"expression": case["expr"], "env": {"variables": [{"name": case["var"], "type": "dyn"}]}}).encode()
        handle = json.loads(inst.compile(creq))["program"]
        ereq = b'{"program":%d,"activation":%s}' % (handle, raw)
        assert inst.eval(ereq).startswith(b'{"value":true,')
        module_only = measure(lambda: inst.eval(ereq), budget)
    finally:
        inst.close()
    return {
        "dict": measure(lambda: prg.evaluate(act), budget),
        "bytes": measure(lambda: prg.eval(raw), budget),
        "module": module_only,
    }


def bench_celpy(case: Dict[str, Any], budget: float) -> Dict[str, Any]:
    import celpy

    best: Dict[str, Any] = {"dict": None, "runner": None, "error": None}
    for runner in (celpy.InterpretedRunner, celpy.CompiledRunner):
        try:
            env = celpy.Environment(runner_class=runner)
            prg = env.program(env.compile(case["expr"]))
            var, doc = case["var"], case["doc"]
            r = prg.evaluate({var: celpy.json_to_cel(doc)})
            if not isinstance(r, celpy.celtypes.BoolType) or not bool(r):
                raise RuntimeError("result %r" % (r,))
        except Exception as e:
            best["error"] = best["error"] or "%s: %s" % (type(e).__name__, str(e).splitlines()[0][:80])
            continue
        t = measure(lambda: prg.evaluate({var: celpy.json_to_cel(doc)}), budget)
        if best["dict"] is None or t < best["dict"]:
            best.update(dict=t, runner=runner.__name__, error=None)
    return best


def bench_cel_rust(case: Dict[str, Any], budget: float) -> Dict[str, Any]:
    import cel

    try:
        prg = cel.compile(case["expr"])
        ctx = {case["var"]: case["doc"]}
        r = prg.execute(ctx)
        if r is not True:
            raise RuntimeError("result %r" % (r,))
    except Exception as e:
        return {"dict": None, "error": "%s: %s" % (type(e).__name__, str(e).splitlines()[0][:80])}
    return {"dict": measure(lambda: prg.execute(ctx), budget), "error": None}


COLD = r"""
import sys, time, json
t0 = time.perf_counter()
lib = sys.argv[1]
doc = {"minReplicas": 1, "replicas": 3, "maxReplicas": 5}
expr = "self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas"
if lib == "celwasm":
    import celwasm
    t1 = time.perf_counter()
    r = celwasm.Env({"self": "dyn"}).compile(expr).evaluate({"self": doc})
    extra = {"from_cache": celwasm.default_runtime().module.from_cache, "load": celwasm.default_runtime().module.load_seconds}
elif lib == "celpy":
    import celpy
    t1 = time.perf_counter()
    env = celpy.Environment()
    r = bool(env.program(env.compile(expr)).evaluate({"self": celpy.json_to_cel(doc)}))
    extra = {}
else:
    import cel
    t1 = time.perf_counter()
    r = cel.compile(expr).execute({"self": doc})
    extra = {}
t2 = time.perf_counter()
assert r is True
print(json.dumps(dict(extra, import_s=t1 - t0, first_result_s=t2 - t0)))
"""


def cold(lib: str, env: Optional[Dict[str, str]] = None) -> Dict[str, Any]:
    e = dict(os.environ)
    e.update(env or {})
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-c", COLD, lib], capture_output=True, text=True, env=e, timeout=900)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        raise RuntimeError(p.stderr)
    out = json.loads(p.stdout.strip().splitlines()[-1])
    out["wall_s"] = wall
    return out


def short_error(e: Optional[str]) -> str:
    e = (e or "").strip()
    for cut in (" (in activation", ". Check", "\n"):
        if cut in e:
            e = e[: e.index(cut)]
    return e.replace('("', "").replace("`", "'")


def fmt_us(s: Optional[float]) -> str:
    if s is None:
        return "–"
    us = s * 1e6
    return "%.1f µs" % us if us < 1000 else "{:,.0f} µs".format(us)


def ratio(a: Optional[float], b: Optional[float]) -> str:
    if a is None or b is None:
        return "–"
    r = a / b
    return "%.0f×" % r if r >= 10 else "%.1f×" % r if r >= 1 else "%.2f×" % r


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def version(dist: str) -> str:
    from importlib.metadata import version as v

    return v(dist)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repo", type=Path, default=Path(__file__).resolve().parents[2])
    ap.add_argument("--update", type=Path, help="markdown file to splice the section into")
    ap.add_argument("--budget", type=float, default=2.0, help="seconds of measurement per library and case")
    ap.add_argument("--cold-runs", type=int, default=2, help="runs of the uncached cold start (each compiles the module)")
    ap.add_argument("--warm-runs", type=int, default=5)
    args = ap.parse_args()
    t_start = time.perf_counter()

    cases = load_cases(args.repo)
    rt = celwasm.Runtime(instances=1)
    rows = []
    for c in cases:
        w = bench_celwasm(c, args.budget, rt)
        p = bench_celpy(c, args.budget)
        r = bench_cel_rust(c, args.budget)
        rows.append((c, w, p, r))
        print(
            "%-28s celwasm %s (bytes %s, module %s) | cel-python %s %s | cel(rust) %s"
            % (c["name"], fmt_us(w["dict"]), fmt_us(w["bytes"]), fmt_us(w["module"]), fmt_us(p["dict"]), p.get("runner") or p.get("error"), fmt_us(r["dict"]) if r["dict"] else r["error"]),
            flush=True,
        )

    warm = {lib: [cold(lib) for _ in range(args.warm_runs)] for lib in ("celwasm", "celpy", "cel")}
    assert all(x["from_cache"] for x in warm["celwasm"]), warm["celwasm"]
    uncached = []
    for _ in range(args.cold_runs):
        with tempfile.TemporaryDirectory() as d:
            uncached.append(cold("celwasm", {"CELWASM_CACHE_DIR": d}))
    assert not any(x["from_cache"] for x in uncached)

    def med(xs: List[Dict[str, Any]], k: str) -> float:
        return statistics.median(x[k] for x in xs)

    v = rt.version()
    lines = []
    lines.append(
        "Reproduce: `make -C sdk-python bench` (runs `sdk-python/bench/bench.py` in sdk-python/.venv with the "
        "versions pinned in sdk-python/requirements-dev.txt).\n"
    )
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines.append(
        "Machine: %s, %d cores (load average %.1f at the end of the run); Python %s; celwasm %s on wasmtime-py %s (module sha256 `%s…`); cel-python %s; "
        "common-expression-language %s.\n"
        % (cpu_model(), os.cpu_count() or 0, load, platform.python_version(), celwasm.__version__, version("wasmtime"), v.module_sha256[:12], version("cel-python"), version("common-expression-language"))
    )
    lines.append(
        "Per evaluation, the fastest of 7 batches (min, robust to other load on a shared machine), one process, each library's program compiled once. Input is a "
        "Python dict (the parsed document) for every library: celwasm encodes it as JSON, cel-python converts it "
        "with `celpy.json_to_cel` (its documented path; the faster of its interpreted and compiled runners is "
        "shown), common-expression-language takes the dict. \"celwasm, JSON bytes\" passes the document as JSON "
        "text, untouched (the path for documents read from files). Neither other library has the Kubernetes "
        "libraries, so (d) runs on celwasm only. \"module call\" is the module alone: one raw `celwasm_eval` "
        "call with the request bytes prepared (`celwasm.Instance.eval`), what every host pays.\n"
    )
    lines.append("| case | celwasm (dict) | celwasm (JSON bytes) | module call | cel-python | common-expression-language | cel-python / celwasm | common-expression-language / celwasm |")
    lines.append("|---|---|---|---|---|---|---|---|")
    for c, w, p, r in rows:
        lines.append(
            "| %s | %s | %s | %s | %s | %s | %s | %s |"
            % (
                c["name"],
                fmt_us(w["dict"]),
                fmt_us(w["bytes"]),
                fmt_us(w["module"]),
                fmt_us(p["dict"]) if p["dict"] else "not supported",
                fmt_us(r["dict"]) if r["dict"] else "not supported",
                ratio(p["dict"], w["dict"]),
                ratio(r["dict"], w["dict"]),
            )
        )
    lines.append("")
    unsupported = ["%s cel-python: `%s`" % (c["name"][:3], short_error(p["error"])) for c, w, p, r in rows if p["dict"] is None]
    unsupported += ["%s common-expression-language: `%s`" % (c["name"][:3], short_error(r["error"])) for c, w, p, r in rows if r["dict"] is None]
    if unsupported:
        lines.append("Not supported (no Kubernetes libraries): " + "; ".join(unsupported) + ".\n")
    lines.append("Reading:\n")
    for c, w, p, r in rows:
        parts = []
        if p["dict"]:
            x = p["dict"] / w["dict"]
            parts.append("%s cel-python (target ≥ 20×: %s)" % (ratio(p["dict"], w["dict"]) + " faster than", "met" if x >= 20 else "missed"))
        if r["dict"]:
            rr = r["dict"] / w["dict"]
            parts.append(("%s faster than common-expression-language" % ratio(r["dict"], w["dict"])) if rr >= 1 else ("%s slower than common-expression-language" % ratio(w["dict"], r["dict"])))
        share = 100.0 * w["module"] / w["dict"]
        parts.append("the module call is %.0f%% of celwasm's time" % min(share, 100.0))
        lines.append("- %s: %s." % (c["name"], "; ".join(parts)))
    lines.append(
        "- Where the expression does little work ((a), (b), (d)) the fixed cost of a module call (JSON in, "
        "environment lookup, canonical JSON out, ~7 µs for `true`) and reading the activation dominate; "
        "the Python side (encoding the dict, the pool, slicing the response) adds the rest. Where the engine "
        "works ((c): 100 RE2 matches), compiled Go code pays for the crossing.\n"
    )
    lines.append(
        "A ratio above 1× means celwasm is faster. Activation sizes: %s.\n"
        % ", ".join("%s %d B" % (c["name"][:3], len(json.dumps({c["var"]: c["doc"]}, separators=(",", ":")))) for c in cases)
    )
    lines.append("Cold start, a new process: `import` → first result of (b) (median of %d runs; uncached: %d runs, each in an empty cache directory).\n" % (args.warm_runs, args.cold_runs))
    lines.append("| | import | import → first result | process wall time |")
    lines.append("|---|---|---|---|")
    lines.append(
        "| celwasm, module cache warm (deserialize %.2f s) | %.2f s | %.2f s | %.2f s |"
        % (med(warm["celwasm"], "load"), med(warm["celwasm"], "import_s"), med(warm["celwasm"], "first_result_s"), med(warm["celwasm"], "wall_s"))
    )
    if uncached:
        lines.append(
            "| celwasm, no cache (Cranelift compile %.1f s, then cache write) | %.2f s | %.1f s | %.1f s |"
            % (med(uncached, "load"), med(uncached, "import_s"), med(uncached, "first_result_s"), med(uncached, "wall_s"))
        )
    lines.append("| cel-python | %.2f s | %.2f s | %.2f s |" % (med(warm["celpy"], "import_s"), med(warm["celpy"], "first_result_s"), med(warm["celpy"], "wall_s")))
    lines.append("| common-expression-language | %.3f s | %.3f s | %.2f s |" % (med(warm["cel"], "import_s"), med(warm["cel"], "first_result_s"), med(warm["cel"], "wall_s")))
    lines.append("")
    lines.append(
        "The module is compiled once per machine (per module sha256 and wasmtime version) and cached in the user "
        "cache directory (`~/.cache/celwasm/wasmtime-py`, %s MB); later processes map it. Benchmark run time %.0f s.\n"
        % (
            "%d" % (rt.module.cache_path.stat().st_size // (1 << 20)) if rt.module.cache_path and rt.module.cache_path.exists() else "?",
            time.perf_counter() - t_start,
        )
    )
    body = "\n".join(lines)
    print(body)
    if args.update:
        splice(args.update, body)
        print("updated", args.update)
    return 0


def splice(path: Path, body: str) -> None:
    old = path.read_text() if path.exists() else ""
    block = START + "\n" + body + END
    i, j = old.find(START), old.find(END)
    if i < 0 or j < i:
        s = old.rstrip("\n") if old else "# Benchmarks"
        s += "\n\n## Python\n\n" + block + "\n"
    else:
        s = old[:i] + block + old[j + len(END):]
    path.write_text(s)


if __name__ == "__main__":
    sys.exit(main())
