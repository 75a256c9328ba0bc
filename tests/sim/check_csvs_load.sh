#!/usr/bin/env bash
# Every CSV the commands write loads with a plain pandas.read_csv (no comment lines inside: the
# provenance is beside each, in FILE.provenance.json, which names the command that made it),
# and so does the shipped cost file.
# Usage: check_csvs_load.sh ARIES SOURCE_DIR
set -euo pipefail
. "$(dirname "$0")/lib_fail.sh"
aries="$1" src="$2"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
"$aries" run -k 2 --measure 300 --csv run.csv --packet-log log.csv > /dev/null
"$aries" sweep -k 2 --rates 0.1,0.2 --measure 300 --csv sweep.csv > /dev/null
"$aries" coll -k 2 --size 1K --energy-csv energy.csv > /dev/null
"$aries" coll-sweep -k 2 --algos ring --topologies mesh --sizes 64,1K --csv costs.csv > /dev/null
"$aries" coll-sweep -k 2 --algos tree --topologies mesh --sizes 64 --jobs 2 --csv costs.csv > /dev/null 2>&1
"$aries" train --timeline timeline.csv > /dev/null
"$aries" table1 --csv table1.csv > /dev/null
"$aries" fig9 -k 4 --csv fig9.csv > /dev/null
"$aries" fig10 -k 4 --csv fig10.csv > /dev/null
"$aries" fig11 -k 4 --csv fig11.csv > /dev/null
/usr/bin/python3 -c "import pandas" 2> /dev/null || { echo "FAIL: Debian's python3-pandas is missing (bash cmake/setup-debian.sh installs it)"; exit 1; }
/usr/bin/python3 - "$src/collectives/data/collective_costs.csv" *.csv <<'PY'
import json, os, sys
import pandas
for f in sys.argv[1:]:
    df = pandas.read_csv(f)
    assert len(df) > 0, f"{f}: no rows"
    assert not any(str(c).startswith("#") for c in df.columns), f"{f}: columns {list(df.columns)[:3]}"
    side = json.load(open(f + ".provenance.json"))
    if os.path.basename(f) != "collective_costs.csv":  # the shipped file's sweeps are notes
        assert side["provenance"]["command"].startswith("aries "), (f, side["provenance"])
    print(f"{os.path.basename(f)}: {len(df)} rows, {len(df.columns)} columns")
PY
echo "PASS: every CSV loads with a plain pandas.read_csv"
