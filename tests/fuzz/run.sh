#!/usr/bin/env bash
# Builds the libFuzzer harnesses (tests/fuzz, clang) next to a main build and runs each for RUNS
# executions from its seed corpus (tests/fuzz/corpus/<harness>, copied: the corpus in the
# repository does not grow). Prints each harness's executions, time and findings; exits 1 on a
# finding (a crash, a sanitizer report, an exception a reader must not throw, an invariant
# broken), leaving the input that caused it in the work folder it names.
#
#   bash tests/fuzz/run.sh BUILD_DIR [RUNS]        (ctest fuzz.regression: 3000; benchmark: 1000000)
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
runs=${2:-3000}
src=$(cd "$(dirname "$0")" && pwd)
out="$build/fuzz"
cmake -S "$src" -B "$out" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DARIES_BUILD="$build" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$out.configure.log" 2>&1 ||
  { cat "$out.configure.log"; exit 2; }
cmake --build "$out" -j2 > "$out.build.log" 2>&1 || { tail -30 "$out.build.log"; exit 2; }
work=$(mktemp -d)
status=0
total=0
for h in fuzz_config fuzz_trace fuzz_npy fuzz_tech fuzz_workload fuzz_program; do
  corpus="$work/$h"
  mkdir -p "$corpus"
  [ -d "$src/corpus/$h" ] && cp "$src/corpus/$h"/* "$corpus"/ 2>/dev/null || true
  start=$(date +%s.%N)
  if (cd "$work" && "$out/$h" -runs="$runs" -seed=1 -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 "$corpus" > "$work/$h.log" 2>&1); then
    findings=0
  else
    findings=1
    status=1
  fi
  secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$h.log" | tail -1)
  total=$((total + ${execs:-0}))
  printf '%-14s %9s executions  %6.1f s  %d findings\n' "$h" "${execs:-?}" "$secs" "$findings"
  if [ "$findings" -ne 0 ]; then
    grep -E "FINDING|ERROR|SUMMARY|crash-|Test unit written" "$work/$h.log" | head -8
    echo "  (log and inputs kept in $work)"
  fi
done
echo "fuzz: $total executions in all"
[ "$status" -eq 0 ] && rm -rf "$work"
exit "$status"
