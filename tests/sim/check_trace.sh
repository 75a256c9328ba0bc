#!/usr/bin/env bash
# `aries --trace` writes an FST of chosen nodes and a GTKWave save file grouped per node and
# port, and GTKWave (headless, under Xvfb) finds every signal the save file lists in the FST.
set -euo pipefail
aries=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$aries" --set package.k=2 --set sim.warmup=20 --set sim.measure=200 \
  --trace "$work/run.fst" --trace-nodes 0,3 --trace-from 10 --trace-to 150 > /dev/null
test -s "$work/run.fst"
listed=$(grep -c '^n[0-9]*_[0-9]*\.' "$work/run.gtkw")
cat > "$work/count.tcl" <<'TCL'
set n 0
foreach s [gtkwave::getDisplayedSignals] { if {[regexp {^n[0-9]+_[0-9]+\.} $s]} { incr n } }
puts "ARIES_GTKW_SIGNALS $n"
gtkwave::/File/Quit
TCL
found=$(timeout 120 xvfb-run -a gtkwave -S "$work/count.tcl" "$work/run.gtkw" 2>&1 |
        sed -n 's/^ARIES_GTKW_SIGNALS //p')
echo "save file lists $listed signals, GTKWave found ${found:-none}"
[ "$listed" -gt 100 ] && [ "$found" = "$listed" ]
