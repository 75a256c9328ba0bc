#!/usr/bin/env bash
# aries coll-sweep on 2x2 (every algorithm x topology, two sizes, verified): the Markdown table
# has a row per applicable pair, the CSV loads as --algo auto's cost file and the report script
# reads it; bad lists and sizes are refused by name before anything is written.
set -euo pipefail
. "$(dirname "$0")/lib_fail.sh"
aries="$1"
report="$2"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$aries" coll-sweep -k 2 --sizes 64,1K --csv "$dir/c.csv" > "$dir/t.md" 2> "$dir/err"
grep -q "^| ring | mesh | [0-9]* (" "$dir/t.md"
grep -q "every element verified; node model fast$" "$dir/t.md" || { head -2 "$dir/t.md"; exit 1; }
grep -q "^| aries_bw | aries | " "$dir/t.md"
grep -q "^| ring rank | mesh | [0-9]* (" "$dir/t.md"  # the baseline's rank-order ring
if grep -q "^| aries_bw | mesh" "$dir/t.md"; then echo "aries_bw ran on mesh"; exit 1; fi
if grep -q "FAILED\|ERROR" "$dir/t.md"; then cat "$dir/t.md"; exit 1; fi
rows=$(($(grep -vc '^#' "$dir/c.csv") - 1))
[ "$rows" -ge 60 ] || { echo "only $rows CSV rows"; exit 1; }
# coll-models names the repository's cost file by its path in the repository, puts the extra
# cycles per pitch last and short, and keeps every table line within 100 columns.
"$aries" coll-models > "$dir/cm"
grep -q "^allreduce cost models from collectives/data/collective_costs.csv (int32)" "$dir/cm" \
  || { head -1 "$dir/cm"; exit 1; }
grep -q "^| aries 4x4, 2 local ports, +0 cycles/pitch | aries_bw | [0-9]* | " "$dir/cm" || { cat "$dir/cm"; exit 1; }
if awk 'length > 100 && /^\|/' "$dir/cm" | grep -q .; then echo "coll-models: a line over 100"; exit 1; fi
"$aries" coll -k 2 --topology torus --algo auto --size 512 --costs "$dir/c.csv" --verify > "$dir/auto"
grep -q "predicted cheapest" "$dir/auto"
python3 "$report" "$dir/c.csv" --sizes 64,1K > "$dir/rep"
grep -q "^| ring | " "$dir/rep"
for bad in "--topologies mesh,ring" "--algos ring,nccl"; do
  if "$aries" coll-sweep -k 2 $bad > "$dir/o" 2>&1; then echo "accepted $bad"; exit 1; fi
done
"$aries" coll-sweep -k 2 --topologies mesh,ring > "$dir/o" 2>&1 || true
grep -q "'ring' unknown; allowed mesh, torus, fbfly, aries" "$dir/o"
"$aries" coll-sweep -k 2 --algos nccl > "$dir/o" 2>&1 || true
grep -q "'nccl' unknown; allowed all or ring" "$dir/o"
# A list with an item twice or an empty item is refused (its rows would be made twice, or the
# user meant something else); so is a size of part elements.
for bad in "--topologies mesh,mesh|'mesh' given twice" "--topologies mesh,,torus|an empty item" \
    "--sizes 1K,1024|1024 bytes given twice" "--sizes 6|--sizes 6: not whole 4-byte elements" \
    "--algos ring,ring|'ring' given twice" "--topologies mesh,|an empty item" \
    "--jobs -1|--jobs: Value -1 not in range 1 to 256" \
    "--algos direct|direct makes no row of this sweep: it does not implement allreduce" \
    "--topologies mesh --algos aries_bw|aries_bw makes no row of this sweep: it applies to none of the topologies swept (it applies to aries)"; do
  # shellcheck disable=SC2086  # (the option and its value, split)
  if "$aries" coll-sweep -k 2 ${bad%%|*} > "$dir/o" 2>&1; then echo "accepted ${bad%%|*}"; exit 1; fi
  grep -q -- "${bad#*|}" "$dir/o" || { cat "$dir/o"; exit 1; }
