#!/usr/bin/env bash
# The flit soak: runs `aries run` on the fast node model (the RTL's cycles, proven pin by pin)
# over every topology, K = 4 and 8, 1- and 10-cycle links, static and dynamic VC allocation,
# random ARIES bypass settings, loads up to and past saturation and back-pressure at the sinks,
# a new seed each run, until the flit-hops checked reach the target. Every run must deliver
# every flit exactly once, in order, with its payload intact (the network scoreboard) and drain
# completely (injection stops at the window's end; the drain limit is generous). Prints the
# flit-hops checked, the runs and the time.
#
#   bash sim/tools/soak.sh [BUILD_DIR] [TARGET_FLIT_HOPS] [JOBS]     (defaults: build 1e9 2)
set -euo pipefail
build=${1:-build}
target=${2:-1000000000}
jobs=${3:-2}
aries="$(cd "$build" && pwd)/sim/aries"
[ -x "$aries" ] || { echo "no $aries (build first)"; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
configs=()
for topo in mesh torus aries fbfly; do
  for k in 4 8; do
    for lat in 1 10; do
      for rate in 0.3 0.45 0.7; do
        for sink in 1 0.5; do
          extra=""
          [ "$topo" = aries ] && extra="--set package.bypass=random"
          va=static; [ $(( ${#configs[@]} % 2 )) -eq 1 ] && va=dynamic
          c="--set package.topology=$topo --set package.k=$k --set package.link_latency=$lat --set traffic.rate=$rate --set traffic.sink_accept=$sink --set package.vc_alloc=$va $extra"
          configs+=("${c% }")  # (no trailing blank: xargs -L would join the next line)
        done
      done
    done
  done
done
# One run: its report and JSON in the work directory, named by its seed, with its arguments.
cat > "$work/one.sh" <<'ONE'
#!/usr/bin/env bash
aries=$1; work=$2; seed=$3; shift 3
echo "$*" > "$work/a$seed"
"$aries" run "$@" --set sim.model=fast --set sim.payload=full --set sim.kernel=loop --set sim.threads=1 \
  --set sim.seed=$seed --set sim.warmup=500 --set sim.measure=4000 --set sim.drain_limit=400000 \
  --json "$work/r$seed.json" > "$work/r$seed.txt" 2>&1 || true
ONE
# A batch's runs checked by one Python process (its start-up costs more than a small run): per
# run "OK flit_hops flits cycles" or "FAIL reason".
cat > "$work/check.py" <<'PY'
import json, sys
w = sys.argv[1] + "/"
for seed in sys.argv[2:]:
    args = open(w + "a" + seed).read().strip()
    try:
        r = json.load(open(w + "r" + seed + ".json"))["result"]["runs"][0]
    except Exception:
        print("FAIL", args, open(w + "r" + seed + ".txt").read().replace("\n", " | ")[:400])
        continue
    f = r["flits"]
    ok = not r["errors"] and not r["stuck"] and f["created"] == f["ejected"] and f["packets_outstanding"] == 0
    print("OK" if ok else "FAIL", r["flit_hops"], f["created"], r["cycles"],
          "" if ok else f"{args} errors={r['errors'][:2]} stuck={r['stuck']} flits={f}")
PY
total=0 runs=0 flits=0 cycles=0 seed=1
while [ "$total" -lt "$target" ]; do
  : > "$work/batch"
  seeds=()
  for ((b = 0; b < 8 * jobs; b++)); do
    echo "$seed ${configs[$(( (seed - 1) % ${#configs[@]} ))]}" >> "$work/batch"
    seeds+=("$seed")
    seed=$((seed + 1))
  done
  # (Each run writes its own files: parallel runs never interleave their lines.)
  xargs -P "$jobs" -L 1 bash "$work/one.sh" "$aries" "$work" < "$work/batch"
  while read -r status hops created cyc rest; do
    if [ "$status" != OK ]; then echo "soak FAILED: $status $hops $created $cyc $rest"; exit 1; fi
    total=$((total + hops)); flits=$((flits + created)); cycles=$((cycles + cyc)); runs=$((runs + 1))
  done < <(python3 "$work/check.py" "$work" "${seeds[@]}")
  rm -f "$work"/a* "$work"/r*
  echo "  $runs runs, $total flit-hops, $(( $(date +%s) - start )) s" >&2
done
echo "soak: $total flit-hops checked in $runs runs ($flits flits over $cycles cycles; ${#configs[@]} configurations: every topology, K 4 and 8, 1- and 10-cycle links, static and dynamic VCs, random bypass, loads 0.3-0.7, sinks accepting every cycle or half of them); every flit delivered once, in order, intact; $(( $(date +%s) - start )) s"
