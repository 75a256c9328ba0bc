#!/usr/bin/env bash
# The node model at the CLI: the default run's report is the same on the Verilated RTL, the fast
# C++ model and both in lockstep (but for the speed line, which names the model, and the fast
# model's note that it moves the packet id lane alone, sim.payload = id, which the lockstep
# check takes too when told); a collective on every model gives the same cycles, every element
# verified; tracing the fast model and an unknown model name are refused with the reason.
set -euo pipefail
. "$(dirname "$0")/lib_fail.sh"
aries="$1"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for m in rtl fast check; do
  "$aries" --set sim.measure=2000 --set sim.warmup=300 --set sim.model=$m > "$dir/run_$m" 2>&1
  grep -q "all flits delivered, checked *yes" "$dir/run_$m" || { cat "$dir/run_$m"; exit 1; }
  grep -q "($m node model" "$dir/run_$m" || { echo "the speed line does not name $m"; exit 1; }
  grep -v "^  speed " "$dir/run_$m" > "$dir/report_$m"
done
# The fast model moves the header and packet id alone unless told (sim.payload): the same
# report but for the line that says so, and with every lane the same report word for word.
grep -q "checked yes (headers and packet ids: sim.payload = id" "$dir/run_fast" ||
  { echo "the fast run does not say it carries the packet id alone"; exit 1; }
sed 's/ (headers and packet ids: .*$//' "$dir/report_fast" | diff "$dir/report_rtl" -
"$aries" --set sim.measure=2000 --set sim.warmup=300 --set sim.model=fast --set sim.payload=full \
  | grep -v "^  speed " | diff "$dir/report_rtl" -
diff "$dir/report_rtl" "$dir/report_check"
if "$aries" --set sim.payload=id --set sim.model=rtl > "$dir/o" 2>&1; then echo "payload id on rtl"; exit 1; fi
grep -q "sim.payload = id needs sim.model = fast or check" "$dir/o" || { cat "$dir/o"; exit 1; }
# The packet id alone in lockstep: the RTL gets the other lanes zero, keeps them zero, and the
# report is the fast model's.
"$aries" --set sim.measure=2000 --set sim.warmup=300 --set sim.model=check --set sim.payload=id \
  | grep -v "^  speed " | diff "$dir/report_fast" -
# Two local ports on ARIES: the shipped node has the collective engine, so auto moves every
# lane and id is refused.
"$aries" --set sim.measure=300 --set sim.model=fast --set node.local_ports=2 > "$dir/o" 2>&1
grep -q "all flits delivered, checked yes$" "$dir/o" || { cat "$dir/o"; exit 1; }
if "$aries" --set sim.model=fast --set sim.payload=id --set node.local_ports=2 > "$dir/o" 2>&1; then
  echo "payload id with the engine"; exit 1
fi
grep -q "not with the collective engine" "$dir/o" || { cat "$dir/o"; exit 1; }
# The flattened butterfly's two-local-port node has no engine: auto moves the id alone there.
"$aries" --set sim.measure=300 --set sim.model=fast --set package.topology=fbfly \
  --set node.local_ports=2 > "$dir/o" 2>&1
grep -q "checked yes (headers and packet ids" "$dir/o" || { cat "$dir/o"; exit 1; }
if "$aries" --set sim.payload=half > "$dir/o" 2>&1; then echo "accepted payload half"; exit 1; fi
grep -q "sim.payload = 'half': allowed auto, full, id" "$dir/o" || { cat "$dir/o"; exit 1; }
if "$aries" --set sim.payload=id --set sim.model=fast --packet-log "$dir/p.csv" > "$dir/o" 2>&1; then
  echo "packet log of id-only flits"; exit 1
fi
grep -q "packet-log prints the flits' payload lanes" "$dir/o" || { cat "$dir/o"; exit 1; }
for algo in ring tree; do
  for m in rtl fast check; do
    "$aries" coll -k 4 --topology aries --algo $algo --size 4K --verify --model $m > "$dir/c_$m" 2>&1
    grep -q "every element of every node matches" "$dir/c_$m" || { cat "$dir/c_$m"; exit 1; }
    grep -q "($m node model)" "$dir/c_$m" || { echo "coll does not name $m"; exit 1; }
    grep -oE "cycles [0-9]+" "$dir/c_$m" | head -1 > "$dir/cy_$m"
  done
  diff "$dir/cy_rtl" "$dir/cy_fast"
  diff "$dir/cy_rtl" "$dir/cy_check"
done
if "$aries" --set sim.model=fast --trace "$dir/t.fst" > "$dir/o" 2>&1; then echo "traced fast"; exit 1; fi
grep -q "needs sim.model = rtl" "$dir/o" || { cat "$dir/o"; exit 1; }
if "$aries" --set sim.model=verilog > "$dir/o" 2>&1; then echo "accepted verilog"; exit 1; fi
grep -q "sim.model = 'verilog': allowed auto, rtl, fast, check" "$dir/o" || { cat "$dir/o"; exit 1; }
# A sweep takes the fast model unless one is named; its JSON says which made each run.
# Its table's heading and its CSV rows say so too.
"$aries" sweep --set package.k=4 --set sweep.rates=0.1 --set sim.measure=500 --json "$dir/s.json" \
  --csv "$dir/s.csv" > "$dir/s.txt"
grep -q '"model": *"fast"' "$dir/s.json" || { echo "sweep did not take the fast model"; exit 1; }
grep -q "^ARIES-sim sweep: 4x4 aries, .*; fast node model (sim.payload = id: headers and packet ids)" \
  "$dir/s.txt" || { cat "$dir/s.txt"; exit 1; }
grep -v "^#" "$dir/s.csv" | head -1 | grep -q ",errors,model,payload$" || { cat "$dir/s.csv"; exit 1; }
grep -v "^#" "$dir/s.csv" | sed -n 2p | grep -q ",0,fast,id$" || { cat "$dir/s.csv"; exit 1; }
"$aries" sweep --set package.k=4 --set sweep.rates=0.1 --set sim.measure=500 --set sim.model=rtl \
  --json "$dir/s2.json" --csv "$dir/s2.csv" > "$dir/s2.txt"
grep -q '"model": *"rtl"' "$dir/s2.json" || { echo "sweep ignored sim.model=rtl"; exit 1; }
grep -q "; rtl node model, loop kernel" "$dir/s2.txt" || { cat "$dir/s2.txt"; exit 1; }
grep -v "^#" "$dir/s2.csv" | sed -n 2p | grep -q ",0,rtl,full$" || { cat "$dir/s2.csv"; exit 1; }
# A built parameter set chosen by name (package.node): the full node gives the engine-less
# model's run; a set that cannot serve the package, and one that was not built, are refused.
"$aries" --set sim.measure=2000 --set sim.warmup=300 --set package.node=Varies_node > "$dir/run_full"
grep -v "^  speed " "$dir/run_full" | diff "$dir/report_rtl" -
if "$aries" --set package.node=Varies_node_fb > "$dir/o" 2>&1; then echo "fb node on ARIES"; exit 1; fi
grep -q "package.tracks = 2: allowed 0 .. 0" "$dir/o" || { cat "$dir/o"; exit 1; }
if "$aries" --set package.node=Vnode > "$dir/o" 2>&1; then echo "accepted Vnode"; exit 1; fi
grep -q "package.node = 'Vnode': allowed auto, Varies_node, Varies_node_p2p, Varies_node_fb" "$dir/o" \
  || { cat "$dir/o"; exit 1; }
echo "models agree"
