#!/usr/bin/env bash
# The figures fig9/10/11, the timeline and area are checked with their commands
# (check_train.sh, check_energy.sh, check_area.sh); here Table I and the sweep curves, and a
# --plot where no plot exists is refused.
set -euo pipefail
. "$(dirname "$0")/lib_fail.sh"
aries=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$(dirname "$0")/lib_plot.sh"
"$aries" table1 -k 4 --plot "$dir/t1.png" > /dev/null
plot_ok "$dir/t1" "Table I formula" "planned program" "logical links, N = 16" "aries_lt L=2"
"$aries" sweep --set package.topology=mesh --set package.k=2 --set sweep.rates=0.1,0.3 \
  --set sim.warmup=100 --set sim.measure=300 --plot "$dir/sw" > /dev/null
plot_ok "$dir/sw" "latency against load" "throughput against load" "mesh 2x2, uniform traffic"
if "$aries" --plot "$dir/x" > /dev/null 2> "$dir/err"; then exit 1; fi
grep -q -- "--plot acts on aries sweep, " "$dir/err" || { echo "FAIL: run --plot: $(cat "$dir/err")"; exit 1; }
echo ok
