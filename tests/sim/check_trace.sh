#!/usr/bin/env bash
# `aries --trace` writes an FST of chosen nodes (1 ns per cycle, the clock traced) and a GTKWave
# save file grouped per node and port, with each port's flits decoded by the translate filter
# process and the VC fill levels named per VC; GTKWave (headless, under Xvfb) finds every
# signal the save file lists. --packet-log accounts for every flit (every injection ejected,
# every hop arriving later); the filter decodes each logged header as the package did;
# --trace-packet traces one packet's path.
set -euo pipefail
. "$(dirname "$0")/lib_fail.sh"
aries=$1
work=$(mktemp -d)
gtkw_listed() {  # the signals a save file lists (GTKWave displays each bit a "#{}" joins)
  awk '/^\+\{[^}]*\} node[0-9]*\./ || /^node[0-9]*\./ { n++ } /^#\{/ { n += NF - 1 } END { print n }' "$1"
}
trap 'rm -rf "$work"' EXIT
filter=$(dirname "$0")/../../sim/tools/flit_filter.py
gtkw_count() {  # save file: signals GTKWave displays (it must find each in the FST)
  cat > "$work/count.tcl" <<'TCL'
set n 0
foreach s [gtkwave::getDisplayedSignals] { if {[regexp {^node[0-9]+\.} $s]} { incr n } }
puts "ARIES_GTKW_SIGNALS $n"
gtkwave::/File/Quit
TCL
  timeout 120 xvfb-run -a gtkwave -S "$work/count.tcl" "$1" 2>&1 | sed -n 's/^ARIES_GTKW_SIGNALS //p'
}
"$aries" --set package.k=2 --set sim.warmup=20 --set sim.measure=200 \
  --trace "$work/run.fst" --trace-nodes 0,3 --trace-from 10 --trace-to 150 > /dev/null
test -s "$work/run.fst"
listed=$(gtkw_listed "$work/run.gtkw")
found=$(gtkw_count "$work/run.gtkw")
echo "save file lists $listed signals, GTKWave found ${found:-none}"
[ "$listed" -gt 100 ]
[ "$found" = "$listed" ]
grep -q '^node0\.clk_i$' "$work/run.gtkw"                         # the clock
grep -q '^+{node3\.in1\.vc2_fill} ' "$work/run.gtkw"               # VCs named
grep -q '^\^>1 .*run\.flit_filter$' "$work/run.gtkw"              # flits decoded
grep -q '^#{node0\.out1\.flit} node0\..*out_valid_o (448)' "$work/run.gtkw"  # shown while valid
grep -q '^\[timestart\] 10000$' "$work/run.gtkw"                  # 1 ns per cycle
[ -x "$work/run.flit_filter" ]
# The packet log: every flit injected is ejected; every hop arrives after it leaves; the
# filter's decoding of each header equals the package's (src, dst, VC, head, tail).
"$aries" --set package.k=4 --set sim.warmup=50 --set sim.measure=300 \
  --packet-log "$work/log.csv" > "$work/out.txt"
