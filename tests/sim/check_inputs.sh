#!/usr/bin/env bash
# Hostile inputs are refused with a reason, before anything runs (issue: the holes found when the
# CLI was tried): unreadable traces and configurations, negative numbers that would wrap,
# a trace whose packets all fall outside the measurement window, C-style integer literals,
# duplicate keys, coll sizes past the bound, an empty trace window, outputs in missing folders.
set -euo pipefail
. "$(dirname "$0")/lib_fail.sh"
aries=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
refused() {  # expected message, then the command's arguments
  local want=$1
  shift
  if "$aries" "$@" > "$dir/o" 2> "$dir/e"; then echo "accepted: $*"; exit 1; fi
  grep -qF -- "$want" "$dir/e" || { echo "expected '$want' for: $*"; cat "$dir/e"; exit 1; }
}
T="--set traffic.pattern=trace"
refused "traffic.trace '$dir': is a folder, not a regular file" $T --set traffic.trace="$dir"
refused "traffic.trace '/dev/zero': is a device, not a regular file" $T --set traffic.trace=/dev/zero
refused "config '/dev/zero': is a device, not a regular file" --config /dev/zero
printf '5 0 1 4\n-3 1 2 4\n' > "$dir/neg.tr"
refused "neg.tr:2: expected 'cycle src dst flits' (decimal numbers >= 0)" $T --set traffic.trace="$dir/neg.tr"
printf '# nothing\n\n' > "$dir/empty.tr"
refused "empty.tr: no packets in it" $T --set traffic.trace="$dir/empty.tr"
printf '5 0 1 4\n10 1 2 4\n' > "$dir/warm.tr"
refused "none of its 2 packets is injected in the measurement window, cycles 1000 .. 5999 (2 in the warm-up)" \
  $T --set traffic.trace="$dir/warm.tr"
"$aries" $T --set traffic.trace="$dir/warm.tr" --set sim.warmup=0 --set sim.measure=100 | grep -q "checked *yes"
refused "package.k = '010'" --set package.k=010 --set package.topology=fbfly  # ten: past fbfly's 8
refused "package.k = '0x4': allowed" --set package.k=0x4
# A pattern's own keys for another pattern, random bypass without tracks and a run longer than
# the counters allow are refused, not ignored or cut short.
refused "traffic.hotspot_share = '0.5': allowed only with traffic.pattern = hotspot (the pattern is uniform)" \
  --set traffic.hotspot_share=0.5
refused "traffic.trace = '/etc/passwd': allowed only with traffic.pattern = trace (the pattern is uniform)" \
  --set traffic.trace=/etc/passwd
refused "package.bypass = random needs bypass tracks: package.tracks = 1 or 2" \
  --set package.tracks=0 --set package.bypass=random
refused "sim.warmup = '1125899906842624': allowed 0 .. 2^40" --set sim.warmup=1125899906842624
refused "sim.skip_idle = '1': allowed true, false" --set package.k=2 --set sim.skip_idle=1
# A waveform window after the run's end is said (the end is known only after the run).
"$aries" --set package.k=2 --set sim.warmup=50 --set sim.measure=100 --trace-from 100000 \
  --trace "$dir/late.fst" > "$dir/o" 2> "$dir/e"
grep -qF "warning: --trace-from 100000: the run ended at cycle" "$dir/e" || { cat "$dir/e"; exit 1; }
# Keys of other patterns in a configuration file are not the run's to refuse (the file may serve
# other runs); given on the command line they are.
printf 'traffic.hotspot_share = 0.5\ntraffic.hotspot = 1\n' > "$dir/shared.cfg"
"$aries" --config "$dir/shared.cfg" --set package.k=2 --set sim.warmup=50 --set sim.measure=100 \
  > "$dir/o" 2>&1 || { cat "$dir/o"; exit 1; }
refused "--json '': allowed a file name" --set package.k=2 --json ""  # (would write nothing)
refused "track 0 does not exist: the package has no bypass tracks (package.tracks = 0)" \
  --set package.k=4 --set package.tracks=0 --set package.faults=switch:xtrack0.0:1
refused "package.tracks = 2: allowed 0 .. 0 (the node model, package.node, is built with NumTracks = 0" \
  --set package.k=3 --set package.node=Varies_node_fb
refused "sim.seed = '-1': allowed" --set sim.seed=-1
printf 'package.k = 4\npackage.k = 8\n' > "$dir/dup.cfg"
refused "dup.cfg:2: package.k given twice" --config "$dir/dup.cfg"
refused "coll.size = '65M': allowed" coll --set coll.size=65M
refused "--size 18446744073709551616K: allowed" coll --size 18446744073709551616K
refused "--trace-from 10 --trace-to 5: an empty window" --trace "$dir/t.fst" --trace-from 10 --trace-to 5
refused "--json $dir/none/r.json: the folder $dir/none does not exist" --json "$dir/none/r.json"
# Flits on the wires are progress: one packet across an 8x8 mesh of 1000-cycle links takes
# 14,033 cycles, most of them with no ejection anywhere (before, the 5000-cycle watchdog called
# it STUCK at cycle 5,113).
printf '0 0 63 4\n' > "$dir/one.tr"
"$aries" --set package.topology=mesh --set package.k=8 --set package.link_latency=1000 \
  --set traffic.pattern=trace --set traffic.trace="$dir/one.tr" --set sim.warmup=0 \
  --set sim.measure=100 --set sim.kernel=loop > "$dir/long.txt"
grep -q "max 14033 (1 packets)" "$dir/long.txt" || { cat "$dir/long.txt"; exit 1; }
grep -q "checked *yes" "$dir/long.txt"
echo ok
