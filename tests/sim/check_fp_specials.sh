#!/usr/bin/env bash
# coll --verify on fp32 inputs a tolerance around a double-precision sum fails: subnormals
# (read as zeros by the engine), infinities, NaNs, signed zeros, huge values that overflow, on
# 2x2 with 1009 elements (no flit or node count divides it), for the endpoint algorithms (ring,
# dbt) and the in-network tree, every reduction. The golden is the program executed with the
# engine's arithmetic in the hardware's order, so every correct run verifies bit for bit; the
# results are also checked here against the engine's rules (a NaN input gives the canonical NaN).
set -euo pipefail
. "$(dirname "$0")/lib_fail.sh"
aries="$1"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - "$dir" <<'PY'
import random, struct, sys
d = sys.argv[1]
random.seed(5)
special = [0x00000001, 0x807FFFFF, 0x7F800000, 0xFF800000, 0x7FC00001, 0x80000000, 0x00000000,
           0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000]
n = 1009
for node in range(4):
    vals = []
    for i in range(n):
        if i % 7 == 0:
            vals.append(special[(i // 7 + node) % len(special)])
        elif i % 11 == 0:  # subnormal-only elements on every node
            vals.append(random.randrange(1, 0x007FFFFF) | (0x80000000 if node % 2 else 0))
        else:
            vals.append(struct.unpack("<I", struct.pack("<f", random.uniform(-1e3, 1e3)))[0])
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % n
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(f"{d}/in{node}.npy", "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack(f"<{n}I", *vals))
PY
runs=0
for algo in ring dbt tree; do
  for op in sum prod min max; do
    "$aries" coll --topology mesh -k 2 --algo $algo --type fp32 --op $op --size 4036 \
      --inputs "$dir/in{node}.npy" --outputs "$dir/out_${algo}_${op}_{node}.npy" --verify \
      > "$dir/log" || { cat "$dir/log"; exit 1; }
    grep -q "every element of every node matches" "$dir/log" || { cat "$dir/log"; exit 1; }
    runs=$((runs + 1))
  done
done
python3 - "$dir" <<'PY'
import struct, sys
d = sys.argv[1]
def load(p):
    raw = open(p, "rb").read()
    h = struct.unpack("<H", raw[8:10])[0]
    return list(struct.unpack(f"<{(len(raw) - 10 - h) // 4}I", raw[10 + h:]))
for algo in ("ring", "dbt", "tree"):
    for op in ("sum", "max"):
        out = load(f"{d}/out_{algo}_{op}_0.npy")
        ins = [load(f"{d}/in{n}.npy") for n in range(4)]
        for i in range(0, len(out), 7):  # special elements: a NaN input gives the canonical NaN
            if any((x & 0x7F800000) == 0x7F800000 and (x & 0x7FFFFF) for x in (v[i] for v in ins)):
                assert out[i] == 0x7FC00000, (algo, op, i, hex(out[i]))
print("NaN inputs give the canonical NaN on every algorithm")
PY
echo "fp32 specials: $runs runs verified bit for bit"
