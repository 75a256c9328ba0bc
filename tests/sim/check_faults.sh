#!/usr/bin/env bash
# Faults at the CLI: point-to-point traffic routed around a dead link delivers every flit; the
# same traffic in dimension order loses flits on the dead link and the watchdog's report names
# it; a collective struck by a fault mid-run stops, is re-planned around the part its watchdog
# names (a dead port or switch with all it carries) and completes verified, or, cut in parts,
# is refused naming the cut; a dead bypass span and a dead port are planned around; bad fault
# descriptions are refused naming the item and change nothing.
set -euo pipefail
. "$(dirname "$0")/lib_fail.sh"
aries="$1"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAILED: $1"; cat "$dir/o"; exit 1; }
short="--set sim.warmup=300 --set sim.measure=2000"

# Routed around: every flit delivered, the routes say how much longer they are.
"$aries" $short --set sim.model=fast --set 'package.faults=link:x(1,1), port:10.YP' > "$dir/o" 2>&1 || fail "routed run"
grep -q "all flits delivered, checked *yes" "$dir/o" || fail "not every flit delivered"
grep -q "up\*/down\* routing tables around the faults: 240 pairs" "$dir/o" || fail "routes"
grep -q "faults  *link:x(1,1), port:10.YP" "$dir/o" || fail "faults not named"
# The README's figure: one dead link on 4x4 makes 24 of the 240 routes 48 hops longer in all.
"$aries" --set sim.measure=500 --set 'package.faults=link:x(1,1)' > "$dir/o" 2>&1 || fail "one link"
grep -q "around the faults: 240 pairs, 24 of them 48 hops longer in all" "$dir/o" || fail "one link"
# With two local ports (the second one's packets take the tables' local-port entries; on the
# 4x4 butterfly's 15-port node, renumbered to its port 15), the fast model beside the RTL.
"$aries" $short --set sim.model=fast --set node.local_ports=2 --set 'package.faults=link:x(1,1)' \
  > "$dir/o" 2>&1 || fail "two local ports"
grep -q "all flits delivered, checked *yes" "$dir/o" || fail "two local ports: not every flit delivered"
"$aries" --set sim.warmup=200 --set sim.measure=1000 --set sim.model=check --set package.topology=fbfly \
  --set node.local_ports=2 --set 'package.faults=link:row1:0-2' > "$dir/o" 2>&1 || fail "fbfly, two ports"
grep -q "all flits delivered, checked *yes" "$dir/o" || fail "fbfly, two ports: not every flit delivered"
# On the RTL too, on 8x8 with two faults (and the torus).
"$aries" $short --set sim.model=rtl --set package.k=8 --set 'package.faults=link:x(3,3), link:y(4,2)' \
  > "$dir/o" 2>&1 || fail "8x8 routed run"
grep -q "all flits delivered, checked *yes" "$dir/o" || fail "8x8: not every flit delivered"
"$aries" $short --set package.topology=torus --set 'package.faults=link:xwrap1' > "$dir/o" 2>&1 ||
  fail "torus routed run"
grep -q "all flits delivered, checked *yes" "$dir/o" || fail "torus: not every flit delivered"

# The fast model equals the RTL pin for pin around faults too (sim.model = check steps both).
"$aries" $short --set sim.model=check --set 'package.faults=link:x(1,1), port:10.YP' \
  --set traffic.rate=0.3 > "$dir/o" 2>&1 || fail "lockstep around faults"
grep -q "all flits delivered, checked *yes" "$dir/o" || fail "lockstep: not every flit delivered"
"$aries" coll -k 4 --topology aries --algo tree --size 16K --verify --model check \
  --set 'package.faults=link:x(1,1)@250' > "$dir/o" 2>&1 || fail "lockstep recovery"
grep -q "every element of every node matches" "$dir/o" || fail "lockstep recovery: not verified"
grep -q "FAULT: the run stopped" "$dir/o" || fail "lockstep recovery: the fault never struck"

# Dimension order into the dead link: flits are lost, the run fails, the report names the link.
if "$aries" $short --set 'package.faults=link:x(1,1)' --set package.fault_routing=dor \
  > "$dir/o" 2>&1; then fail "a run that lost flits passed"; fi
grep -q "checked *NO" "$dir/o" || fail "lost flits not reported"
grep -q "LOST: link x(1,1)+ (node5 link 0 -> node6 link 1): [1-9][0-9]* flits sent and never received" \
  "$dir/o" || fail "the dead link is not named"
# A dead port and a dead switch kill what their muxes and segments carry.
if "$aries" $short --set 'package.faults=port:6.XM' --set package.fault_routing=dor \
  > "$dir/o" 2>&1; then fail "a run through a dead port passed"; fi
grep -q "LOST: link x(1,1)- (node6 link 1 -> node5 link 0)" "$dir/o" || fail "dead port: link not named"
grep -q "plan around 'port:6.XM'" "$dir/o" || fail "dead port: the port not named as the cause"
if "$aries" $short --set package.bypass=random --set sim.model=fast --set package.fault_routing=dor \
  --set 'package.faults=switch:xtrack0.1:1, switch:xtrack1.1:1, switch:ytrack0.1:1, switch:ytrack1.1:1' \
  > "$dir/o" 2>&1; then fail "a run over dead switches passed"; fi
grep -q "LOST: link [xy]track[01].1:" "$dir/o" || fail "dead switch: segment not named"
# A fault from a later cycle: the first 800 cycles are clean, then the same.
if "$aries" $short --set 'package.faults=link:y(2,2)@800' > "$dir/o" 2>&1; then
  fail "a run struck mid-way passed"
fi
grep -q "LOST: link y(2,2)" "$dir/o" || fail "the link struck at cycle 800 is not named"

