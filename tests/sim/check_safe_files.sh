#!/usr/bin/env bash
# Nothing lost, nothing destroyed: outputs that name a device, a link, a FIFO, an input or
# another output are refused before the run and left as they were; a write that fails (a file
# size limit standing in for a full disk) is an error naming the file, the path unchanged;
# inputs that are devices, FIFOs or folders are refused at once; failures read as failures.
set -euo pipefail
. "$(dirname "$0")/lib_fail.sh"
aries=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
short=(--set sim.measure=300 --set sim.warmup=100)

# expect_refusal STATUS PATTERN -- ARGS: aries ARGS exits STATUS with PATTERN on stderr, and
# prints no run (the refusal comes before it).
expect_refusal() {
  local want=$1 pattern=$2
  shift 3
  local rc=0
  timeout 60 "$aries" "$@" > out.txt 2> err.txt || rc=$?
  if [ "$rc" != "$want" ] || ! grep -qF -- "$pattern" err.txt; then
    echo "FAIL: aries $*: expected status $want and '$pattern'; got status $rc:" >&2
    cat err.txt >&2
    return 1
  fi
  if grep -q "packet latency\|cycles .*algbw" out.txt; then
    echo "FAIL: aries $*: refused only after the run" >&2
    return 1
  fi
}

# 1. A device at the output path (a copy of /dev/full made here; the real one when this user
#    may not make device nodes: it is only looked at) is refused and stays a device.
dev=$PWD/full
mknod -m666 "$dev" c 1 7 2> /dev/null || dev=/dev/full
expect_refusal 2 "--trace $dev: is a device, not a regular file" -- run "${short[@]}" --trace "$dev"
test -c "$dev"
expect_refusal 2 "--packet-log $dev: is a device" -- run "${short[@]}" --packet-log "$dev"
# A symbolic link and a FIFO: refused, the link and its target untouched, no hang.
echo target > target.txt
ln -s target.txt link.json
expect_refusal 2 "--json link.json: is a symbolic link" -- run "${short[@]}" --json link.json
test -L link.json && grep -qx target target.txt
mkfifo pipe.csv
expect_refusal 2 "--csv pipe.csv: is a FIFO" -- run "${short[@]}" --csv pipe.csv
# A folder where root can "write" but nothing can be created.
expect_refusal 2 "--json /proc/x.json: cannot create a file in the folder /proc" -- \
  run "${short[@]}" --json /proc/x.json

# 2. An output that is an input of the same run, or another output: refused by name.
printf 'sim.measure = 300\n' > j.cfg
expect_refusal 2 "--json j.cfg: is the run's input --config j.cfg" -- run --config j.cfg --json j.cfg
grep -qx 'sim.measure = 300' j.cfg
expect_refusal 2 "--json x.out and --csv x.out: the same file" -- \
  run "${short[@]}" --json x.out --csv x.out
printf '0 0 1 4\n150 1 2 4\n' > t.trace
expect_refusal 2 "--csv ./t.trace: is the run's input traffic.trace t.trace" -- \
  run "${short[@]}" --set traffic.pattern=trace --set traffic.trace=t.trace --csv ./t.trace
printf 'link:0-1\n' > f.txt
expect_refusal 2 "is the run's input package.fault_file f.txt" -- \
  run "${short[@]}" --set package.fault_file=f.txt --json f.txt
"$aries" coll -k 2 --size 1K --outputs "in{node}.bin" > /dev/null
expect_refusal 2 "--json in3.bin: is the run's input --inputs in3.bin" -- \
  coll -k 2 --size 1K --inputs "in{node}.bin" --json in3.bin
cp "$here/../../collectives/data/collective_costs.csv" costs.csv
expect_refusal 2 "--json costs.csv: is the run's input coll.costs costs.csv" -- \
  coll --algo auto --size 1K --costs costs.csv --json costs.csv
if ls -A | grep -q '^\.aries-'; then echo "FAIL: a temporary was left" >&2; exit 1; fi

# 3. A write that fails is an error naming the file; the path keeps what it held.
echo before > log.csv
rc=0
(ulimit -f 4; "$aries" run "${short[@]}" --packet-log log.csv > out.txt 2> err.txt) || rc=$?
test "$rc" != 0
grep -q -- "--packet-log log.csv: writing failed (File too large); the path is unchanged" err.txt
grep -qx before log.csv
if ls -A | grep -q '^\.aries-'; then echo "FAIL: a temporary was left" >&2; exit 1; fi
rc=0
(ulimit -f 1; "$aries" sweep --set sweep.rates=0.1 "${short[@]}" --json big.json > out.txt 2> err.txt) || rc=$?
test "$rc" != 0 && grep -q -- "--json big.json: writing failed" err.txt && test ! -e big.json
# A run stopped by a signal leaves neither its outputs nor their temporaries.
"$aries" run --set sim.measure=100000000 --set sim.model=fast --packet-log stopped.csv \
  > /dev/null 2>&1 &
