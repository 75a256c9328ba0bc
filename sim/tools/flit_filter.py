#!/usr/bin/env python3
"""GTKWave translate filter process for ARIES-sim flits (aries --trace writes the .gtkw that
uses it): reads one value per line on stdin (a flit in hex, header in the low 32 bits, then the
32-bit lanes) and writes one line: the decoded header and the first lanes, most telling first
(a flit of one cycle shows only its first characters at a packet's zoom).

    H0>5 vc1 lane0=17 lane1=0x0000002a    (a head from node 0 to node 5; - body, T tail, HT both)
    Hf9@3 vc2 lane0=...                   (a routing-table flow 9 from node 3)
    id3.12 req add.i32 step0 lane0=...    (a collective flit: id 3, sequence 12, engine step 0)

--gated B: each value is the port's valid bit above the flit's low B bits (the save file joins
them; B = 96, or the whole flit when narrower): nothing is printed while valid is low.
--steps ID:POS:STEPS:COUNT,...: a collective's engine program (aries coll --trace writes it):
collective id ID is step POS of STEPS in each pass, COUNT flits a step; a flit of sequence s is
then in engine step (s // COUNT) * STEPS + POS (counted modulo the 12-bit sequence).
--vcs N: the router's VCs (VCs N and N+1 are the engine's); --k K: the package's K (node
numbers y * K + x). The header layout is rtl/pkg/aries_pkg.sv's.
"""
import sys

OPS = ["add.i32", "mul.i32", "min.i32", "max.i32", "add.f32", "mul.f32", "min.f32", "max.f32",
       "and", "or", "xor"]


def decode(value, vcs, k, lanes_shown=2, gated=0, steps=None):
    v = value.strip().lower()
    if v.startswith("0x"):
        v = v[2:]
    if not v or any(c in "xz" for c in v):
        return "-"
    n = int(v, 16)
    if gated:
        if not (n >> gated) & 1:
            return " "  # (an empty line would show the raw value)
        n &= (1 << gated) - 1
    h = n & 0xFFFFFFFF
    head, tail = h & 1, (h >> 1) & 1
    vc = (h >> 2) & 7
    is_flow = (h >> 5) & 1
    flow = (h >> 6) & 0x3F
    lanes = [(n >> (32 * (1 + i))) & 0xFFFFFFFF for i in range(lanes_shown)]
    lane_text = " ".join(f"lane{i}={x}" if i == 0 else f"lane{i}=0x{x:08x}"
                         for i, x in enumerate(lanes))
    if vc >= vcs:  # an engine VC: collective id, operation, sequence number
        op = (h >> 16) & 0xF
        seq = (h >> 20) & 0xFFF
        cls = "req" if vc == vcs else "rsp"
        step = ""
        if steps and flow in steps:
            pos, count, per_pass = steps[flow]
            step = f" step{(seq // count) * per_pass + pos}"
        return f"id{flow}.{seq} {cls} {OPS[op] if op < len(OPS) else op}{step} {lane_text}"
    dx, dy = (h >> 12) & 0x1F, (h >> 17) & 0x1F
    sx, sy = (h >> 22) & 0x1F, (h >> 27) & 0x1F
    mark = ("H" if head else "") + ("T" if tail else "") or "-"
    where = f"f{flow}@{sy * k + sx}" if is_flow else f"{sy * k + sx}>{dy * k + dx}"
    return f"{mark}{where} vc{vc} {lane_text}"


def main():
    vcs, k, gated, steps = 4, 4, 0, {}
    args = sys.argv[1:]
    while args:
        a = args.pop(0)
        if a == "--vcs":
            vcs = int(args.pop(0))
        elif a == "--k":
            k = int(args.pop(0))
        elif a == "--steps":
            for item in args.pop(0).split(","):
                cid, pos, per_pass, count = (int(x) for x in item.split(":"))
                steps[cid] = (pos, count, per_pass)
        elif a == "--gated":
            gated = int(args.pop(0))
        elif a == "--test":  # decode the values given after --test and exit
            for x in args:
                print(decode(x, vcs, k, gated=gated, steps=steps))
            return
    for line in sys.stdin:
        sys.stdout.write(decode(line, vcs, k, gated=gated, steps=steps) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
