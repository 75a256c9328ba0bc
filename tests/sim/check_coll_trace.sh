#!/usr/bin/env bash
# Debugging a collective: `aries coll --trace` writes the RTL's waveform of a collective and a
# save file; --trace-op follows one message of the program (only the nodes and router ports of
# its path, the view on its cycles, markers A and B at its injection and ejection, each flit
# decoded only while valid) and GTKWave, headless, finds every signal the save file lists and
# opens on those markers; --packet-log logs collective flits; --timeline writes trace-event JSON
# whose slices add up to the run's totals; a .vcd name gets a VCD; what cannot be traced is
# refused by name.
set -euo pipefail
. "$(dirname "$0")/lib_fail.sh"
aries=$1
fail() {  # fail WHAT GOT: the check that failed and what it found
  echo "FAIL: $1; got: $2" >&2
  exit 1
}
work=$(mktemp -d)
gtkw_listed() {  # the signals a save file lists (GTKWave displays each bit a "#{}" joins)
  awk '/^\+\{[^}]*\} node[0-9]*\./ || /^node[0-9]*\./ { n++ } /^#\{/ { n += NF - 1 } END { print n }' "$1"
}
trap 'rm -rf "$work"' EXIT
cd "$work"
# One message of the double binary tree: op 0 of node 5 (a send to node 6).
"$aries" coll -k 4 --topology aries --algo dbt --size 1K --trace d.fst --trace-op 5:0 \
  --packet-log d.csv > d.txt
grep -q "op 0 of node 5 (send to node 6): inject at node5 (cycle [0-9]*)," d.txt ||
  fail "the followed message's path" "$(head -1 d.txt)"
