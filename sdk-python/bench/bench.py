#!/usr/bin/env python3
"""Python benchmarks: the core issue's reference set (a)-(d) through celwasm
(wasmtime-py), PyPI cel-python (pure Python) and PyPI
common-expression-language (Rust) in one process, and cold start (import →
first result) with and without the compiled-module cache.

    python bench/bench.py --repo .. [--out ../build/bench/python.json] [--quick]

Writes build/bench/python.json (the format of internal/benchdoc); the
renderer (go run ./cmd/celwasm-benchdoc) turns it into a section of
docs/benchmarks.md. Run by `make -C sdk-python bench`.
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


ROUNDS = 7


def measure(fn: Callable[[], Any], budget: float) -> float:
    """Seconds per call: the median of ROUNDS batches of ~budget/ROUNDS
    seconds each, each batch the mean of its calls."""
    for _ in range(3):
        fn()
    t0 = time.perf_counter()
    fn()
    one = max(time.perf_counter() - t0, 1e-7)
    n = max(1, int(budget / ROUNDS / one))
    samples = []
    for _ in range(ROUNDS):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        samples.append((time.perf_counter() - t0) / n)
    return statistics.median(samples)


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
        # What the dict and bytes paths call: celwasm_eval_activation.
        assert inst.eval_activation(handle, 0, raw)[0] is True
        activation_only = measure(lambda: inst.eval_activation(handle, 0, raw), budget)
    finally:
        inst.close()
    return {
        "dict": measure(lambda: prg.evaluate(act), budget),
        "bytes": measure(lambda: prg.eval(raw), budget),
        "module": module_only,
        "activation": activation_only,
    }


def empty_call(budget: float, rt: celwasm.Runtime) -> float:
    """Seconds per export call that does nothing: celwasm_free of a handle
    that was never given out, through the SDK's call path."""
    inst = rt.module.instantiate()
    try:
        assert inst.free(1 << 30) is False
        return measure(lambda: inst.free(1 << 30), budget)
    finally:
        inst.close()


def measure_dict(case: Dict[str, Any], budget: float, rt: celwasm.Runtime) -> float:
    """Seconds per call of the dict path alone on rt."""
    prg = rt.env({case["var"]: "dyn"}).compile(case["expr"])
    act = {case["var"]: case["doc"]}
    assert prg.evaluate(act) is True
    return measure(lambda: prg.evaluate(act), budget)


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
    m = celwasm.default_runtime().module
    extra = {"from_cache": m.from_cache, "load": m.load_seconds, "compiler": m.compiler}
elif lib == "celwasm-full":
    # The one module of before the split (celwasm-full), for comparison.
    import celwasm
    t1 = time.perf_counter()
    rt = celwasm.Runtime(module=celwasm.Module(name="celwasm-full"), instances=1)
    r = celwasm.Env({"self": "dyn"}, runtime=rt).compile(expr).evaluate({"self": doc})
    extra = {"from_cache": rt.module.from_cache, "load": rt.module.load_seconds}
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


def celgo_alone(repo: Path, cases: List[Dict[str, Any]]) -> Dict[str, float]:
    """Each case's floor in wasmtime-py, in seconds per evaluation.

    wasm/stagebench built as a WASI command (build/stagebench.wasm, which
    `make bench-python` builds) times each case compiled as the module
    compiles it and evaluated over an activation already read: cel-go's
    evaluation alone, no JSON, no conversion, no call. No call of the
    module does less.
    """
    import wasmtime

    engine = wasmtime.Engine()
    module = wasmtime.Module.from_file(engine, str(repo / "build" / "stagebench.wasm"))
    linker = wasmtime.Linker(engine)
    linker.define_wasi()
    stage_cases = [{"name": c["name"], "expression": c["expr"], "variable": c["var"], "activation": {c["var"]: c["doc"]}} for c in cases]
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "stages.json"
        wasi = wasmtime.WasiConfig()
        wasi.argv = ["stagebench", (repo / "conformance" / "testdata" / "cloudevents" / "github-pull-request.json").read_text(), json.dumps(stage_cases)]
        wasi.stdout_file = str(out)
        wasi.inherit_stderr()
        store = wasmtime.Store(engine)
        store.set_wasi(wasi)
        instance = linker.instantiate(store, module)
        try:
            instance.exports(store)["_start"](store)
        except wasmtime.ExitTrap as e:  # a Go program's main returns through proc_exit(0)
            if e.code != 0:
                raise
        stages = json.loads(out.read_text().strip().splitlines()[-1])
    # Run reports the cases' stages last, in the order given.
    floors = {}
    for c, st in zip(stage_cases, stages[-len(stage_cases):]):
        if c["name"] not in st["stage"]:
            raise RuntimeError("stagebench: stage %r is not %s's" % (st["stage"], c["name"]))
        floors[c["name"][1]] = st["ns"] / 1e9
    return floors


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


