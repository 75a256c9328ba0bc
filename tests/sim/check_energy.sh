#!/usr/bin/env bash
# aries coll --energy and aries fig11 on small cases: the energy breakdown adds up, the per-node
# CSV sums to the printed total, an override moves only its component, bad technology input is
# refused by name; Fig. 11's CSV has a row per family and topology.
set -euo pipefail
. "$(dirname "$0")/lib_fail.sh"
aries="$1"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$aries" coll -k 2 --topology aries --algo ring --size 4K --verify --energy --energy-csv "$dir/e.csv" > "$dir/o"
grep -q "every element of every node matches" "$dir/o"
line=$(grep "energy (dsent45, 544 bits per flit)" "$dir/o")
# total = the sum of its parts (nJ, one decimal each)
python3 - "$line" "$dir/e.csv" <<'PY'
import re, sys, csv
line, path = sys.argv[1], sys.argv[2]
nums = [float(x) for x in re.findall(r"([0-9.]+) (?:\+|nJ;)", line)]
total = float(re.search(r": ([0-9.]+) nJ =", line).group(1))
parts = nums  # buffers, crossbar, allocators, links, engine, reconfiguration, leakage
assert len(parts) == 7, (line, nums)
assert abs(sum(parts) - total) <= 0.05 * 7, (parts, total)
rows = list(csv.DictReader(l for l in open(path) if not l.startswith("#")))
nodes = sum(float(r["energy_pj"]) for r in rows if r["kind"] == "node") / 1e3
assert abs(nodes - total) <= 0.1, (nodes, total)
assert any(r["kind"] == "link" for r in rows)
PY
# An override moves its component only (same run, same activity): --tech-set alone implies --energy.
"$aries" coll -k 2 --topology aries --algo ring --size 4K --tech-set link_pj_per_bit=0 > "$dir/z"
grep -q "links 0.0 +" "$dir/z"
parts() { grep -o "buffers [0-9.]* + crossbar [0-9.]* + allocators [0-9.]*" "$1"; }
[ -n "$(parts "$dir/o")" ] && [ "$(parts "$dir/o")" = "$(parts "$dir/z")" ] || { echo "override moved other parts"; exit 1; }
# Paths with spaces and quotes reach the child processes intact (no shell injection).
odd="$dir/my 'odd' dir"
"$aries" report --out "$odd" -k 4 > /dev/null 2>&1
[ -s "$odd/report.md" ] || { echo "report with an odd path"; exit 1; }
if "$aries" coll -k 2 --size 4K --energy --tech-set volts=1 > "$dir/b" 2>&1; then echo "accepted volts"; exit 1; fi
grep -q "energy override 'volts=1': expected key=value with key one of ref_flit_bits" "$dir/b"
if "$aries" coll -k 2 --size 4K --energy --tech "$dir/none.tech" > "$dir/b" 2>&1; then echo "accepted a missing file"; exit 1; fi
grep -q "none.tech: cannot open the technology file" "$dir/b"
"$aries" fig11 -k 4 --size 1K --csv "$dir/f.csv" --plot "$dir/f" > "$dir/f" 2> /dev/null
[ "$(($(grep -vc '^#' "$dir/f.csv") - 1))" -eq 15 ]  # 3 families x 5 (4 topologies, Adapt-NoC)
grep -q "^| mean of the families | .* | 30.5% / 28.9% / 21.2% / 17.5% |" "$dir/f"
grep -q "^ARIES Fig. 11: .*, cycle-accurate runs (fast node model), every element verified" "$dir/f" \
  || { head -3 "$dir/f"; exit 1; }