done
# A bad size is refused before anything runs or is written.
if "$aries" coll-sweep -k 2 --sizes 1K,1Q --csv "$dir/never.csv" > "$dir/o" 2>&1; then echo "accepted 1Q"; exit 1; fi
grep -q -- "--sizes 1Q: a positive byte count" "$dir/o" || { cat "$dir/o"; exit 1; }
[ ! -e "$dir/never.csv" ] || { echo "a CSV was written for a refused sweep"; exit 1; }
# The same sweep split into jobs: on two local processes (parts merged into the CSV), and as a
# job file whose lines run anywhere, merged by coll-merge; both give the sequential rows.
"$aries" coll-sweep -k 2 --sizes 64,1K --algos ring,tree --topologies mesh,fbfly --jobs 2 --csv "$dir/p.csv" > "$dir/pt.md" 2> /dev/null
# ring (snake and rank order) and tree (one and four embeddings) x 2 topologies x 2 sizes
[ "$(($(grep -vc '^#' "$dir/p.csv") - 1))" -eq 16 ] || { cat "$dir/p.csv"; exit 1; }
grep -q "^| tree E=4 | fbfly | [0-9]* (" "$dir/pt.md"
# A successful merge removes its parts; the CSV is plain (header first), its provenance beside.
[ ! -e "$dir/p.csv.parts" ] || { echo "FAIL: parts left behind: $(ls "$dir/p.csv.parts" | head -3)"; exit 1; }
head -1 "$dir/p.csv" | grep -q "^topology,k," || { echo "FAIL: p.csv starts with '$(head -1 "$dir/p.csv")'"; exit 1; }
grep -q '"command": "aries coll-sweep' "$dir/p.csv.provenance.json" || { echo "FAIL: no provenance beside p.csv"; exit 1; }
for a in "ring,mesh,64,snake" "tree,fbfly,1K,snake" "ring,fbfly,1K,snake" "ring,fbfly,1K,rank"; do
  IFS=, read -r al to sz map <<< "$a"
  row="^$to,2,$al,2,1,allreduce,int32,$( [ "$sz" = 64 ] && echo 64 || echo 1024 ),.*,$map,1,1,all,0\$"
  b=$(grep "$row" "$dir/p.csv" | cut -d, -f9)
  c=$(grep "$row" "$dir/c.csv" | cut -d, -f9)
  [ -n "$b" ] && [ "$b" = "$c" ] || { echo "$a: parallel $b vs sequential $c cycles"; exit 1; }
