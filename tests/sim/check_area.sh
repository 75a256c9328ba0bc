#!/usr/bin/env bash
# aries area on a small node (1 lane, 2 VCs, depth 2, 8 flows, 1 track): both nodes and the
# bypass switch synthesize, the overhead is the difference of the two totals, the gate-level
# netlists are written, and aries report --area includes the result.
set -euo pipefail
. "$(dirname "$0")/lib_fail.sh"
aries="$1"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$aries" area --out "$dir/a" --lanes 1 --vcs 2 --flows 8 --depth 2 --tracks 1 > "$dir/o" 2> "$dir/e" || { cat "$dir/e"; exit 1; }
grep -q "ARIES overhead on the chiplet (buffer depth 2): [0-9]* um^2" "$dir/o"
python3 - "$dir/a/node_area.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
over = j["aries_node_um2"] - j["mesh_node_um2"]
assert abs(over - j["overhead_um2"]) < 0.2, j
assert over > 0 and j["bypass_switch_um2"] > 0, j
assert "aries_port_mux" in j["blocks_aries"] and "aries_port_mux" not in j["blocks_mesh"], j
PY
grep -q "^total,[0-9.]*,[0-9.]*$" "$dir/a/area.csv"
. "$(dirname "$0")/lib_plot.sh"
plot_ok "$dir/a/area" "mesh node" "ARIES node" "aries_stream_mux"
for d in mesh aries bypass_switch; do
  for f in netlist.v netlist.json; do [ -s "$dir/a/$d/$f" ] || { echo "no $d/$f"; exit 1; }; done
done
"$aries" report --out "$dir/r" -k 4 --area "$dir/a" > /dev/null 2>&1
grep -q "overhead_um2" "$dir/r/report.md"
if "$aries" area --tracks 0 > "$dir/x" 2>&1; then echo "accepted 0 tracks"; exit 1; fi
grep -q -- "--tracks 0: allowed 1..4" "$dir/x"
echo ok
