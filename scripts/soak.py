#!/usr/bin/env python3
"""make soak: one program evaluated CELWASM_SOAK_EVALS times (default 1,000,000) on one
instance in each host (Go on wazero and on wasmtime-go, Node, Python; CELWASM_SOAK_HOSTS=node,python
to pick), every input
different and every result checked. Guest linear memory and process RSS after the
warm-up (the first quarter of the evaluations: the garbage collectors' heaps settle; Node: the
first half, its runner says why) and at the end must stay within 10%, and so must the highest RSS
sampled after the warm-up when the runner reports it (rssPeak).
Prints the figures and writes build/bench/soak.json (internal/benchdoc's format;
docs/reliability.md quotes it). Exit 1 when a host fails or grows past 10%."""
import datetime
import json
import os
import pathlib
import platform
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
EVALS = int(os.environ.get("CELWASM_SOAK_EVALS", "1000000"))
RUNNERS = [
    ("go-wazero", ["go", "run", "./internal/soak", "-engine", "wazero", "-evals", str(EVALS)], ROOT),
    ("go-wasmtime", ["go", "run", "./internal/soak", "-engine", "wasmtime", "-evals", str(EVALS)], ROOT),
    ("node", ["node", "test/soak/soak.mjs"], ROOT / "sdk-js"),
    ("python", [".venv/bin/python", "tools/soak.py"], ROOT / "sdk-python"),
]


def main() -> int:
    rows, metrics, ok = [], {}, True
    env = dict(os.environ, CELWASM_SOAK_EVALS=str(EVALS), PYTHONPATH=str(ROOT / "sdk-python/src"))
    only = os.environ.get("CELWASM_SOAK_HOSTS", "").split(",") if os.environ.get("CELWASM_SOAK_HOSTS") else None
    runners = [r for r in RUNNERS if only is None or r[0] in only]
    for name, cmd, cwd in runners:
        print(f"soak: {name}: {' '.join(cmd)}", file=sys.stderr, flush=True)
        p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, text=True)
        if p.returncode != 0:
            print(f"soak: {name} failed (exit {p.returncode})", file=sys.stderr)
            ok = False
            continue
        r = json.loads(p.stdout.strip().splitlines()[-1])
        guest = r["guestEnd"] / r["guestWarm"] - 1
        rss = r["rssEnd"] / r["rssWarm"] - 1
        peak = r.get("rssPeak", r["rssEnd"]) / r["rssWarm"] - 1
        within = guest <= 0.10 and rss <= 0.10 and peak <= 0.10
        ok &= within
        warm_evals = r.get("warmEvals", r["evals"] // 4)
        per_eval = (r["rssEnd"] - r["rssWarm"]) / (r["evals"] - warm_evals)
        if "rssPeak" in r:
            print(f"soak: {name}: RSS peak after warm-up {r['rssPeak'] >> 20} MiB ({100 * peak:+.1f}%)", file=sys.stderr)
            metrics[f"soak.{name}.rss_peak_growth_pct"] = round(100 * peak, 2)
        rows.append([name, r["evals"], r["guestWarm"] >> 20, r["guestEnd"] >> 20, round(100 * guest, 1),
                     r["rssWarm"] >> 20, r["rssEnd"] >> 20, round(100 * rss, 1), round(per_eval, 1), "yes" if within else "NO"])
        metrics[f"soak.{name}.guest_growth_pct"] = round(100 * guest, 2)
        metrics[f"soak.{name}.rss_growth_pct"] = round(100 * rss, 2)
    cols = ["host", "evaluations", "guest MiB (warm)", "guest MiB (end)", "guest growth %",
            "RSS MiB (warm)", "RSS MiB (end)", "RSS growth %", "RSS bytes per evaluation after warm-up", "within 10%"]
    print("  ".join(cols))
    for row in rows:
        print("  ".join(str(x) for x in row))
    out = ROOT / "build/bench/soak.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({
        "section": "soak", "title": "Soak: memory over a million evaluations per host",
        "command": "make soak", "date": datetime.date.today().isoformat(),
        "machine": f"{platform.system().lower()}/{platform.machine()}, {os.cpu_count()} CPUs",
        "context": [f"{EVALS:,} evaluations of one program on one instance per host, every activation different "
                    "and every result checked; warm is after the first quarter (Node: the first half, "
                    "when V8's young generation has reached its size; docs/reliability.md)."],
        "tables": [{"title": "Guest linear memory and process RSS", "columns": cols, "rows": rows}],
        "metrics": metrics}, indent=1) + "\n")
    print(f"soak: wrote {out.relative_to(ROOT)}", file=sys.stderr)
    return 0 if ok and len(rows) == len(runners) else 1


if __name__ == "__main__":
    sys.exit(main())