# A collective struck mid-run: stopped, re-planned around what was detected, verified.
for algo in ring dbt tree; do
  "$aries" coll -k 4 --topology aries --algo $algo --size 64K --verify --model fast \
    --set 'package.faults=link:x(1,1)@600' > "$dir/o" 2>&1 || fail "$algo: recovery failed"
  grep -q "FAULT: the run stopped at cycle" "$dir/o" || fail "$algo: no stop"
  grep -q "re-planning around link:x(1,1)" "$dir/o" || fail "$algo: not re-planned"
  grep -q "every element of every node matches" "$dir/o" || fail "$algo: not verified"
  grep -q "recovered: [0-9]* cycles of stopped runs" "$dir/o" || fail "$algo: no total"
done
# A dead port struck mid-run is learned as the port, with everything it carries, in one stop
# (its mux used to move to another track each attempt, each one learned as a dead segment, until
# the attempts ran out); a dead switch as the switch.
for f in 'port:0.XP@752' 'port:2.YP@752' 'switch:xtrack0.0:1@752'; do
  "$aries" coll -k 4 --topology aries --algo cmtree --size 64K --verify --model fast \
    --set "package.faults=$f" > "$dir/o" 2>&1 || fail "cmtree: $f mid-run"
  grep -q "plan around '${f%@*}'" "$dir/o" || fail "$f: not named as the cause"
  [ "$(grep -c 'FAULT: the run stopped' "$dir/o")" = 1 ] || fail "$f: more than one stop"
  grep -q "every element of every node matches" "$dir/o" || fail "$f mid-run: not verified"
done
# Detours whose channels would depend on each other in a cycle are the embedder's, not the
# user's: the plan goes over the mesh links instead (8x8 dbt around node 8's YP port).
"$aries" coll -k 8 --topology aries --algo dbt --size 128K --verify --model fast \
  --set 'package.faults=port:8.YP@3303' > "$dir/o" 2>&1 || fail "8x8 dbt around port:8.YP"
if grep -q "cyclic" "$dir/o"; then fail "a cycle of the embedder's detours reached the user"; fi
grep -q "the mesh links only" "$dir/o" || fail "8x8 dbt: not planned over the mesh links"
grep -q "every element of every node matches" "$dir/o" || fail "8x8 dbt: not verified"
# A partition struck mid-run: one stop, then no plan, the cut named.
if "$aries" coll -k 4 --topology aries --algo ring --size 64K --verify --model fast \
  --set 'package.faults=port:0.XP@644, port:0.YP@644' > "$dir/o" 2>&1; then
  fail "a partitioned collective passed"
fi
grep -q "partitioned: the faults port:0.XP, port:0.YP cut node 0 (0,0) off" "$dir/o" ||
  fail "mid-run partition: the cut not named"
[ "$(grep -c 'FAULT: the run stopped' "$dir/o")" = 1 ] || fail "mid-run partition: several stops"
# Planned around from reset: a dead span, a dead switch, a dead port, on the RTL.
for f in 'segment:xtrack0.1:1-2' 'switch:ytrack1.2:1' 'port:6.YM'; do
  "$aries" coll -k 4 --topology aries --algo cmtree --size 8K --verify --model rtl \
    --set "package.faults=$f" > "$dir/o" 2>&1 || fail "cmtree around $f"
  grep -q "planned around: $f" "$dir/o" || fail "cmtree: $f not planned around"
  grep -q "every element of every node matches" "$dir/o" || fail "cmtree around $f: not verified"
done
# auto: a candidate that cannot be planned around a dead port is skipped, by name.
"$aries" coll -k 4 --topology aries --algo auto --size 2M --verify --model fast \
  --set 'package.faults=port:5.XP' > "$dir/o" 2>&1 || fail "auto around a dead port"
grep -q "aries_bw cannot serve around the faults" "$dir/o" || fail "aries_bw not refused"
grep -q "every element of every node matches" "$dir/o" || fail "auto: not verified"

# Bad descriptions: refused by name, with what is allowed, before anything runs.
check_refused() {
  if "$aries" "$@" > "$dir/o" 2>&1; then fail "accepted: $*"; fi
}
check_refused --set 'package.faults=link:0-5'
grep -q "package.faults = 'link:0-5'" "$dir/o" || fail "key not named"
grep -q "no aries link joins nodes 0 and 5" "$dir/o" || fail "item not named"
check_refused --set 'package.faults=segment:xtrack0.0:0-1' --set package.topology=mesh
grep -q "has no bypass tracks" "$dir/o" || fail "tracks on mesh"
check_refused --set 'package.faults=link:0-1' --set package.k=9
grep -q "at most 64 nodes" "$dir/o" || fail "too many nodes for the flow tables"
check_refused --set 'package.faults=link:0-1' --set package.bypass=random
grep -q "package.bypass = random with package.faults" "$dir/o" || fail "random bypass"
printf 'link:0-1\nport:99.XP\n' > "$dir/faults.txt"
check_refused --set "package.fault_file=$dir/faults.txt"
grep -q "faults.txt:2: fault 'port:99.XP'" "$dir/o" || fail "file line not named"
check_refused --set "package.fault_file=$dir"
grep -q "not a regular file" "$dir/o" || fail "a directory as fault file"
# The topology's links cut a node off: no plan, the cut named.
check_refused coll -k 4 --topology mesh --algo ring --size 4K --set 'package.faults=link:0-1, link:0-4'
grep -q "partitioned: the faults link:x(0,0), link:y(0,0) cut node 0 (0,0) off" "$dir/o" ||
  fail "cut-off node not named"
echo "faults: routed around, detected, recovered and refused as expected"
