#!/usr/bin/env bash
# aries coll --json: the request, the results (numbers as numbers) and the provenance; --op and
# --type on the engine (in-network tree) and on the endpoints (ring), verified.
set -euo pipefail
. "$(dirname "$0")/lib_fail.sh"
aries=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for algo in tree ring; do
  "$aries" coll -k 2 --topology mesh --algo $algo --op max --type fp32 --size 4K --verify \
    --json "$dir/$algo.json" > "$dir/$algo.txt"
  grep -q "every element of every node matches" "$dir/$algo.txt"
  python3 - "$dir/$algo.json" "$algo" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
r, q, p = j["result"], j["request"], j["provenance"]
assert q["op"] == "max" and q["type"] == "fp32" and q["bytes"] == 4096 and q["k"] == 2, q
assert r["engine_op"] == "max.f32" and r["algorithm"] == sys.argv[2], r
assert r["verified"] is True and r["ok"] is True, r
assert isinstance(r["cycles"], int) and r["cycles"] > 0, r
assert 0 < r["fraction_of_bound"] <= 1.0 and r["flits_injected"] > 0, r
assert p["config"]["coll.op"] == "max" and p["config"]["package.k"] == 2, p["config"]
assert p["subcommand"] == "coll" and p["command"].startswith("aries coll -k 2"), p
print("json ok", sys.argv[2], r["cycles"])
PY
done
# The same cycles for sum on int32 (the operation does not change the timing).
"$aries" coll -k 2 --topology mesh --algo tree --size 4K --json "$dir/sum.json" > /dev/null
python3 -c "import json,sys; a,b=(json.load(open(f))['result']['cycles'] for f in sys.argv[1:]); assert a==b,(a,b)" \
  "$dir/sum.json" "$dir/tree.json"
# An output in a missing folder is refused before the run.
if "$aries" coll -k 2 --size 64M --json "$dir/none/x.json" 2> "$dir/err"; then exit 1; fi
grep -q "folder $dir/none does not exist" "$dir/err"
echo ok