def us(s: Optional[float]) -> Optional[float]:
    return None if s is None else s * 1e6


def per(a: Optional[float], b: Optional[float]) -> Optional[float]:
    return None if a is None or b is None else a / b


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
    ap.add_argument("--out", type=Path, help="results file (default: REPO/build/bench/python.json)")
    ap.add_argument("--budget", type=float, default=2.0, help="seconds of measurement per library and case")
    ap.add_argument("--cold-runs", type=int, default=2, help="runs of the uncached cold start (each compiles the module)")
    ap.add_argument("--warm-runs", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="short run: budget 0.5 s, 3 warm and 1 uncached cold start")
    args = ap.parse_args()
    if args.quick:
        args.budget, args.warm_runs, args.cold_runs = 0.5, 3, 1
    out = args.out or args.repo / "build" / "bench" / "python.json"
    t_start = time.perf_counter()
    load_start = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")

    cases = load_cases(args.repo)
    rt = celwasm.Runtime(instances=1)
    # Steady state is measured on Cranelift code: after a first run on an
    # empty cache the module starts on Winch and tiers up in the background.
    rt.module.wait_tier_up()
    rows = []
    for c in cases:
        w = bench_celwasm(c, args.budget, rt)
        p = bench_celpy(c, args.budget)
        r = bench_cel_rust(c, args.budget)
        rows.append((c, w, p, r))
        print(
            "%-28s celwasm %.1f µs (bytes %.1f, module %.1f) | cel-python %s | cel(rust) %s"
            % (
                c["name"],
                us(w["dict"]),
                us(w["bytes"]),
                us(w["module"]),
                "%.1f µs %s" % (us(p["dict"]), p["runner"]) if p["dict"] else p["error"],
                "%.1f µs" % us(r["dict"]) if r["dict"] else r["error"],
            ),
            file=sys.stderr,
            flush=True,
        )

    celgo = celgo_alone(args.repo, cases)
    empty = empty_call(args.budget, rt)
    # No call of the module does less than an empty call plus cel-go's evaluation.
    floors = {k: v + empty for k, v in celgo.items()}
    print("cel-go alone in wasmtime-py: %s; empty call %.2f µs" % ({k: "%.2f µs" % us(v) for k, v in celgo.items()}, us(empty)), file=sys.stderr, flush=True)

    cold("celwasm-full")  # compiles celwasm-full into the cache if needed
    warm = {lib: [cold(lib) for _ in range(args.warm_runs)] for lib in ("celwasm", "celwasm-full", "celpy", "cel")}
    assert all(x["from_cache"] for x in warm["celwasm"]), warm["celwasm"]
    # Nothing cached: the default (Winch first, Cranelift in the background)
    # and, side by side, what every first run did before (Cranelift only).
    uncached: List[Dict[str, Any]] = []
    uncached_cl: List[Dict[str, Any]] = []
    for _ in range(args.cold_runs):
        for xs, env in ((uncached, {}), (uncached_cl, {"CELWASM_COMPILER": "cranelift"})):
            with tempfile.TemporaryDirectory() as d:
                e = {"CELWASM_COMPILER": "", **env, "CELWASM_CACHE_DIR": d}
                xs.append(cold("celwasm", e))
    assert not any(x["from_cache"] for x in uncached + uncached_cl)
    assert all(x["compiler"] == "winch" for x in uncached) and all(x["compiler"] == "cranelift" for x in uncached_cl)

    # Per call on Winch code (what a first run evaluates with until the
    # background compilation puts Cranelift code in place).
    winch_rows = []
    with tempfile.TemporaryDirectory() as d:
        wrt = celwasm.Runtime(instances=1, module=celwasm.Module(cache_dir=d, compiler="winch"))
        try:
            for c, w, _, _ in rows:
                t = measure_dict(c, args.budget, wrt)
                winch_rows.append([c["name"], us(t), us(w["dict"]), per(t, w["dict"])])
        finally:
            wrt.close()

    def med_ms(xs: List[Dict[str, Any]], k: str) -> float:
        return statistics.median(x[k] for x in xs) * 1e3

    v = rt.version()
    metrics: Dict[str, float] = {}
    context = [
        "Python %s; celwasm %s on wasmtime-py %s (module sha256 %s); cel-python %s; common-expression-language %s; versions pinned in sdk-python/requirements-dev.txt."
        % (platform.python_version(), celwasm.__version__, version("wasmtime"), v.module_sha256, version("cel-python"), version("common-expression-language")),
        "Input is a Python dict (the parsed document) for every library: celwasm cuts it to what the program reads and encodes that as JSON, cel-python converts it with `celpy.json_to_cel` "
        "(its documented path; the faster of its interpreted and compiled runners is shown), common-expression-language takes the dict. "
        "*celwasm, JSON bytes* passes the document as JSON text. *module call, JSON request* is one raw `celwasm_eval` call with the request bytes prepared "
        "(`celwasm.Instance.eval`); *module call, activation* one raw `celwasm_eval_activation` call (`celwasm.Instance.eval_activation`), the export the dict and bytes paths call. "
        "Each library's program is compiled once.",
        "*cel-go alone*: wasm/stagebench (a WASI command, run by wasmtime-py) timing each case compiled as the module compiles it "
        "and evaluated over an activation already read, so no JSON, no conversion and no call (testing.Benchmark inside the program). "
        "*Empty call*: `celwasm_free` of a handle never given out, through the SDK's call path (`Instance.free`): %.2f µs. "
        "The floor of a call is their sum: no call of the module does less." % us(empty),
        "Per-call times: the median of %d batches of about %.2f s each, each batch the mean of its calls." % (ROUNDS, args.budget / ROUNDS),
        "Activation sizes: %s bytes." % ", ".join("%s %d" % (c["name"][:3], len(json.dumps({c["var"]: c["doc"]}, separators=(",", ":")))) for c in cases),
    ]
    unsupported = ["%s cel-python: `%s`" % (c["name"][:3], short_error(p["error"])) for c, w, p, r in rows if p["dict"] is None]
    unsupported += ["%s common-expression-language: `%s`" % (c["name"][:3], short_error(r["error"])) for c, w, p, r in rows if r["dict"] is None]
    if unsupported:
        context.append("Cases the other libraries cannot run: " + "; ".join(unsupported) + ".")
    if args.quick:
        context.append("Quick run (--quick).")

    steady_rows = []
    for c, w, p, r in rows:
        k = c["name"][1]
        steady_rows.append([c["name"], us(w["dict"]), us(w["bytes"]), us(w["activation"]), us(w["module"]), us(celgo[k]), us(floors[k]), us(p["dict"]), us(r["dict"]), per(w["dict"], p["dict"]), per(w["dict"], r["dict"])])
        metrics["python.%s.celgo_alone_us" % k] = us(celgo[k])
        metrics["python.%s.floor_us" % k] = us(floors[k])
        metrics["python.%s.activation_us" % k] = us(w["activation"])
        metrics["python.%s.dict_us" % k] = us(w["dict"])
        metrics["python.%s.bytes_us" % k] = us(w["bytes"])
        metrics["python.%s.module_us" % k] = us(w["module"])
        if p["dict"]:
            metrics["python.%s.celpy_us" % k] = us(p["dict"])
            metrics["python.%s.dict_per_celpy" % k] = w["dict"] / p["dict"]
        if r["dict"]:
            metrics["python.%s.cel_rust_us" % k] = us(r["dict"])
            metrics["python.%s.dict_per_cel_rust" % k] = w["dict"] / r["dict"]
            metrics["python.%s.floor_per_cel_rust" % k] = floors[k] / r["dict"]
    tables = [
        {
            "title": "Steady-state evaluation, per call, one process",
            "columns": ["case", "celwasm (dict) µs", "celwasm (JSON bytes) µs", "module call, activation µs", "module call, JSON request µs", "cel-go alone µs", "floor: cel-go alone + empty call µs", "cel-python µs", "common-expression-language µs", "celwasm / cel-python", "celwasm / common-expression-language"],
            "rows": steady_rows,
        }
    ]
    context.append(
        "Cold start: a new process, `import` → first result of (b); module cache warm: median of %d runs; nothing cached: %s, each with an empty cache directory. "
        "By default (compiler \"auto\") a first run compiles Winch code, caches it and compiles Cranelift code in a background thread on one core; "
        "*compiler cranelift* is what every first run did before: Cranelift in the foreground."
        % (args.warm_runs, "one run" if args.cold_runs == 1 else "median of %d runs" % args.cold_runs)
    )
    cold_rows = [["celwasm, module cache warm", med_ms(warm["celwasm"], "load"), med_ms(warm["celwasm"], "import_s"), med_ms(warm["celwasm"], "first_result_s"), med_ms(warm["celwasm"], "wall_s")]]
    metrics["python.cold.warm.first_result_ms"] = med_ms(warm["celwasm"], "first_result_s")
    metrics["python.cold.warm.wall_ms"] = med_ms(warm["celwasm"], "wall_s")
    cold_rows.append(["celwasm-full (the one module before the split), module cache warm", med_ms(warm["celwasm-full"], "load"), med_ms(warm["celwasm-full"], "import_s"), med_ms(warm["celwasm-full"], "first_result_s"), med_ms(warm["celwasm-full"], "wall_s")])
    metrics["python.cold.warm_full.first_result_ms"] = med_ms(warm["celwasm-full"], "first_result_s")
    if uncached:
        cold_rows.append(["celwasm, nothing cached (Winch, then Cranelift in the background)", med_ms(uncached, "load"), med_ms(uncached, "import_s"), med_ms(uncached, "first_result_s"), med_ms(uncached, "wall_s")])
        metrics["python.cold.uncached.first_result_ms"] = med_ms(uncached, "first_result_s")
        metrics["python.cold.uncached.wall_ms"] = med_ms(uncached, "wall_s")
        cold_rows.append(["celwasm, nothing cached, compiler cranelift (before)", med_ms(uncached_cl, "load"), med_ms(uncached_cl, "import_s"), med_ms(uncached_cl, "first_result_s"), med_ms(uncached_cl, "wall_s")])
        metrics["python.cold.uncached_cranelift.first_result_ms"] = med_ms(uncached_cl, "first_result_s")
    cold_rows.append(["cel-python", None, med_ms(warm["celpy"], "import_s"), med_ms(warm["celpy"], "first_result_s"), med_ms(warm["celpy"], "wall_s")])
    cold_rows.append(["common-expression-language", None, med_ms(warm["cel"], "import_s"), med_ms(warm["cel"], "first_result_s"), med_ms(warm["cel"], "wall_s")])
    tables.append(
        {
            "title": "Cold start: a new process, import → first result",
            "columns": ["", "module load (deserialize or compile) ms", "import ms", "import → first result ms", "process wall time ms"],
            "rows": cold_rows,
        }
    )
    tables.append(
        {
            "title": "Winch code against Cranelift code, per call (celwasm, dict in)",
            "columns": ["case", "Winch µs", "Cranelift µs", "Winch / Cranelift"],
            "rows": winch_rows,
        }
    )
    metrics["python.empty_call_us"] = us(empty)
    for row in winch_rows:
        metrics["python.%s.winch_per_cranelift" % row[0][1]] = row[3]
    if rt.module.cache_path and rt.module.cache_path.exists():
        context.append("Compiled-module cache: %s, %d bytes (per module sha256 and wasmtime version)." % ("~/.cache/celwasm/wasmtime-py", rt.module.cache_path.stat().st_size))
    load_end = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    context.append("Run time of this benchmark: %.0f s; load average (1 min) %.1f at the start, %.1f at the end." % (time.perf_counter() - t_start, load_start, load_end))
    section = {
        "section": "python",
        "title": "Python SDK against cel-python and common-expression-language",
        "command": "make -C sdk-python bench",
        "date": time.strftime("%Y-%m-%d", time.gmtime()),
        "machine": "%s/%s, %d CPUs, %s" % (sys.platform, {"x86_64": "amd64", "aarch64": "arm64"}.get(platform.machine(), platform.machine()), os.cpu_count() or 0, cpu_model()),
        "context": context,
        "tables": tables,
        "metrics": metrics,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(section, indent=2, ensure_ascii=False) + "\n")
    print("wrote", out, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
