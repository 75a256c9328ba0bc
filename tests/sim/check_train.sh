#!/usr/bin/env bash
# aries train and aries fig10 end to end: the iteration report, the timeline CSV (one row per
# operation) and SVG, FSDP over the measured reduce-scatter/all-gather costs, a cycle-accurate
# --check of a one-layer workload, Fig. 10's and Fig. 9's CSV and plot; bad options refused by name.
set -euo pipefail
. "$(dirname "$0")/lib_fail.sh"
aries="$1"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$(dirname "$0")/lib_plot.sh"
"$aries" train --workload dlrm -k 4 --topology aries --algo aries_lt --timeline "$dir/t.csv" --plot "$dir/t" > "$dir/o"
grep -q "iteration: [0-9.]* us overlapped, [0-9.]* us serialized" "$dir/o" || { cat "$dir/o"; exit 1; }
# dlrm: 34 layers forward and backward, 7 gradient all-reduces (the 26 tables are sharded), the
# pooled embeddings all-to-all forward and back.
[ "$(($(grep -vc '^#' "$dir/t.csv") - 1))" -eq 77 ] || { echo "timeline rows"; head "$dir/t.csv"; exit 1; }
[ "$(grep -c '^0,comm,allreduce' "$dir/t.csv")" -eq 7 ]
[ "$(grep -c '^0,comm,alltoall[^,]* embeddings,alltoall,all,212992,' "$dir/t.csv")" -eq 2 ] || { grep alltoall "$dir/t.csv"; exit 1; }
plot_ok "$dir/t" "dlrm ddp on aries 4x4 (aries_lt)" "allreduce" "communication" "time (us)"
"$aries" train --workload resnet50 --strategy fsdp -k 4 --topology torus --algo ring > "$dir/f"
grep -q "cost model: reducescatter ring on torus 4x4" "$dir/f"
grep -q "in 162 collectives" "$dir/f"
# One 16 KB layer, checked cycle-accurately against its cost model.
printf '# batch: 2\nlayer,params,fwd_flops,tp_fwd,tp_bwd,sync\nfc,4096,1000000,64,0,dp\n' > "$dir/one.csv"
"$aries" train --workload "$dir/one.csv" -k 4 --topology mesh --algo ring --check > "$dir/c" 2> /dev/null
grep -q "^| allreduce | every chiplet | ring | 16384 | [0-9]* | [0-9]* | [-+][0-9.]*% |" "$dir/c" || { cat "$dir/c"; exit 1; }
grep -q "largest model error" "$dir/c"
grep -q "up to .* bytes on mesh 4x4 (every element verified; fast node model)" "$dir/c" || { cat "$dir/c"; exit 1; }
"$aries" train --workload "$dir/one.csv" -k 4 --topology mesh --algo ring --check --set sim.model=rtl \
  > "$dir/cr" 2> /dev/null