pid=$!
for _ in $(seq 50); do ls -A | grep -q '^\.aries-' && break; sleep 0.1; done
ls -A | grep -q '^\.aries-[0-9]*-stopped.csv'  # being written
kill -TERM "$pid"
wait "$pid" || true
if ls -A | grep -q '^\.aries-\|^stopped.csv'; then echo "FAIL: a stopped run left files" >&2; exit 1; fi

# 4. Inputs that would hang or exhaust memory are refused at once.
for n in 0 1 2 3; do ln -s /dev/zero zero$n.npy; done
expect_refusal 2 "--inputs 'zero0.npy': is a device, not a regular file" -- \
  coll -k 2 --size 1K --inputs "zero{node}.npy"
expect_refusal 2 "train.workload '/dev/zero': is a device" -- train --workload /dev/zero
expect_refusal 2 "coll.costs '/dev/zero': is a device" -- coll --algo auto --costs /dev/zero
expect_refusal 2 "--tech '$PWD': is a folder" -- coll --size 1K --tech "$PWD"
mkfifo trace.fifo
expect_refusal 2 "traffic.trace 'trace.fifo': is a FIFO" -- \
  run --set traffic.pattern=trace --set traffic.trace=trace.fifo
head -c 2000000 /dev/zero > big.cfg
expect_refusal 2 "config 'big.cfg': 2000000 bytes, larger than the 1 MB" -- run --config big.cfg
printf 'bad\x01\x02key = 1\n' > bin.cfg
expect_refusal 2 'unknown key '"'"'bad\x01\x02key'"'" -- run --config bin.cfg
python3 -c "import sys; sys.stdout.buffer.write(bytes(b for b in range(1, 32) if b != 10) * 30000 + b' = 1\n')" > bin.tech
rc=0
"$aries" coll --size 1K --tech bin.tech 2> err.txt || rc=$?
test "$rc" = 2
python3 - err.txt <<'PY'
import sys
err = open(sys.argv[1], "rb").read()
assert all(b >= 0x20 or b == 0x0a for b in err), err[:200]  # control bytes escaped
assert max(len(l) for l in err.split(b"\n")) < 500, len(err)  # and the 900 KB line cut
PY

# 5. Keys honest about their range.
for rate in -0 0 0x1p-2 1e-1 inf 1.5; do
  expect_refusal 2 "traffic.rate = '$rate': allowed" -- run --set traffic.rate=$rate
done
expect_refusal 2 "0.1 is given twice" -- sweep --set sweep.rates=0.1,0.2,0.1
expect_refusal 2 "aries sweep with traffic.pattern = trace" -- \
  sweep --set traffic.pattern=trace --set traffic.trace=t.trace
expect_refusal 2 "cycle 99999999999999999999 is out of range" -- \
  run --set package.faults=link:0-1@99999999999999999999
expect_refusal 2 "17: allowed 2 .. 16 for a collective" -- coll -k 17 --size 1K

# 6. Failures read as failures. The drain limit: packets in flight, none lost.
"$aries" run --set traffic.rate=0.9 --set sim.drain_limit=0 "${short[@]}" > drain.txt || true
grep -q "stopped by the drain limit .* packets still in flight when sim.drain_limit = 0" drain.txt
# A slow sink: the watchdog's minimum counts its waits, so the smallest allowed is no false STUCK.
expect_refusal 2 "30 / traffic.sink_accept = 3000 cycles" -- \
  run --set traffic.pattern=hotspot --set traffic.sink_accept=0.01 --set sim.watchdog=24
"$aries" run --set traffic.pattern=hotspot --set traffic.sink_accept=0.01 --set sim.watchdog=3000 \
  "${short[@]}" --set sim.model=fast > sink.txt || true
! grep -q STUCK sink.txt
# A fault that never strikes in the run leaves the routing, and so the results, as they were.
"$aries" run "${short[@]}" --set sim.model=fast --json plain.json > /dev/null
"$aries" run "${short[@]}" --set sim.model=fast --set package.faults=link:5-6@100000 \
  --json late.json > late.txt
grep -q "none from reset" late.txt
python3 - plain.json late.json <<'PY'
import json, sys
a, b = (json.load(open(p))["result"]["runs"][0] for p in sys.argv[1:])
assert a["latency"] == b["latency"], (a["latency"], b["latency"])
PY
echo "safe files ok"