first=$(sed -n 's/.*inject at node5 (cycle \([0-9]*\)).*/\1/p' d.txt)
# B: the message's last flit (its tail) ejected at node 6, by the packet log.
last=$(awk -F, -v f="$first" '$2 == "eject" && $3 == 6 && $10 == 1 && $11 == 5 && $12 == 6 &&
  $1 >= f { print $1; exit }' d.csv)
grep -q "^\*-[0-9.]* $((first * 1000)) $((first * 1000)) $((last * 1000)) -1 " d.gtkw ||
  fail "markers A and B at the injection and ejection" "$(grep '^\*' d.gtkw)"
groups=$(grep -c '^-hop [0-9]*: node[0-9]*$' d.gtkw)
[ "$groups" -eq 4 ] || fail "a group per hop (node5, node6; opened and closed)" "$groups lines"
# Only the ports used: node5 local in and +x out, node6 -x in and local out.
ports=$(grep -o '^-node[0-9]* \(in\|out\) [0-9]' d.gtkw | sort -u | tr '\n' ' ')
[ "$ports" = "-node5 in 0 -node5 out 1 -node6 in 2 -node6 out 0 " ] ||
  fail "the path's ports only" "$ports"
grep -q '^#{node5\.in0\.flit} node5\..*in_valid_i (448)' d.gtkw ||
  fail "a decoded flit joined to its valid bit" "$(grep -m1 '^#{' d.gtkw | cut -c1-120)"
cat > count.tcl <<'TCL'
set n 0
foreach s [gtkwave::getDisplayedSignals] { if {[regexp {^node[0-9]+\.} $s]} { incr n } }
puts "ARIES_GTKW_SIGNALS $n"
puts "ARIES_GTKW_MARKER [gtkwave::getMarker]"
puts "ARIES_GTKW_START [gtkwave::getWindowStartTime]"
gtkwave::/File/Quit
TCL
timeout 120 xvfb-run -a gtkwave -S count.tcl d.gtkw > g.txt 2>&1 || true
listed=$(gtkw_listed d.gtkw)
found=$(sed -n 's/^ARIES_GTKW_SIGNALS //p' g.txt)
[ "$found" = "$listed" ] || fail "GTKWave finds every listed signal" "listed $listed, found ${found:-none}"
[ "$(sed -n 's/^ARIES_GTKW_MARKER //p' g.txt)" = "$((first * 1000))" ] ||
  fail "GTKWave's primary marker at the injection" "$(grep MARKER g.txt)"
[ "$(sed -n 's/^ARIES_GTKW_START //p' g.txt)" = "$(((first - 2) * 1000))" ] ||
  fail "GTKWave's view opens 2 cycles before the injection" "$(grep START g.txt)"
# A screenshot of GTKWave on the save file, once it is drawn (two shots alike): the window as a
# user sees it (docs/debugging.md shows one).
cat > shot.sh <<'SH'
gtkwave "$1" > /dev/null 2>&1 &
for i in $(seq 30); do
  sleep 1
  import -window root "$2" 2> /dev/null || continue
  [ -f prev.png ] && [ "$(compare -metric AE "$2" prev.png null: 2>&1)" = 0 ] && break
  cp "$2" prev.png
done
kill $!
SH
timeout 120 xvfb-run -a -s "-screen 0 1600x1000x24" sh shot.sh d.gtkw shot.png
read -r w h colours <<< "$(identify -format '%w %h %k' shot.png)"
[ "$w $h" = "1600 1000" ] && [ "$colours" -gt 1000 ] ||
  fail "a drawn 1600x1000 screenshot of the save file" "$w x $h, $colours colours"
# The decoder: nothing while valid is low, the flit while it is high.
filter=$(sed -n 's/^exec python3 \(.*\) --gated.*/\1/p' d.flit_filter | tr -d "'")
[ "$(python3 "$filter" --gated 96 --vcs 4 --k 4 --test 0x0000000000000000000000033)" = " " ] ||
  fail "an invalid flit decodes to blank" "$(python3 "$filter" --gated 96 --test 0x33)"
python3 "$filter" --gated 96 --vcs 4 --k 4 --test 0x1000000000000000000000033 | grep -q '^id0\.0 req add.i32' ||
  fail "a valid collective flit decodes" "$(python3 "$filter" --gated 96 --test 0x1000000000000000000000033)"
# A message into the engine (the in-network tree) is followed through the tree.
# Its path: node 0's requests up to the root, where they turn, the results back down to node 0.
"$aries" coll -k 4 --topology aries --algo tree --size 1K --trace t.fst --trace-op 0:0 > t.txt
path=$(sed -n 's/.*(engine-send id 0): //p' t.txt | sed 's/ (cycle [0-9]*)//g')
[ "$path" = "inject at node0, node0 -> node1, node1 -> node5, node5 -> node1, node1 -> node0, eject at node0" ] ||
  fail "node 0's stream up the tree to its root (node5) and back" "$path"
hops=$(grep '^-hop [0-9]*: node[0-9]*$' t.gtkw | sort -u | tr '\n' ' ')
[ "$hops" = "-hop 1: node0 -hop 2: node1 -hop 3: node5 " ] || fail "a group per node of the stream's path" "$hops"
# The decoder names a collective flit's engine step from the program (--steps in the wrapper).
grep -q -- '--steps 0:0:1:' t.flit_filter || fail "the engine steps given to the decoder" "$(tail -1 t.flit_filter)"
[ "$(python3 "$filter" --steps 0:1:2:4,1:0:2:4 --vcs 4 --k 4 --test 0x00900033 | cut -d' ' -f1-4)" = "id0.9 req add.i32 step5" ] ||
  fail "flit 9 of id 0 (step 1 of 2, 4 flits a step) is in engine step 5" \
    "$(python3 "$filter" --steps 0:1:2:4,1:0:2:4 --vcs 4 --k 4 --test 0x00900033)"
# The packet log and the timeline: every collective flit accounted for, totals equal the run's.
"$aries" coll -k 4 --topology aries --algo tree --size 1K --packet-log c.csv --timeline c.json \
  --json r.json > c.txt
python3 - c.csv c.json r.json <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
tl, run = json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))["result"]
coll = [r for r in rows if r["op"] != ""]
assert coll and all(r["flow"] != "" and r["seq"] != "" for r in coll), "collective flits logged"
events = tl["traceEvents"]
for e in events:
    for f in ("ph", "name", "pid", "tid"):
        assert f in e, (f, e)
    if e["ph"] == "X":
        assert e["dur"] >= 0 and e["ts"] >= 0, e
names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e["name"] == "thread_name"}
procs = {e["pid"]: e["args"]["name"] for e in events if e["name"] == "process_name"}
x = [e for e in events if e["ph"] == "X"]
tracks = {}
for e in x:  # slices on one track nest properly: here, never overlap
    tracks.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["ts"] + e["dur"]))
for t, s in tracks.items():
    s.sort()
    for a, b in zip(s, s[1:]):
        assert b[0] >= a[1] - 1e-9, (names[t], a, b)