grep -q "(every element verified; rtl node model)" "$dir/cr" || { cat "$dir/cr"; exit 1; }
# The same measured cycles on either model.
diff <(grep "^| allreduce" "$dir/c") <(grep "^| allreduce" "$dir/cr")
# Nested: tp within rows (its all-reduce over the row communicators), ddp across (over the
# columns), both checked cycle-accurately with every group at once: of the algorithms measured
# over rows and columns (ring, dbt, mtree, tree), the in-network tree is the cheapest at 2-4 KB.
"$aries" train --workload "$dir/one.csv" -k 4 --topology aries --strategy tp@rows+ddp --check > "$dir/n" 2> /dev/null
grep -q "^| allreduce | rows | tree | 2048 | [0-9]* | [0-9]* | [-+][0-9.]*% |" "$dir/n" || { cat "$dir/n"; exit 1; }
grep -q "^| allreduce | cols | tree | 4096 | [0-9]* | [0-9]* | [-+][0-9.]*% |" "$dir/n" || { cat "$dir/n"; exit 1; }
grep -q "cost model: allreduce ring over cols (every group at once: [0-9.]*x one group alone); the cheapest at each size" "$dir/n"
grep -q "cost model: allreduce dbt over rows " "$dir/n"
# The search: ranked strategies against flat fsdp per package, the best of each package, and
# a memory budget nothing fits.
"$aries" train --workload dlrm --search --top 3 > "$dir/s"
grep -q "^| 1 | ddp | [0-9.]* | [0-9.]* | [0-9.]* ([0-9.]*%) | [0-9.]* | [0-9.]*x |" "$dir/s" || { cat "$dir/s"; exit 1; }
grep -q "^| ([0-9]*) | fsdp (the baseline) |" "$dir/s"
grep -q "^| torus | ddp | " "$dir/s"
grep -q "aries 4x4: 18 strategies evaluated, 0 over the memory" "$dir/s"
# The repository's cost file by its path in the repository; every table line within 100 columns.
grep -q "; costs from collectives/data/collective_costs.csv$" "$dir/s" || { head -1 "$dir/s"; exit 1; }
if awk 'length > 100 && /^\|/' "$dir/s" | grep -q .; then echo "search: a table line over 100"; exit 1; fi
"$aries" train --workload dlrm --search --memory 1M --topologies mesh > "$dir/s2"
grep -q "mesh 4x4: 0 strategies evaluated, 34 over the memory (the least of them needs" "$dir/s2" || { cat "$dir/s2"; exit 1; }
"$aries" fig10 -k 4 --workloads dlrm,resnet50 --csv "$dir/f10.csv" --plot "$dir/f10" > "$dir/g"
[ "$(($(grep -vc '^#' "$dir/f10.csv") - 1))" -eq 30 ] || { cat "$dir/f10.csv"; exit 1; }  # 3 families x 2 x 5 (4 baselines, ARIES)
grep -q "^| paper (V-B) | | 2.10 / 2.10 / 1.52 / 1.48 |" "$dir/g"
# Adapt-NoC: per all-reduce the cheapest of its mesh, torus and adaptable-link sub-networks,
# never slower than the mesh or the torus, and its rows name the sub-network each all-reduce
# took (the double binary tree takes the adaptable links: ARIES's segments bridge its edges).
grep -q "^4,dbt,resnet50,adapt,dbt on adaptable links x" "$dir/f10.csv" || { grep adapt "$dir/f10.csv"; exit 1; }
grep -q "^4,ring,resnet50,adapt,ring on \(mesh\|torus\|adaptable links\) x" "$dir/f10.csv" || { grep adapt "$dir/f10.csv"; exit 1; }
awk -F, '/^#/ || NR == 1 { next } { t[$1 "," $2 "," $3 "," $4] = $6 }
  END { for (key in t) { split(key, f, ","); if (f[4] != "adapt") continue
          m = t[f[1] "," f[2] "," f[3] ",mesh"]; o = t[f[1] "," f[2] "," f[3] ",torus"]
          if (t[key] > m + 0.001 || t[key] > o + 0.001) { print "adapt slower: " key; bad = 1 } }
        exit bad }' "$dir/f10.csv"
grep -q "^4,dbt,resnet50,aries,dbt x54," "$dir/f10.csv"
# Every row has the header's 13 fields (a mixed ARIES choice is joined without commas).
awk -F, '/^#/ { next } NF != 14 { print "row " NR ": " NF " fields"; bad = 1 } END { exit bad }' "$dir/f10.csv"
# The batch each row ran, and the header saying it.
grep -q "^4,ring,resnet50,mesh,.*,default,32$" "$dir/f10.csv" || { grep resnet50 "$dir/f10.csv"; exit 1; }
grep -q "^Batch per chiplet (each workload's reference batch): dlrm 128, resnet50 32; all-reduces only" "$dir/g"
grep -q "every ring the snake" "$dir/g"
if grep -q ",ring rank x" "$dir/f10.csv"; then echo "the default preset ran the rank ring"; exit 1; fi
# The paper's assumptions: the baselines' ring in rank order, and the decomposition table.
"$aries" fig10 -k 4 --workloads dlrm,resnet50 --preset paper --csv "$dir/p10.csv" > "$dir/p"
grep -q "baseline rings in rank order" "$dir/p"
grep -q "^4,ring,dlrm,mesh,ring rank x[0-9]*,.*,paper,128$" "$dir/p10.csv" || { cat "$dir/p10.csv"; exit 1; }
grep -q "^4,ring,dlrm,aries,.*,paper,128$" "$dir/p10.csv"
if grep -q "^4,ring,dlrm,aries,[^,]*rank" "$dir/p10.csv"; then echo "ARIES ran the rank ring"; exit 1; fi
# The decomposition and the ceiling: one row per family, K and step, the four baselines (mesh,
# torus, fbfly, Adapt-NoC) as columns. `rows` reads them into v["d" (decomposition) or "c"
# (ceiling), family, K, step, 1..4] and the families and Ks of the decomposition into fk.
rows='/^\| family \| K \| step \|/ { t = "d"; next }
  /^\| family \| K \| quantity \|/ { t = "c"; next }
  !/^\|/ { t = "" }
  t != "" && NF == 9 && $2 ~ /^ (ring|dbt|mtree) $/ {
    f = $2; gsub(/ /, "", f); k = $3 + 0; s = $4; gsub(/^ +| +$/, "", s); steps[t, f, k]++
    for (i = 1; i <= 4; i++) { x = $(4 + i); gsub(/ /, "", x); v[t, f, k, s, i] = x }
    if (t == "d") fk[f, k] = 1 }'
