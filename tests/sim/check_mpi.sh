#!/usr/bin/env bash
# A package distributed over two MPI processes (mpirun -n 2) gives the one-process run: the same
# report and JSON, apart from the speed figures. Also ARIES with random bypass segments and
# 10-cycle links, mixed with threads; and refusals that name what is allowed.
set -euo pipefail
. "$(dirname "$0")/lib_fail.sh"
aries=$1
mpirun=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# One machine: Open MPI starts local ranks itself, but refuses to start at all when its remote
# agent (ssh) is missing, as on a minimal container; `false` stands in for it.
export OMPI_MCA_plm_rsh_agent=${OMPI_MCA_plm_rsh_agent:-false}
mpi=("$mpirun" --allow-run-as-root --oversubscribe -n 2)

compare() {  # label, then the run's arguments
  local label=$1
  shift
  "$aries" run "$@" --json "$work/one.json" > "$work/one.txt"
  "${mpi[@]}" "$aries" run "$@" --json "$work/two.json" > "$work/two.txt"
  grep -q "all flits delivered, checked yes" "$work/two.txt"
  grep -q "2 ranks x" "$work/two.txt"
  diff <(grep -v "^  speed" "$work/one.txt") <(grep -v "^  speed" "$work/two.txt")
  python3 - "$work/one.json" "$work/two.json" "$label" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
timing = {"seconds", "cycles_per_second", "maxrss_kb", "threads", "ranks"}
ra, rb = a["result"]["runs"][0], b["result"]["runs"][0]
assert rb["ranks"] == 2 and ra["ranks"] == 1, (ra["ranks"], rb["ranks"])
for k in ra:
    if k not in timing:
        assert ra[k] == rb[k], (sys.argv[3], k, ra[k], rb[k])
assert ra["flits"]["created"] > 1000 and ra["flits"]["created"] == rb["flits"]["ejected"]
print(sys.argv[3], "ok:", ra["flits"]["created"], "flits,", len(ra["link_utilisation"]), "links")
PY
}

compare "mesh 8x8, 1-cycle links" --set package.topology=mesh --set package.k=8 \
  --set package.link_latency=1 --set traffic.rate=0.3 --set sim.kernel=loop --set sim.threads=1 \
  --set sim.warmup=200 --set sim.measure=800
compare "aries 6x6 random bypass, 2 threads per rank" --set package.k=6 --set package.bypass=random \
  --set traffic.rate=0.2 --set traffic.sink_accept=0.7 --set sim.kernel=loop --set sim.threads=2 \
  --set sim.warmup=200 --set sim.measure=800

# Refused under mpirun, naming what is allowed; rank 0 says it once.
if "${mpi[@]}" "$aries" run --set sim.kernel=systemc > /dev/null 2> "$work/e1.txt"; then exit 1; fi
grep -q "sim.kernel = systemc: ranks (2 under mpirun) step with sim.kernel = loop" "$work/e1.txt"
if "${mpi[@]}" "$aries" run --set sim.kernel=loop --set package.k=2 --set package.topology=mesh --trace "$work/w.fst" > /dev/null 2> "$work/e2.txt"; then exit 1; fi
grep -q "waveforms of a package distributed over ranks" "$work/e2.txt"
if "${mpi[@]}" "$aries" keys > /dev/null 2> "$work/e3.txt"; then exit 1; fi
grep -q "aries keys under mpirun (2 ranks): only \`run\` and \`sweep\` run distributed" "$work/e3.txt"
echo "mpi ok"
