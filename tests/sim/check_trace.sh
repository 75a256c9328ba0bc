#!/usr/bin/env bash
# `aries --trace` writes an FST and a GTKWave save file, and GTKWave (headless, under Xvfb)
# finds every signal the save file lists in the FST.
set -euo pipefail
aries=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$aries" --cycles 300 --warmup 20 --trace "$work/run.fst" > /dev/null
test -s "$work/run.fst"
listed=$(grep -c '^router\.' "$work/run.gtkw")
cat > "$work/count.tcl" <<'TCL'
set n 0
foreach s [gtkwave::getDisplayedSignals] { if {[string first "router." $s] >= 0} { incr n } }
puts "ARIES_GTKW_SIGNALS $n"
gtkwave::/File/Quit
TCL
found=$(timeout 120 xvfb-run -a gtkwave -S "$work/count.tcl" "$work/run.gtkw" 2>&1 |
        sed -n 's/^ARIES_GTKW_SIGNALS //p')
echo "save file lists $listed signals, GTKWave found ${found:-none}"
[ "$listed" -gt 50 ] && [ "$found" = "$listed" ]