for fam in ring dbt mtree; do
  grep -qE "^\| $fam \| 4 \| ours \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \|$" "$dir/p" || { cat "$dir/p"; exit 1; }
  grep -qE "^\| $fam \| 4 \| x baseline ring mapping \| [0-9.]+ \| " "$dir/p" || { cat "$dir/p"; exit 1; }
done
# Every family and K has the decomposition's 13 steps and the ceiling's 8 rows, and no table
# line is over 100 columns.
awk -F'|' "$rows"'
  END { for (key in fk) { split(key, a, SUBSEP); n++
          if (steps["d", a[1], a[2]] != 13 || steps["c", a[1], a[2]] != 8) bad = 1 }
        exit bad || n != 3 }' "$dir/p" || { cat "$dir/p"; exit 1; }
if awk 'length > 100 && /^\|/' "$dir/p" | grep -q .; then echo "a table line over 100 columns"; exit 1; fi
# ARIES on the two local ports its ARIES_BW needs: the ring family takes ARIES_BW for the large
# layers, and the decomposition's endpoint factor for the ring family is above 1.1.
grep -q "ARIES's chiplets with the 2 local ports its ARIES_BW needs" "$dir/p"
grep -q "^4,ring,dlrm,aries,[^,]*aries_bw x[0-9]*" "$dir/p10.csv" || { grep "^4,ring" "$dir/p10.csv"; exit 1; }
grep -q "| x endpoint bandwidth |" "$dir/p"
# The batch bound: the paper preset at batch 1 is at least the preset at the reference batches.
grep -q "| x batch 1 |" "$dir/p"
grep -q "| = paper preset, batch 1 |" "$dir/p"
awk -F'|' "$rows"'
  END { for (key in fk) { split(key, a, SUBSEP); n++
          if (v["d", a[1], a[2], "x batch 1", 1] + 0 < 0.999) bad = 1 }
        exit bad || n != 3 }' "$dir/p" || { cat "$dir/p"; exit 1; }
awk -F'|' "$rows"' END { exit !(v["d", "ring", 4, "x endpoint bandwidth", 1] + 0 > 1.1) }' "$dir/p" \
  || { cat "$dir/p"; exit 1; }
# Segments at one hop's latency (ARIES's one-hop rows are in the cost file): the README's
# finding, no family moves by more than 2%; concentration only for the family that has a
# concentrated algorithm (what each preset admits: tests/sim/figures_test.cc).
# A link per tree edge (ARIES's double binary tree on the butterfly's links): a factor for the
# family with a rank-order tree only, the same against every baseline (one ARIES change), and
# the unexplained row is the paper's over the product of the steps.
for step in "of which concentration" "x one-hop segments" "x dedicated tree links" "paper (V-B)" "unexplained"; do
  grep -q "| $step |" "$dir/p" || { echo "no step $step"; exit 1; }
done
awk -F'|' "$rows"'
  END { for (key in fk) { split(key, a, SUBSEP); fam = a[1]; k = a[2]; n++
          for (i = 1; i <= 4; i++) {
            h[i] = v["d", fam, k, "x one-hop segments", i]; l[i] = v["d", fam, k, "x dedicated tree links", i]
            if (h[i] + 0 < 0.98 || h[i] + 0 > 1.02) bad = 1
            if ((fam == "mtree") != (v["d", fam, k, "of which concentration", i] != "-")) bad = 1
            if ((fam == "dbt") != (l[i] != "-")) bad = 1 }
          if (fam != "dbt") continue
          for (i = 2; i <= 4; i++) if (l[i] != l[1]) bad = 1
          if (l[1] + 0 == 1) bad = 1  # the butterfly rows, not ARIES own: the step moves it
          for (i = 1; i <= 4; i++) {
            want = v["d", fam, k, "paper (V-B)", i] / (v["d", fam, k, "= paper preset, batch 1", i] * h[i] * l[i])
            u = v["d", fam, k, "unexplained", i] + 0
            if (u < want - 0.03 || u > want + 0.03) bad = 1 } }
        exit bad || n != 3 }' "$dir/p" || { cat "$dir/p"; exit 1; }
