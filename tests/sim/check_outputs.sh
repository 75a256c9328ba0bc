#!/usr/bin/env bash
# A config file with a --set override runs, and the JSON and CSV carry the config and seed.
set -euo pipefail
. "$(dirname "$0")/lib_fail.sh"
aries=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/run.cfg" <<'CFG'
# a small torus
package.topology = torus
package.k = 2
traffic.rate = 0.2    # overridden below
sim.measure = 500
sim.seed = 7
CFG
"$aries" --config "$work/run.cfg" --set traffic.rate=0.05 --json "$work/r.json" --csv "$work/r.csv" > "$work/out.txt"
grep -q "all flits delivered, checked yes" "$work/out.txt"
python3 - "$work/r.json" "$work/r.csv" <<'PY'
import csv, json, sys
j = json.load(open(sys.argv[1]))
assert j["request"]["package.topology"] == "torus", j["request"]
assert j["request"]["traffic.rate"] == 0.05 and j["request"]["package.k"] == 2, j["request"]
p = j["provenance"]
assert p["tool"] == "ARIES-sim" and p["commit"] and p["verilator"] and p["systemc"], p
assert p["command"].startswith("aries --config") and p["config"]["sim.seed"] == 7, p
assert j["result"]["runs"][0]["seed"] == 7
assert j["result"]["runs"][0]["flits"]["created"] == j["result"]["runs"][0]["flits"]["ejected"] > 0
lines = open(sys.argv[2]).read().splitlines()
assert lines[0].startswith("topology,"), lines[0]  # plain: pandas.read_csv reads it as it is
side = json.load(open(sys.argv[2] + ".provenance.json"))
assert side["provenance"]["command"].startswith("aries --config"), side
assert side["request"]["sim.seed"] == 7 and side["result"]["csv"] == "r.csv", side
rows = list(csv.DictReader(lines))
assert rows[0]["topology"] == "torus" and rows[0]["seed"] == "7" and rows[0]["rate"] == "0.05", rows
print("json and csv ok")
PY
# A bad value in the file names the file, line and key.
printf 'package.k = 99\n' > "$work/bad.cfg"
if "$aries" --config "$work/bad.cfg" 2> "$work/err.txt"; then exit 1; fi
grep -q "package.k = '99': allowed 2 .. 32" "$work/err.txt"
printf 'package.kk = 9\n' > "$work/bad2.cfg"
if "$aries" --config "$work/bad2.cfg" 2> "$work/err2.txt"; then exit 1; fi
grep -q "bad2.cfg:1: unknown key 'package.kk'" "$work/err2.txt"
# The speed bench: one row per link setting, K, load, node model and kernel, every run
# delivering its load, the same load on both models.
"$aries" bench --quick --k 2 --links 3,1 > "$work/bench.txt"
python3 - "$work/bench.txt" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1]) if l.startswith("mesh ")]
assert len(rows) == 2 * 3 * 2 * 3, rows                   # links x loads x models x kernels
assert {r[1] for r in rows} == {"3", "1"} and {r[2] for r in rows} == {"2"}, rows
assert {r[4] for r in rows} == {"rtl", "fast"}, rows
assert all(float(r[7]) > 0 and abs(float(r[10]) - float(r[3])) < 0.05 for r in rows), rows
acc = {}
for r in rows:
    acc.setdefault((r[1], r[3], r[5], r[6]), set()).add(r[10])
assert all(len(v) == 1 for v in acc.values()), acc      # rtl and fast accept the same
print("bench ok")
PY
# VC allocation: a bad value names the allowed ones; dynamic shows in the report and the CSV.
if "$aries" --set package.vc_alloc=adaptive 2> "$work/err5.txt"; then exit 1; fi
grep -q "package.vc_alloc = 'adaptive': allowed static, dynamic" "$work/err5.txt"
"$aries" --set package.topology=mesh --set package.vc_alloc=dynamic --set sim.measure=500 \
  --csv "$work/dyn.csv" > "$work/dyn.txt"
grep -q "dynamic VC allocation" "$work/dyn.txt"
grep -Eq "all flits delivered, checked +yes" "$work/dyn.txt"
python3 -c "import csv,sys; r=list(csv.DictReader(l for l in open(sys.argv[1]) if l[0] != '#')); assert r[0]['vc_alloc']=='dynamic', r" "$work/dyn.csv"
# Threads only with the loop kernel; a bad thread count names the allowed range.
if "$aries" --set sim.threads=2 2> "$work/err3.txt"; then exit 1; fi
grep -q "sim.threads = 2 needs sim.kernel = loop" "$work/err3.txt"
if "$aries" --set sim.kernel=loop --set sim.threads=0 2> "$work/err4.txt"; then exit 1; fi
grep -q "sim.threads = '0': allowed auto, 1 .. 64" "$work/err4.txt"
# A parallel run reports its threads and delivers everything.
"$aries" --set sim.kernel=loop --set sim.threads=2 --set sim.measure=500 > "$work/par.txt"
grep -q "loop kernel, 2 threads" "$work/par.txt"
grep -Eq "all flits delivered, checked +yes" "$work/par.txt"
echo "thread checks ok"
