#!/usr/bin/env bash
# make profile: where one call's time goes, for the reference cases of
# docs/benchmarks.md ((a)-(d) and `true`), written to build/profiles/:
#
#   native-<case>.cpu, .mem, .txt   pprof CPU and allocation profiles of the handler code the module
#                                   runs, built natively (go test ./wasm/abi -bench BenchmarkEval...)
#   node-<case>/*.cpuprofile, .txt  the module itself under Node (node --cpu-prof), built with its
#                                   name section so that the profile names the Go functions
#   wasmtime-<case>.data, .txt      the same build under wasmtime-go through the Go host (perf record,
#                                   wasmtime's perf map), when perf is installed
#
# PROFILE_EXPORT=eval_activation profiles the integer envelope instead of celwasm_eval.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
NODE=${NODE:-node}
OUT=build/profiles
EXPORT=${PROFILE_EXPORT:-eval}
BENCH=BenchmarkEval
[ "$EXPORT" = eval_activation ] && BENCH=BenchmarkEvalActivation
mkdir -p "$OUT"

# Native: CPU (default sampling) and allocations (every allocation) in separate runs, as a
# memory profile rate of 1 distorts the CPU profile.
$GO test -c -o "$OUT/abi.test" ./wasm/abi
for c in true a b c d; do
  (cd wasm/abi && ../../"$OUT"/abi.test -test.run '^$' -test.bench "^$BENCH/$c\$" -test.benchtime 2s \
    -test.cpuprofile ../../"$OUT/native-$c.cpu") | grep Benchmark
  (cd wasm/abi && ../../"$OUT"/abi.test -test.run '^$' -test.bench "^$BENCH/$c\$" -test.benchtime 20000x \
    -test.benchmem -test.memprofile ../../"$OUT/native-$c.mem" -test.memprofilerate 1) | grep Benchmark
  {
    echo "# $BENCH/$c natively: CPU, cumulative"
    $GO tool pprof -top -cum -nodecount 60 "$OUT/abi.test" "$OUT/native-$c.cpu" 2>/dev/null
    echo "# allocations (objects)"
    $GO tool pprof -sample_index=alloc_objects -top -nodecount 30 "$OUT/abi.test" "$OUT/native-$c.mem" 2>/dev/null
  } > "$OUT/native-$c.txt"
done

# The expression module with its name section: the release flags (with make's PGO_FLAGS) without
# -s -w (and before wasm-opt, which would drop the names).
GO=$GO ./wasm/third_party/modfile.sh build/wasm.mod
GOOS=wasip1 GOARCH=wasm $GO build -modfile=build/wasm.mod -buildmode=c-shared -trimpath ${PGO_FLAGS:-} -o "$OUT/celwasm-names.wasm" ./wasm/module/celwasm
CELWASM_REF_CASES="$PWD/$OUT/cases.json" $GO test -count=1 -run TestWriteRefCases ./wasm/abi >/dev/null
for c in true a b c d; do
  rm -rf "$OUT/node-$c"
  PROFILE_CASES=$c $NODE --no-warnings --cpu-prof --cpu-prof-dir="$OUT/node-$c" --cpu-prof-interval 50 \
    scripts/profile-guest.mjs "$OUT/celwasm-names.wasm" "$OUT/cases.json" "$EXPORT"
  $NODE scripts/cpuprofile-top.mjs "$OUT/node-$c"/*.cpuprofile 80 > "$OUT/node-$c.txt"
done
# The same module under wasmtime-go, when perf is here: the Go host evaluating each case in a loop
# (celwasm-bench -loop), sampled by perf with wasmtime's perf map naming the module's functions.
# This shows what the Node profiles cannot: wasmtime's libcalls (memory.copy, memory.fill) and
# Cranelift's code. The first run of each compiles and caches the code, so that the profiled run
# samples evaluations, not Cranelift.
if command -v perf >/dev/null; then
  $GO build -o "$OUT/celwasm-bench" ./cmd/celwasm-bench
  for c in true a b c d; do
    CELWASM_WASMTIME_PROFILER=perfmap "$OUT/celwasm-bench" -loop $c -loop-module "$OUT/celwasm-names.wasm" -loop-for 1s
    CELWASM_WASMTIME_PROFILER=perfmap perf record -q -F 2000 -o "$OUT/wasmtime-$c.data" -- \
      "$OUT/celwasm-bench" -loop $c -loop-module "$OUT/celwasm-names.wasm" -loop-for 5s
    perf report -i "$OUT/wasmtime-$c.data" --stdio --no-children --sort symbol 2>/dev/null |
      awk 'NF && !/^#/ && n++ < 80' > "$OUT/wasmtime-$c.txt"
  done
fi
echo "profile: $OUT/native-*.txt, $OUT/node-*.txt, $OUT/wasmtime-*.txt with perf (pprof: go tool pprof $OUT/abi.test $OUT/native-b.cpu)"