# Communication alone (no compute): it moves each speedup away from 1, never across (the
# iteration's speedup lies between 1 and its communication's), and the last row is the
# paper's over the one-hop factor and the communication speedup (the tree links' for dbt).
grep -q "| x no compute |" "$dir/p"
grep -q "| unexplained, no compute |" "$dir/p"
awk -F'|' "$rows"'
  END { for (key in fk) { split(key, a, SUBSEP); fam = a[1]; k = a[2]; n++
          for (i = 1; i <= 4; i++) {
            it = v["d", fam, k, "= paper preset, batch 1", i] * (fam == "dbt" ? v["d", fam, k, "x dedicated tree links", i] : 1)
            x = v["d", fam, k, "x no compute", i] + 0; r = v["d", fam, k, "unexplained, no compute", i] + 0
            if (it > 1.01 && x < 0.995) bad = 1
            if (it < 0.99 && x > 1.005) bad = 1
            want = v["d", fam, k, "paper (V-B)", i] / (v["d", fam, k, "x one-hop segments", i] * x * it)
            if (r < 0.97 * want || r > 1.03 * want) bad = 1 } }
        exit bad || n != 3 }' "$dir/p" || { cat "$dir/p"; exit 1; }
# The ceiling: ARIES at its bound is never slower than measured (its factor at least 1, but for
# the one-hop and tree-link steps measured together instead of multiplied: 2% allowed), the
# ceiling is the batch-1 speedup with every step times that factor, what is left to the
# baselines is the paper's over the ceiling (iteration and communication alone), and ARIES over
# Adapt-NoC at its bound is at most over the modelled Adapt-NoC. The decomposition's batch-1,
# one-hop and tree-link rows of the same family give the product.
for step in "x ARIES at its bound" "ceiling" "paper (V-B)" "left to the baselines"; do
  grep -q "| $step |" "$dir/p" || { echo "no ceiling row $step"; exit 1; }
done
awk -F'|' "$rows"'
  END { for (key in fk) { split(key, a, SUBSEP); fam = a[1]; k = a[2]; n++
          for (i = 1; i <= 4; i++) {
            base = v["d", fam, k, "= paper preset, batch 1", i] * v["d", fam, k, "x one-hop segments", i] \
              * (fam == "dbt" ? v["d", fam, k, "x dedicated tree links", i] : 1)
            g = v["c", fam, k, "x ARIES at its bound", i] + 0; c = v["c", fam, k, "ceiling", i] + 0
            p = v["c", fam, k, "paper (V-B)", i]; r = v["c", fam, k, "left to the baselines", i] + 0
            cc = v["c", fam, k, "ceiling, communication", i] + 0
            rc = v["c", fam, k, "left to the baselines, communication", i] + 0
            if (g < 0.98) bad = 1
            want = base * g
            if (c < 0.97 * want || c > 1.03 * want) bad = 1
            if (r < 0.97 * p / c || r > 1.03 * p / c) bad = 1
            if (rc < 0.97 * p / cc || rc > 1.03 * p / cc) bad = 1
            if (c > 1.01 && cc < c - 0.005) bad = 1 }
          if (v["c", fam, k, "over Adapt-NoC at its bound", 4] + 0 > v["c", fam, k, "over the modelled Adapt-NoC", 4] + 0.005) bad = 1 }
        exit bad || n != 3 }' "$dir/p" || { cat "$dir/p"; exit 1; }
