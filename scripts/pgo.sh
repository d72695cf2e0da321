#!/usr/bin/env bash
# make pgo: the CPU profile the expression module is built with (go build -pgo;
# RATIONALE.md, "Profile-guided optimisation of the expression module").
#
# The profile is pprof CPU samples of the code the module runs, built natively:
# the handler's benchmarks over the reference cases ((a)-(d) and `true`) through
# both envelopes (celwasm_eval, celwasm_eval_activation) and the batch filter,
# two seconds each, so each workload weighs by the time it takes. Go's PGO reads
# call edges by function name, which are the same in the wasip1 build. The file
# is committed (PGO_PROFILE, wasm/module/celwasm/celwasm.pgo) and the Makefile
# passes it to the build, so two builds from one tree stay byte-identical; run
# this again when the hot paths change, then rebuild and commit the module.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
OUT=build/pgo
PGO_PROFILE=${PGO_PROFILE:-wasm/module/celwasm/celwasm.pgo}
mkdir -p "$OUT"
$GO test -c -o "$OUT/abi.test" ./wasm/abi
profiles=()
for b in BenchmarkEval BenchmarkEvalActivation BenchmarkBatchEvents; do
  (cd wasm/abi && ../../"$OUT"/abi.test -test.run '^$' -test.bench "^$b\$" -test.benchtime 2s \
    -test.cpuprofile ../../"$OUT/$b.cpu") | grep Benchmark
  profiles+=("$OUT/$b.cpu")
done
$GO tool pprof -proto "${profiles[@]}" > "$OUT/merged.pgo" 2>/dev/null
mv "$OUT/merged.pgo" "$PGO_PROFILE"
echo "pgo: $PGO_PROFILE ($(stat -c %s "$PGO_PROFILE") bytes)"