tot = tl["otherData"]["totals"]
assert tot["cycles"] == run["cycles"], (tot, run["cycles"])
assert tot["flits_injected"] == run["flits_injected"] and tot["flits_ejected"] == run["flits_ejected"]
hops = sum(1 for e in x if procs[e["pid"]] == "links")
inj = sum(1 for e in x if names[(e["pid"], e["tid"])].startswith("inject"))
ej = sum(1 for e in x if names[(e["pid"], e["tid"])].startswith("eject"))
assert (hops, inj, ej) == (tot["flit_hops"], tot["flits_injected"], tot["flits_ejected"]), \
    (hops, inj, ej, tot)
whole = [e for e in x if procs[e["pid"]] == "collective"]
assert len(whole) == 1 and abs(whole[0]["dur"] * 1000 - run["cycles"]) < 1e-6, whole
print(f"timeline: {len(x)} slices; {hops} hops, {inj} injections, {ej} ejections = the run's")
PY
# A window: the timeline's flits are those of the cycles asked for, and its totals say so.
"$aries" coll -k 4 --topology aries --algo tree --size 1K --timeline win.json --trace-from 40 \
  --trace-to 80 > /dev/null
python3 - win.json <<'PY'
import json, sys
tl = json.load(open(sys.argv[1]))
ev = tl["traceEvents"]
procs = {e["pid"]: e["args"]["name"] for e in ev if e["name"] == "process_name"}
names = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e["name"] == "thread_name"}
flits = [e for e in ev if e["ph"] == "X" and (procs[e["pid"]] == "links" or
         names[(e["pid"], e["tid"])].startswith(("inject", "eject")))]
assert flits and all(40 <= round(e["ts"] * 1000) < 80 for e in flits), flits[:3]
tot = tl["otherData"]["totals"]
assert (tot["flit_window_from"], tot["flit_window_to"]) == (40, 80), tot
PY
# The training model's timeline: per stage its streams and its exposed communication.
"$aries" train --workload transformer --strategy fsdp --timeline i.json > /dev/null
python3 - i.json <<'PY'
import json, sys
tl = json.load(open(sys.argv[1]))
ev = tl["traceEvents"]
names = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e["name"] == "thread_name"}
x = [e for e in ev if e["ph"] == "X"]
tot = tl["otherData"]["totals"]
def total(track):
    return sum(e["dur"] for e in x if names[(e["pid"], e["tid"])] == track) * 1000
assert abs(total("compute") - tot["compute_busy_ns"]) < 1e-3 * tot["time_ns"], tot
assert abs(total("exposed communication") - tot["exposed_comm_ns"]) < 1e-3 * tot["time_ns"], tot
assert abs(max(e["ts"] + e["dur"] for e in x) * 1000 - tot["time_ns"]) < 1e-3 * tot["time_ns"]
print("train timeline: compute and exposed communication add up to the iteration's")
PY
# A .vcd name gets a VCD (converted by fst2vcd), opened by its save file.
"$aries" coll -k 2 --algo ring --size 256 --trace w.vcd > /dev/null
head -c 200 w.vcd | grep -q '\$date' || fail "a VCD under a .vcd name" "$(head -c 40 w.vcd)"
grep -q '^\[dumpfile\] ".*/w\.vcd"$' w.gtkw || fail "the save file opens the VCD" "$(grep dumpfile w.gtkw)"
# Refused by name, leaving nothing behind.
expect_refused() {  # expect_refused MESSAGE ARGS...
  local want=$1
  shift
  if "$aries" coll "$@" > /dev/null 2> e.txt; then fail "refused: $*" "it ran"; fi
  grep -q -- "$want" e.txt || fail "the refusal of $*" "$(cat e.txt)"
}
expect_refused "needs sim.model = rtl" --model fast --trace f.fst
expect_refused "name the waveform FILE.fst" --trace f.txt
expect_refused "needs --trace FILE.fst" --trace-op 5:0
expect_refused "chooses the nodes --trace FILE.fst records" --trace-nodes 0,1 --timeline z.json
expect_refused "choose the cycles --trace FILE.fst and --timeline" --trace-from 10
expect_refused "op 1 of node 5 is not a send" -k 4 --algo dbt --trace f.fst --trace-op 5:1
expect_refused "node 99 does not exist" -k 4 --trace f.fst --trace-op 99:0
expect_refused "a fault after reset" -k 4 --trace f.fst --set "package.faults=link:5-6@100"
expect_refused "built without tracing (rtl/CMakeLists.txt" -k 4 --topology cmesh --trace f.fst
! ls f.* > /dev/null 2>&1 || fail "no files after refusals" "$(ls f.*)"
echo ok