grep -q "^4,ring,dlrm,aries,aries_lt L=2 x[0-9]* + ring x[0-9]*," "$dir/f10.csv"
plot_ok "$dir/f10" "ARIES over mesh" "paper (V-B)" "dbt, 4x4 chiplets" "resnet50"
# Fig. 9 from the repository's measured costs: the ARIES curves and one CSV row per point.
"$aries" fig9 -k 4 --csv "$dir/f9.csv" --plot "$dir/f9.svg" > "$dir/n"
grep -q "^| aries_lt L=2 on aries | [0-9.]* |" "$dir/n"
grep -q "^| cmtree on aries |" "$dir/n"
grep -q "^4,ring,aries_bw,aries,2097152,[0-9]*," "$dir/f9.csv"
# Every CSV is plain (no comment lines) with its provenance beside it: version and commit,
# date, command, configuration.
for f in t f10 f9; do
  if grep -q "^#" "$dir/$f.csv"; then echo "FAIL: $f.csv holds comment lines"; exit 1; fi
  python3 - "$dir/$f.csv.provenance.json" <<'PY' || exit 1
import json, sys
p = json.load(open(sys.argv[1]))["provenance"]
assert p["tool"] == "ARIES-sim" and p["commit"] and p["command"].startswith("aries "), p
PY
done
# Fig. 9 under the paper's preset: the baselines' rank-order ring, ARIES_BW on two local ports at
# twice the one-port ring's bandwidth at 2 MB.
"$aries" fig9 -k 4 --preset paper --csv "$dir/p9.csv" > "$dir/q"
# Adapt-NoC's adaptable links are ARIES's one-port rows (the cost file's), not ARIES's two-port.
costs="$(dirname "$0")/../../collectives/data/collective_costs.csv"
one=$(grep "^aries,4,dbt,2,1,allreduce,int32,65536,[0-9]*,[0-9.]*,[0-9.]*,1,2,10,1,snake,1,1,all,0$" "$costs" | cut -d, -f9)
[ -n "$one" ] && grep -q "^4,dbt,dbt,adapt,65536,$one,.*,1,paper$" "$dir/p9.csv" || { grep ",65536," "$dir/p9.csv"; exit 1; }
if grep -q "^4,dbt,dbt,aries,65536,$one," "$dir/p9.csv"; then echo "ARIES ran on one port"; exit 1; fi
grep -q "^| ring rank on mesh |" "$dir/q"
bw=$(grep "^4,ring,aries_bw,aries,2097152,[0-9]*,[0-9.]*,2,paper$" "$dir/p9.csv" | cut -d, -f7)
mesh=$(grep "^4,ring,ring rank,mesh,2097152," "$dir/p9.csv" | cut -d, -f7)
awk -v a="$bw" -v b="$mesh" 'BEGIN { exit !(a > 1.9 * b) }' || { echo "aries_bw $bw vs mesh $mesh GB/s"; exit 1; }
# Adapt-NoC's curve: at every size the fastest of its sub-networks, so never slower than the
# mesh's and the torus's; the double binary tree's is faster than both at 64 KB (the adaptable
# links, as in fig10).
grep -q "^| Adapt-NoC (fastest) |" "$dir/n"
grep -q "^Adapt-NoC (fastest): at each size the fastest of its mesh, torus, adaptable links, concentrated mesh" "$dir/n"
awk -F, '/^#/ || NR == 1 { next } $3 !~ /^(ring|dbt|mtree)$/ { next } { c[$2 "," $4 "," $5] = $6 }
  END { for (key in c) { split(key, f, ","); if (f[2] != "adapt") continue; n++
          m = c[f[1] ",mesh," f[3]]; t = c[f[1] ",torus," f[3]]; want = m < t ? m : t
          if (c[key] > want) { print "adapt at " key ": " c[key] " vs " want; bad = 1 } }
        exit bad || !n || !(c["dbt,adapt,65536"] < c["dbt,mesh,65536"]) }' "$dir/f9.csv" || { grep ",\(adapt\|mesh\)," "$dir/f9.csv"; exit 1; }
