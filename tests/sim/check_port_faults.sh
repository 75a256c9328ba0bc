#!/usr/bin/env bash
# A dead port mid-collective is survived: every router port of every node of 4x4 ARIES dies a
# third of the way into each all-reduce algorithm the package serves (ring, 2dring, dbt, mtree,
# cmtree, tree, rd, rabenseifner: 384 cases), and on 8x8 a sample of ports and algorithms. Each
# run must verify every element, or be refused naming the partition; anything else fails.
#   check_port_faults.sh ARIES [K4_ALGOS] [K8]
set -euo pipefail
. "$(dirname "$0")/lib_fail.sh"
aries=$1
algos4=${2:-"ring 2dring dbt mtree cmtree tree rd rabenseifner"}
k8=${3:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
verified=0
partitioned=0
bad=0

# campaign K SIZE "ALGOS" "NODES": every port of NODES mid-run for each algorithm.
campaign() {
  local k=$1 size=$2 algos=$3 nodes=$4
  for algo in $algos; do
    local base
    base=$("$aries" coll --model fast -k "$k" --algo "$algo" --size "$size" |
      sed -n 's/^  cycles \([0-9]*\) .*/\1/p')
    test -n "$base"
    local at=$((base / 3))
    for n in $nodes; do
      for p in XP XM YP YM; do
        local f="port:$n.$p@$at" rc=0
        timeout 120 "$aries" coll --model fast -k "$k" --algo "$algo" --size "$size" --verify \
          --set "package.faults=$f" > "$work/o" 2>&1 || rc=$?
        if [ "$rc" = 0 ] && grep -q "every element of every node matches" "$work/o"; then
          verified=$((verified + 1))
        elif [ "$rc" != 0 ] && grep -q "partitioned: the faults .* cut " "$work/o"; then
          partitioned=$((partitioned + 1))
        else
          bad=$((bad + 1))
          echo "FAIL: ${k}x$k $algo with $f (exit $rc): $(grep -E 'error|FAIL|STUCK' "$work/o" | tail -2)" >&2
        fi
      done
    done
  done
}

campaign 4 64K "$algos4" "$(seq -s ' ' 0 15)"
if [ "$k8" = 1 ]; then
  campaign 8 128K "dbt cmtree ring" "0 8 27 36 63"
fi
echo "port faults mid-run: $verified verified, $partitioned refused naming the partition, $bad failed"
test "$bad" = 0
