#!/usr/bin/env bash
# The fast node model against the Verilated RTL at volume: every output pin of every node
# compared every cycle (sim.model = check / --model check / the node lockstep tests), over
#   * the node-level random tests (tests/sysc/fast_node_test.cc) under SEEDS seeds: random
#     register traffic, back-pressure, hostile input, the 15-port node, the engine node;
#   * package runs on mesh, torus (static and dynamic VCs), ARIES with random bypass segments
#     and flattened butterfly, 4x4 to 16x16, loads up to saturation, 1- and 10-cycle links,
#     with every lane and with the packet id alone (sim.payload = id);
#   * package runs around faults (dead links, a dead port) and struck by them mid-run (flits
#     lost, reported);
#   * every collective algorithm on every topology it serves (8x8, int32 and fp32, verified),
#     collectives struck by a fault mid-run (re-planned, verified) and one planned around a
#     dead bypass span and switch.
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
# The node-cycles a run's JSON report counts (its one node_evaluations field; read without
# starting a Python process per run, which costs about a third of a second here).
evaluations() {
  local ev
  ev=$(grep -o '"node_evaluations": *[0-9]*' "$1" | grep -o '[0-9]*$') ||
    { echo "no node_evaluations in $1" >&2; exit 1; }
  echo "$ev"
}
run() {
  "$aries" run --set sim.kernel=loop --set sim.threads=1 --set sim.model=check --json "$tmp/r.json" "$@" \
    > "$tmp/run.log" 2>&1 || { cat "$tmp/run.log"; exit 1; }
  grep -q "all flits delivered, checked *yes" "$tmp/run.log" || { cat "$tmp/run.log"; exit 1; }
  local ev
  ev=$(evaluations "$tmp/r.json")
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
# The packet id alone (sim.payload = id): the fast model's fixed-dimension path on the shipped
# point-to-point node, the RTL carrying zero in the other lanes.
run --set package.topology=mesh --set package.k=8 --set package.link_latency=1 --set traffic.rate=0.45 --set sim.payload=id
run --set package.topology=torus --set package.k=8 --set traffic.rate=0.5 --set package.vc_alloc=dynamic --set sim.payload=id
run --set package.topology=aries --set package.k=8 --set traffic.rate=0.35 --set package.bypass=random --set sim.payload=id
run --set package.topology=mesh --set package.k=8 --set traffic.pattern=transpose --set traffic.rate=0.3 --set traffic.sink_accept=0.5
run --set package.topology=aries --set package.k=4 --set traffic.pattern=hotspot --set traffic.rate=0.3
# Faults: dead links and a dead port routed around from reset (every flit delivered; on ARIES
# the point-to-point routes use the mesh links); then faults striking mid-run under dimension
# order, where the dead wires lose flits (the run reports them and fails; the two models must
# still agree).
run --set package.topology=mesh --set package.k=8 --set traffic.rate=0.3 \
  --set 'package.faults=link:x(3,3), link:y(4,2), port:20.YP'
run --set package.topology=torus --set package.k=8 --set traffic.rate=0.3 --set 'package.faults=link:xwrap1'
run --set package.topology=aries --set package.k=8 --set traffic.rate=0.25 \
  --set 'package.faults=link:x(5,5), port:9.XP'
for f in 'link:x(3,3)@1500' 'port:27.XM@800' 'link:y(1,6)@2000'; do
  if "$aries" run --set sim.kernel=loop --set sim.threads=1 --set sim.model=check \
      --set package.k=8 --set package.topology=mesh --set traffic.rate=0.3 \
      --set package.fault_routing=dor --set "package.faults=$f" --json "$tmp/r.json" \
      > "$tmp/run.log" 2>&1; then
    echo "a run struck by $f lost nothing"; cat "$tmp/run.log"; exit 1
  fi
  if grep -q "differs from the RTL" "$tmp/run.log" || ! grep -q "LOST: link" "$tmp/run.log"; then
    cat "$tmp/run.log"; exit 1
  fi
  ev=$(evaluations "$tmp/r.json")
  total=$((total + ev))
  echo "  run struck by $f (flits lost as expected): $ev node-cycles"
done
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
# Collectives struck by a fault mid-run: stopped, re-planned around the link the watchdog
# names, completed and verified, the two models in lockstep throughout.
for algo in ring dbt tree; do
  "$aries" coll -k 8 --topology aries --algo $algo --size 64K --verify --model check \
    --set 'package.faults=link:x(2,3)@600' > "$tmp/c.log" 2>&1 || { cat "$tmp/c.log"; exit 1; }
  grep -q "FAULT: the run stopped" "$tmp/c.log" || { cat "$tmp/c.log"; exit 1; }
  grep -q "every element of every node matches" "$tmp/c.log" || { cat "$tmp/c.log"; exit 1; }
  coll=$((coll + 1))
done
# Planned around a dead bypass span and a dead switch from reset.
"$aries" coll -k 8 --topology aries --algo cmtree --size 8K --verify --model check \
  --set 'package.faults=segment:xtrack0.1:1-2, switch:ytrack1.2:1' > "$tmp/c.log" 2>&1 ||
  { cat "$tmp/c.log"; exit 1; }
grep -q "planned around: segment:xtrack0.1:1-2" "$tmp/c.log" || { cat "$tmp/c.log"; exit 1; }
grep -q "every element of every node matches" "$tmp/c.log" || { cat "$tmp/c.log"; exit 1; }
coll=$((coll + 1))
echo "collectives: $coll runs on 8x8 in lockstep, every element verified"
echo "total: $total node-cycles compared with no mismatch (plus the collective runs)"
