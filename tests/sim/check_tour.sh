#!/usr/bin/env bash
# `aries` with no arguments: part 1 runs every family's all-reduce on 4x4 ARIES beside the
# mesh at 1 KB and 64 KB, every run verified; part 2 is the point-to-point run, introduced with
# what it leaves idle. With any option and no subcommand only the point-to-point run prints.
set -euo pipefail
. "$(dirname "$0")/lib_fail.sh"
aries="$1"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$aries" > "$dir/o" 2>&1 || { cat "$dir/o"; exit 1; }
fail() { echo "$1"; cat "$dir/o"; exit 1; }
grep -q "part 1 of 2: all-reduce on a 4x4 ARIES package beside a 4x4 mesh" "$dir/o" || fail "no part 1"
grep -q "every element of every run verified: yes" "$dir/o" || fail "not verified"
# Eight rows (four families x two sizes), each verified.
[ "$(grep -cE '^\| (1K|64K) \| .* \| yes \|$' "$dir/o")" = 8 ] || fail "not eight verified rows"
# The ring family at 1 KB: ARIES's hierarchical ring over bypass segments beats the mesh ring.
row=$(grep -E '^\| 1K \| ring \|' "$dir/o")
echo "$row" | grep -q "| aries_lt L=2 |" || fail "ring row: $row"
speedup=$(echo "$row" | awk -F'|' '{gsub(/[ x]/, "", $9); print $9}')
segments=$(echo "$row" | awk -F'|' '{gsub(/ /, "", $8); print $8}')
awk -v s="$speedup" 'BEGIN { exit !(s > 1.5) }' || fail "ring 1K speed-up $speedup"
[ "$segments" -gt 0 ] || fail "aries_lt uses no segments: $segments"
grep -q "part 2 of 2: point-to-point traffic" "$dir/o" || fail "no part 2"
grep -q "bypass segments, port muxes and collective engines stay idle" "$dir/o" || fail "no idle note"
grep -q "all flits delivered, checked *yes" "$dir/o" || fail "point-to-point not checked"
# With an option: the point-to-point run alone.
"$aries" --set sim.measure=500 > "$dir/p" 2>&1
if grep -q "part 1 of 2" "$dir/p"; then echo "the tour ran with an option"; exit 1; fi
grep -q "all flits delivered, checked *yes" "$dir/p" || { cat "$dir/p"; exit 1; }