python3 - "$work/log.csv" "$filter" <<'PY'
import csv, subprocess, sys
lines = open(sys.argv[1]).read().splitlines()
assert lines[0].startswith("event,") or not lines[0].startswith("#"), lines[0]
rows = list(csv.DictReader(lines))
inj = [r for r in rows if r["event"] == "inject"]
ej = [r for r in rows if r["event"] == "eject"]
hops = [r for r in rows if r["event"] == "hop"]
assert inj and len(inj) == len(ej), (len(inj), len(ej))
assert sorted((r["lane0"], r["lane1"]) for r in inj) == sorted((r["lane0"], r["lane1"]) for r in ej)
assert all(int(r["arrive_cycle"]) > int(r["cycle"]) for r in hops)
sample = rows[:: max(1, len(rows) // 50)]
out = subprocess.run([sys.executable, sys.argv[2], "--vcs", "4", "--k", "4", "--test"] +
                     [hex((int(r["lane1"]) << 64) | (int(r["lane0"]) << 32) | int(r["header"], 16))
                      for r in sample], capture_output=True, text=True, check=True).stdout.split("\n")
for r, text in zip(sample, out):
    mark = ("H" if r["head"] == "1" else "") + ("T" if r["tail"] == "1" else "") or "-"
    want = f"{mark}{r['src']}>{r['dst']} vc{r['vc']} lane0={r['lane0']}"
    assert text.startswith(want), (text, want)
print(f"packet log: {len(inj)} flits injected and ejected, {len(hops)} hops; "
      f"{len(sample)} headers decoded alike")
PY
# One packet's path: its nodes only, from a little before its injection.
"$aries" --set package.k=4 --set sim.warmup=50 --set sim.measure=300 --trace-packet 7 \
  --trace "$work/p7.fst" > "$work/p7.txt"
grep -q "packet 7: inject at node[0-9]* (cycle [0-9]*)," "$work/p7.txt"
path_nodes=$(grep "packet 7:" "$work/p7.txt" | grep -o 'node[0-9]\+' | sort -u | wc -l)
traced=$(grep '^-hop [0-9]*: node[0-9]*$' "$work/p7.gtkw" | sort -u | wc -l)
[ "$traced" -eq "$path_nodes" ] || { echo "traced $traced nodes, path has $path_nodes"; exit 1; }
found=$(gtkw_count "$work/p7.gtkw")
listed=$(gtkw_listed "$work/p7.gtkw")
[ "$found" = "$listed" ] || { echo "p7: listed $listed, GTKWave found $found"; exit 1; }
# A long packet: the window runs to 10 cycles after its tail's ejection (the packet log's), not
# its head's; the save file opens from another directory (its FST named by absolute path).
(cd "$work" && "$aries" --set package.k=4 --set sim.warmup=50 --set sim.measure=300 \
  --set traffic.packet_len=16 --trace-packet 5 --trace p5.fst --packet-log p5.csv > p5.txt)
tail_eject=$(awk -F, '$2 == "eject" && $10 == 1 && $(NF - 2) == 5 { print $1 }' "$work/p5.csv")
last=$(fst2vcd "$work/p5.fst" | grep '^#' | tail -1 | tr -d '#')
[ -n "$tail_eject" ] && [ "$last" -ge $(((tail_eject + 9) * 1000)) ] ||
  { echo "p5: the waveform ends at $last ps, the tail left at cycle $tail_eject"; exit 1; }
(cd / && [ "$(gtkw_count "$work/p5.gtkw")" -gt 0 ]) || { echo "p5.gtkw does not open from /"; exit 1; }
# The package's own register writes (here the routes around a dead link) are in the waveform:
# the traced node's config bus carries requests.
"$aries" --set package.k=4 --set sim.warmup=50 --set sim.measure=100 --set package.faults=link:5-6 \
  --trace "$work/f.fst" --trace-nodes 5 > /dev/null
fst2vcd "$work/f.fst" > "$work/f.vcd"
python3 - "$work/f.vcd" <<'PY'
import re, sys
ids, rises = set(), 0
for line in open(sys.argv[1]):
    m = re.match(r"\$var \S+ 1 (\S+) cfg_req_i \$end", line.strip())
    if m:
        ids.add(m.group(1))
    elif line.startswith("1") and line[1:].strip() in ids:
        rises += 1
assert ids and rises > 0, f"node5 cfg_req_i: ids {ids}, {rises} requests traced"
PY
# The waveform starts at cycle 0, as the nodes leave reset: the package's CTRL write to each
# router is on its config bus at 0 ns.
"$aries" --set package.k=2 --set sim.warmup=20 --set sim.measure=50 --trace "$work/z.fst" \
  --trace-nodes 3 > /dev/null
fst2vcd "$work/z.fst" > "$work/z.vcd"
python3 - "$work/z.vcd" <<'PY'
import re, sys
ids, t, first, req_at_0 = set(), None, None, False
for line in open(sys.argv[1]):
    line = line.strip()
    m = re.match(r"\$var \S+ 1 (\S+) cfg_req_i \$end", line)
    if m:
        ids.add(m.group(1))
    elif line.startswith("#"):
        t = int(line[1:])
        first = t if first is None else first
    elif line.startswith("1") and line[1:] in ids and t == 0:
        req_at_0 = True
assert first == 0, f"the waveform starts at {first} ps, not 0"
assert ids and req_at_0, f"node3 cfg_req_i ({ids}) not raised at 0 ns (the CTRL write)"
PY
# A run refused once the package is built (faults that cut a node off) leaves no waveform files.
if "$aries" --set package.k=2 --set package.topology=mesh \
  --set "package.faults=link:x(0,0),link:y(0,0)" --trace "$work/cut.fst" > /dev/null 2> "$work/e"; then
  exit 1
fi
grep -q "no route around them" "$work/e"
! ls "$work"/cut.* > /dev/null 2>&1 || { echo "a refused run left $(ls "$work"/cut.*)"; exit 1; }
if "$aries" --set package.k=2 --trace "$work/d.fst" --trace-nodes 0,0 > /dev/null 2> "$work/e"; then exit 1; fi
grep -q -- "--trace-nodes 0,0: '0' given twice" "$work/e"
if "$aries" --trace-packet 7 > /dev/null 2> "$work/e"; then exit 1; fi
grep -q -- "--trace-packet ID needs --trace FILE.fst" "$work/e"
if "$aries" --set sim.measure=100 --trace-packet 99999 --trace "$work/x.fst" > /dev/null 2> "$work/e"; then exit 1; fi
grep -q "no packet with that id was injected" "$work/e"
echo ok