done
"$aries" coll-sweep -k 2 --sizes 64,1K --algos ring --job-file "$dir/jobs.txt" > "$dir/jo"
[ "$(wc -l < "$dir/jobs.txt")" -eq 8 ]  # ring x 4 topologies x 2 sizes (each job both maps)
grep -q "sbatch --array=1-8" "$dir/jo"
bash "$dir/jobs.txt"
"$aries" coll-merge "$dir"/jobs.txt.parts/part-*.csv --csv "$dir/m.csv" | grep -q "16 rows from 8 files"
"$aries" coll -k 2 --algo auto --size 512 --costs "$dir/m.csv" > /dev/null
# Two local ports: each ring also in two directions, one per port, in rows of local_ports 2 (the
# two-way ring near the bound of two ports, about twice the one-way ring's bandwidth); job lines carry
# the port count.
"$aries" coll-sweep -k 2 --sizes 64K --algos ring --topologies mesh --set node.local_ports=2 --csv "$dir/l2.csv" > "$dir/l2.md"
[ "$(($(grep -vc '^#' "$dir/l2.csv") - 1))" -eq 4 ] || { cat "$dir/l2.csv"; exit 1; }
grep -q "^| ring bidir | mesh | [0-9]* ([0-9.]*, 9[0-9]%) |" "$dir/l2.md" || { cat "$dir/l2.md"; exit 1; }
one=$(grep "^mesh,2,ring,.*,snake,1,2,all,0\$" "$dir/l2.csv" | cut -d, -f9)
two=$(grep "^mesh,2,ring,.*,snake,2,2,all,0\$" "$dir/l2.csv" | cut -d, -f9)
[ -n "$one" ] && [ -n "$two" ] && [ $((two * 18)) -lt $((one * 10)) ] || { echo "bidir $two vs one-way $one cycles"; exit 1; }
"$aries" coll-sweep -k 2 --sizes 1K --algos ring --set node.local_ports=2 --job-file "$dir/j2.txt" > /dev/null
grep -q -- "--set node.local_ports=2 " "$dir/j2.txt"
if "$aries" coll-merge "$dir/jobs.txt" --csv "$dir/x.csv" > "$dir/o" 2>&1; then echo "merged a job file"; exit 1; fi
grep -q "jobs.txt: not a sweep CSV" "$dir/o"
# A row whose number does not parse or is not positive is refused by name; so is such a row in
# the cost file a model is fitted to. (A run measured twice is kept: the models average them.)
part1=$(ls "$dir"/jobs.txt.parts/part-*.csv | head -1)
awk -F, 'BEGIN { OFS = "," } !/^#/ && ++n == 2 { $9 = "-5" } { print }' "$part1" > "$dir/neg.csv"
if "$aries" coll-merge "$dir/neg.csv" --csv "$dir/x.csv" > "$dir/o" 2>&1; then echo "merged -5 cycles"; exit 1; fi
grep -q "neg.csv data row 1: cycles '-5': allowed a number > 0" "$dir/o" || { cat "$dir/o"; exit 1; }
if "$aries" coll-models --costs "$dir/neg.csv" > "$dir/o" 2>&1; then echo "fitted -5 cycles"; exit 1; fi
grep -q "neg.csv:[0-9]*: cycles '-5': allowed > 0" "$dir/o" || { cat "$dir/o"; exit 1; }
# Communicators: only the algorithms that plan them, every group at once and the first alone,
# recorded under the shape's name; the parallel jobs pass the shape on; a list is refused.
"$aries" coll-sweep -k 4 --groups qpeers --collective allgather --topologies mesh,aries --sizes 4K \
  --csv "$dir/g.csv" > "$dir/g.md"
# header, ring x 2, mtree x 2 (of the all-gathers, only those two plan communicators)
[ "$(grep -vc '^#' "$dir/g.csv")" -eq 5 ] || { cat "$dir/g.csv"; exit 1; }
grep -q "^| ring | aries, qpeers | [0-9]* (" "$dir/g.md" || { cat "$dir/g.md"; exit 1; }
grep -q "^| mtree | aries, qpeers | [0-9]* (" "$dir/g.md" || { cat "$dir/g.md"; exit 1; }
awk -F, '/^#/ || NR == 1 || $1 == "topology" { next }
  $19 != "qpeers" || $20 + 0 <= 0 || $9 + 0 < $20 + 0 { print "row: " $0; bad = 1 } END { exit bad }' "$dir/g.csv"
"$aries" coll-sweep -k 4 --groups rows --sizes 1K --algos ring --job-file "$dir/j3.txt" > /dev/null
grep -q -- "--set coll.groups=rows " "$dir/j3.txt"
if "$aries" coll-sweep -k 4 --groups "0,1;2,3" --sizes 1K > "$dir/o" 2>&1; then echo "swept a list"; exit 1; fi
grep -q "allowed all or a named shape for a sweep" "$dir/o" || { cat "$dir/o"; exit 1; }
if "$aries" coll-sweep -k 4 --groups foo --sizes 1K > "$dir/o" 2>&1; then echo "swept foo"; exit 1; fi
grep -q -- "--groups foo: allowed all or a named shape for a sweep" "$dir/o" || { cat "$dir/o"; exit 1; }
if "$aries" coll-sweep -k 4 --groups "rows, cols" --sizes 1K > "$dir/o" 2>&1; then echo "swept two shapes"; exit 1; fi
grep -q -- "--groups rows, cols: allowed all or a named shape for a sweep" "$dir/o" || { cat "$dir/o"; exit 1; }
echo ok