# Adapt-NoC takes the sub-network of least energy: its row is the mesh's, the torus's or its
# adaptable links' run (the baseline algorithm on ARIES's segments at one local port).
grep -q "^4,ring,adapt,ring on \(mesh\|torus\|adaptable links\)," "$dir/f.csv" || { cat "$dir/f.csv"; exit 1; }
grep -q "^4,dbt,adapt,dbt on adaptable links,.*,1,default,fast$" "$dir/f.csv" || { cat "$dir/f.csv"; exit 1; }
. "$(dirname "$0")/lib_plot.sh"
plot_ok "$dir/f" "leakage" "links" "aries: aries_lt L=2" "1K per node (dsent45)"
# The paper's preset: the baselines' ring in rank order, ARIES on two local ports (the rows say
# so), and ARIES_BW's energy below the rank-order mesh ring's.
"$aries" fig11 -k 4 --size 1K --preset paper --csv "$dir/p.csv" > "$dir/p" 2> /dev/null
grep -q "Assumptions (paper preset)" "$dir/p"
grep -q "^4,ring,mesh,ring rank,.*,paper,fast$" "$dir/p.csv" || { cat "$dir/p.csv"; exit 1; }
grep -q "^4,ring,aries,[^,]*,.*,2,paper,fast$" "$dir/p.csv" || { cat "$dir/p.csv"; exit 1; }
grep -q "^4,dbt,mesh,dbt,.*,1,paper,fast$" "$dir/p.csv"
# Adapt-NoC's adaptable links stay on one local port when the preset gives ARIES two: its DB
# tree's run is not ARIES's (other cycles).
adapt=$(grep "^4,dbt,adapt,dbt on adaptable links,[0-9]*,.*,1,paper,fast$" "$dir/p.csv" | cut -d, -f5)
aries2=$(grep "^4,dbt,aries,dbt,[0-9]*,.*,2,paper,fast$" "$dir/p.csv" | cut -d, -f5)
[ -n "$adapt" ] && [ -n "$aries2" ] && [ "$adapt" != "$aries2" ] || { cat "$dir/p.csv"; exit 1; }
# The report gathers every section with its command, and points to the area scripts.
"$aries" report --out "$dir/rep" -k 4 2> /dev/null | grep -q "report.md"
for h in "## Table I" "## Fig. 9" "## Fig. 10" "## Fig. 11" "## Area" "node_area.py"; do
  grep -q "$h" "$dir/rep/report.md" || { echo "report lacks $h"; exit 1; }
done
grep -q "^| Ring | N = 16 | 16 |" "$dir/rep/report.md"
grep -q "cycle-accurate runs (fast node model)" "$dir/rep/report.md" || { echo "report: no model"; exit 1; }
for f in table1.csv table1.svg table1.png fig9.svg fig10.pdf fig11.svg fig9.csv fig10.csv fig11.csv; do
  [ -s "$dir/rep/$f" ] || { echo "report lacks $f"; exit 1; }
done
# Under the paper's preset every figure runs with it, and Fig. 10 carries the decomposition.
"$aries" report --out "$dir/rp" -k 4 --preset paper --model fast > /dev/null 2>&1
grep -q "Assumptions (paper preset)" "$dir/rp/report.md"
# Its Fig. 9 text follows the preset's numbers: on two ports the multi-tree on ARIES leads.
grep -q "the multi-tree on ARIES's two local ports ahead of the torus one" "$dir/rp/report.md"
grep -q "^Made by ARIES-sim .* (commit .* on 20.* with \`aries report" "$dir/rp/report.md" \
  || { head -3 "$dir/rp/report.md"; exit 1; }
# The node model named for Fig. 11's runs goes to its command; a model that does not exist is
# refused before anything runs.
grep -q "^\`aries fig11 -k '4' .* --preset paper --model fast\`" "$dir/rp/report.md" || { echo "fig11 without the model"; exit 1; }
if "$aries" report --out "$dir/rm" --model verilog > "$dir/o" 2>&1; then echo "report took verilog"; exit 1; fi
grep -q "allowed auto, rtl, fast, check (key sim.model)" "$dir/o" || { cat "$dir/o"; exit 1; }
[ ! -e "$dir/rm" ] || { echo "a refused report made its folder"; exit 1; }
for f in fig9 fig10 fig11; do
  grep -q "^\`aries $f -k '4' .* --preset paper\( --model fast\)\?\`" "$dir/rp/report.md" || { echo "$f without the preset"; exit 1; }
done
grep -q "| x endpoint bandwidth |" "$dir/rp/report.md"
grep -q ",2,paper$" "$dir/rp/fig9.csv"
echo ok
