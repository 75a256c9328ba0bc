#!/usr/bin/env bash
# The fast node model against the Verilated RTL at volume: every output pin of every node
# compared every cycle (sim.model = check / --model check / the node lockstep tests), over
#   * the node-level random tests (tests/sysc/fast_node_test.cc) under SEEDS seeds: random
#     register traffic, back-pressure, hostile input, the 15-port node, the engine node;
#   * package runs on mesh, torus (static and dynamic VCs), ARIES with random bypass segments
#     and flattened butterfly, 4x4 to 16x16, loads up to saturation, 1- and 10-cycle links;
#   * every collective algorithm on every topology it serves (8x8, int32 and fp32, verified).
# Prints the node-cycles compared; exits non-zero on the first mismatch (its message names the
# cycle, node, pin and both values).
# Usage: lockstep_soak.sh BUILD_DIR [SEEDS]
set -euo pipefail
build="$1"
seeds="${2:-20}"
aries="$build/sim/aries"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
total=0
# Node-level: each test prints the node-cycles it compared.
node=0
for s in $(seq 1 "$seeds"); do
  ARIES_SEED=$((1000 + s)) "$build/tests/aries_fast_node_tests" > "$tmp/node.log" 2>&1 ||
    { cat "$tmp/node.log"; exit 1; }
  node=$((node + $(awk '/^lockstep node-cycles:/ {n += $3} END {print n + 0}' "$tmp/node.log")))
done
total=$((total + node))
echo "node-level lockstep: $seeds seeds, $node node-cycles"
run() {
  "$aries" run --set sim.kernel=loop --set sim.threads=1 --set sim.model=check --json "$tmp/r.json" "$@" \
    > "$tmp/run.log" 2>&1 || { cat "$tmp/run.log"; exit 1; }
  grep -q "all flits delivered, checked *yes" "$tmp/run.log" || { cat "$tmp/run.log"; exit 1; }
  local ev
  ev=$(python3 -c "import json; print(json.load(open('$tmp/r.json'))['runs'][0]['node_evaluations'])")
  total=$((total + ev))
  echo "  run $* : $ev node-cycles"
}
for links in 1 10; do
  run --set package.topology=mesh --set package.k=8 --set package.link_latency=$links --set traffic.rate=0.45
  run --set package.topology=torus --set package.k=8 --set package.link_latency=$links --set traffic.rate=0.5 --set package.vc_alloc=dynamic
  run --set package.topology=aries --set package.k=8 --set package.link_latency=$links --set traffic.rate=0.35 --set package.bypass=random
  run --set package.topology=fbfly --set package.k=8 --set package.link_latency=$links --set traffic.rate=0.4 --set package.vc_alloc=dynamic
done
run --set package.topology=mesh --set package.k=16 --set traffic.rate=0.2 --set sim.measure=3000
run --set package.topology=mesh --set package.k=8 --set traffic.pattern=transpose --set traffic.rate=0.3 --set traffic.sink_accept=0.5
run --set package.topology=aries --set package.k=4 --set traffic.pattern=hotspot --set traffic.rate=0.3
coll=0
for t in mesh torus aries fbfly; do
  for a in ring aries_bw aries_lt 2dring dbt mtree cmtree tree rd rabenseifner; do
    for ty in int32 fp32; do
      if "$aries" coll -k 8 --topology $t --algo $a --type $ty --size 64K --verify --model check \
          > "$tmp/c.log" 2>&1; then
        grep -q "every element of every node matches" "$tmp/c.log" || { cat "$tmp/c.log"; exit 1; }
        coll=$((coll + 1))
      elif grep -q "differs from the RTL" "$tmp/c.log"; then
        cat "$tmp/c.log"; exit 1
      fi  # (an algorithm that does not serve the topology is refused: skipped)
    done
  done
done
echo "collectives: $coll runs on 8x8 in lockstep, every element verified"
echo "total: $total node-cycles compared with no mismatch (plus the collective runs)"
