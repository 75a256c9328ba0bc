#!/usr/bin/env bash
# aries coll with per-node input files and result files: .npy inputs written here (by hand, no
# NumPy needed), an all-reduce on ARIES 2x2, every result file equal to the elementwise sum of
# the inputs; a reduce-scatter writes each node's shard only; an all-to-all-v (direct and
# 2phase) from files of its send and receive areas writes each node's received blocks; a bad
# input file is refused with its name and nothing is written.
set -euo pipefail
. "$(dirname "$0")/lib_fail.sh"
aries="$1"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - "$dir" <<'PY'
import struct, sys
d = sys.argv[1]
for node in range(4):
    vals = [(node + 1) * 1000 + i for i in range(37)]
    header = "{'descr': '<i4', 'fortran_order': False, 'shape': (37,), }"
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(f"{d}/in{node}.npy", "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack(f"<{len(vals)}i", *vals))
    with open(f"{d}/in{node}.bin", "wb") as f:
        f.write(struct.pack(f"<{len(vals)}i", *vals))
PY
"$aries" coll --topology aries -k 2 --algo ring --size 148 --inputs "$dir/in{node}.npy" \
  --outputs "$dir/out{node}.npy" --verify | tee "$dir/log"
grep -q "every element of every node matches" "$dir/log"
"$aries" coll --topology mesh -k 2 --algo ring --collective reducescatter --size 148 \
  --inputs "$dir/in{node}.bin" --outputs "$dir/rs{node}.bin" --verify > /dev/null
# {node} may name a folder per node (each node's file is checked before the run); a shared
# configuration file's plan options for other algorithms are not this run's to refuse.
mkdir -p "$dir/n0" "$dir/n1" "$dir/n2" "$dir/n3"
printf 'coll.levels = 2\ncoll.embeddings = 2\ncoll.op = max\n' > "$dir/shared.cfg"
"$aries" coll --config "$dir/shared.cfg" --topology mesh -k 2 --algo ring --collective allgather \
  --size 148 --outputs "$dir/n{node}/r.bin" > "$dir/o" 2>&1 || { cat "$dir/o"; exit 1; }
for n in 0 1 2 3; do [ -s "$dir/n$n/r.bin" ] || { echo "no n$n/r.bin"; exit 1; }; done
python3 - "$dir" <<'PY'
import struct, sys
d = sys.argv[1]
want = [sum((n + 1) * 1000 + i for n in range(4)) for i in range(37)]
for node in range(4):
    raw = open(f"{d}/out{node}.npy", "rb").read()
    assert raw[:6] == b"\x93NUMPY", "no .npy magic"
    hlen = struct.unpack("<H", raw[8:10])[0]
    assert (10 + hlen) % 64 == 0, "data not 64-byte aligned"
    got = list(struct.unpack("<37i", raw[10 + hlen:]))
    assert got == want, f"node {node}: {got[:4]} ... != {want[:4]} ..."
    # reduce-scatter: node n holds shard n of 37 elements over 4 nodes (10, 9, 9, 9)
    lens = [10, 9, 9, 9]
    off = sum(lens[:node])
    rs = open(f"{d}/rs{node}.bin", "rb").read()
    assert list(struct.unpack(f"<{lens[node]}i", rs)) == want[off:off + lens[node]], f"rs node {node}"
print("result files match the elementwise sums")
PY
# All-to-all-v from input files of the send and receive areas (10 + 7 elements here), direct and
# 2phase (which relays the diagonal pairs through a staging area past them): each result file
# holds the other nodes' blocks for it in rank order.
printf '2 3 1 4\n1 0 2 2\n3 1 1 1\n2 2 2 0\n' > "$dir/counts"
python3 - "$dir" <<'PY'
import struct, sys
d = sys.argv[1]
for node in range(4):
    with open(f"{d}/v{node}.bin", "wb") as f:
        f.write(struct.pack("<17i", *[(node + 1) * 100 + i for i in range(17)]))
PY
for algo in direct 2phase; do
  "$aries" coll --topology mesh -k 2 --collective alltoallv --algo "$algo" --counts "$dir/counts" \
    --inputs "$dir/v{node}.bin" --outputs "$dir/v_$algo{node}.bin" --verify > "$dir/vlog"
  grep -q "every element of every node matches" "$dir/vlog" || { cat "$dir/vlog"; exit 1; }
done
# The largest relay: node 1 (1,0) stages node 0's 4 elements for node 3 (1,1).
grep -q "staging 4 elements" "$dir/vlog" || { cat "$dir/vlog"; exit 1; }
python3 - "$dir" <<'PY'
import struct, sys
d = sys.argv[1]
counts = [[2, 3, 1, 4], [1, 0, 2, 2], [3, 1, 1, 1], [2, 2, 2, 0]]
for algo in ("direct", "2phase"):
    for j in range(4):
        want = []
        for i in range(4):
            if i != j:
                off = sum(counts[i][:j])
                want += [(i + 1) * 100 + off + e for e in range(counts[i][j])]
        raw = open(f"{d}/v_{algo}{j}.bin", "rb").read()
        got = list(struct.unpack(f"<{len(raw) // 4}i", raw))
        assert got == want, f"{algo} node {j}: {got} != {want}"
print("all-to-all-v result files hold each sender's block")
PY
# A wrong-size input is refused by name; no output is written.
head -c 100 "$dir/in1.bin" > "$dir/short1.bin"
for n in 0 2 3; do cp "$dir/in$n.bin" "$dir/short$n.bin"; done
if "$aries" coll -k 2 --size 148 --inputs "$dir/short{node}.bin" --outputs "$dir/never{node}.bin" \
     > "$dir/err" 2>&1; then
  echo "a short input file was accepted"; exit 1
fi
grep -q "short1.bin: 100 bytes of data: expected 148" "$dir/err" || { cat "$dir/err"; exit 1; }
if ls "$dir"/never* > /dev/null 2>&1; then echo "outputs written after a refusal"; exit 1; fi
echo "ok"