plot_ok "$dir/f9" "aries_lt L=2 on aries" "cmtree on aries" "ring all-reduce, 4x4 chiplets" "bytes per node"
refused() {  # command... ; expected message
  local want="${!#}"
  if "$aries" "${@:1:$#-1}" > "$dir/e" 2>&1; then echo "accepted: $*"; exit 1; fi
  grep -q -- "$want" "$dir/e" || { echo "expected '$want'"; cat "$dir/e"; exit 1; }
}
refused train --strategy zero3 "--strategy zero3: allowed ddp, fsdp, tp, or INNER@GROUPS+OUTER"
refused train --strategy tp@rows+pp --workload dlrm "pipeline stages of sharded tables are not modelled"
refused train --strategy tp@quadrants+ddp -k 3 "quadrants and pipeline stages with K even (K = 3"
refused train --microbatches 8 "--microbatches 8: allowed 0 with ddp (micro-batches are a pipeline's"
refused train --search --topologies ring "--topologies ring: 'ring' unknown"
refused train --workload "$dir/none.csv" "none.csv: cannot open the workload file (shipped: resnet50, vgg16"
refused train --bucket 1Q "--bucket 1Q: allowed 0 .. 1024G bytes (0: none; e.g. 25M)"
refused train --utilization 0 "--utilization 0: allowed (0, 1]"
refused train --topology mesh -k 2 "no measured allreduce costs for ring on mesh 2x2"
refused train --topology mesh --algo dbt --strategy fsdp "no measured allgather costs for dbt on mesh 4x4"
refused fig10 -k 5 "-k 5: allowed 4, 8"
refused fig9 -k 2 "-k 2: allowed 4, 8"
refused fig10 -k , "-k ',': allowed 4, 8"
refused report -k 4 --fig11-k 3 "--fig11-k 3: allowed 4, 8"
refused report -k 4 --area "$dir/none" "--area $dir/none: the folder does not exist"
mkdir -p "$dir/empty"
refused report -k 4 --area "$dir/empty" "--area $dir/empty: holds neither node_area.json nor router_area.json"
# The router's roll-up where the README's command writes it (--out DIR/router_area) is found.
mkdir -p "$dir/ra/router_area"
echo '{"marker_um2": 12345}' > "$dir/ra/router_area/router_area.json"
"$aries" report -k 4 --area "$dir/ra" --out "$dir/rra" > /dev/null 2>&1
grep -q marker_um2 "$dir/rra/report.md" || { echo "report: router_area/router_area.json not read"; exit 1; }
printf '{"area": 1' > "$dir/empty/node_area.json"
refused report -k 4 --area "$dir/empty" --out "$dir/rbad" "node_area.json is not JSON"
[ ! -e "$dir/rbad" ] || { echo "a refused report wrote $dir/rbad"; exit 1; }
refused fig10 --preset astra "--preset astra: allowed default, paper (key eval.preset)"
refused fig10 --workloads , "--workloads: name at least one of resnet50"
refused train --strategy tp --bucket 25M "--bucket 25M: allowed 0 with tp (buckets are flat ddp's"
refused train --check --check-max 1Q "--check-max 1Q: allowed 1 .. 64M bytes (e.g. 2M)"
# What a run would ignore is refused: one run's options with --search, the search's and
# --check's without them, an algorithm's shape with another algorithm.
refused train --check-max 1M "--check-max 1M: allowed only with --check"
refused train --search --strategy fsdp "--strategy fsdp: allowed only without --search"
refused train --search --timeline "$dir/t.csv" "--timeline: only without --search"
refused train --top 3 "--top: only with --search"
refused train --algo ring --levels 3 "--levels 3: allowed only with --algo aries_lt"
refused train -k 20 "--k 20: allowed 2 .. 16"
refused fig11 --size 65 "--size 65: not whole 4-byte elements"
# Competing models (DLRM's all-to-all: direct and 2phase) each count the sizes they price: one
# size in all, not one each.
"$aries" train --workload dlrm > "$dir/dlrm.txt"
used=$(grep "cost model: alltoall" "$dir/dlrm.txt" | grep -o "[0-9]* sizes used" | awk '{ s += $1 } END { print s }')
[ "$used" = 1 ] || { grep "cost model" "$dir/dlrm.txt"; echo "all-to-all sizes used: $used"; exit 1; }
# One run that needs more memory than a chiplet has says so.
"$aries" train --workload gpt3 | grep -q "2620.38 GiB .*; more than the 16.00 GiB a chiplet has" \
  || { echo "gpt3 over memory: no word"; exit 1; }
refused coll-models --type fp32 "no fp32 allreduce rows to fit"
refused report --out "" "--out: an output folder (empty given)"
# (in the scratch folder: an empty --out once wrote the netlists into the working directory)
(cd "$dir" && refused area --out "" "--out: an output folder (empty given)")
refused train --memory 1 "--memory 1: allowed only with --search"
refused coll-sweep --type fp64 --jobs 2 --csv "$dir/x.csv" "--type fp64: allowed int32, fp32"
refused coll-sweep --collective broadcast "--collective broadcast: allowed allreduce, reducescatter, allgather, alltoall"
echo ok
