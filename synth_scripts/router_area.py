#!/usr/bin/env python3
"""Area of a full-size ARIES router, per sub-block, from two Yosys syntheses.

A router with 32-flit buffers holds ~350k flip-flops; synthesizing it flat is slow and needs much
memory (../shared/TOOLCHAIN.md). The buffers are the only part whose size grows with the depth, and
they grow linearly with it: the metadata FIFOs (aries_fifo) and the payload memory inside each
router input (aries_router_input, which also holds the input's VC selection). So this script
synthesizes the router at depths 2 and 4 with the real width, port and VC count and extrapolates
those two blocks linearly to --depth. The other blocks change with the depth only through counter
widths (log2 of the depth): they are taken from the depth-4 run, a slight underestimate. Both
measured points and the estimate are printed and written to <out>/router_area.json; --reuse takes
the two syntheses from an earlier run in <out>.

The flip-flop buffers dominate; the same storage as an SRAM array is also printed: the stored
bits (per input port and VC, depth x (flit + output-port mask + VC id), the router input's
payload array and metadata FIFOs) x the bit-cell area / the array efficiency. Defaults: the
0.346 um^2 6T cell of Intel's 45 nm process (K. Mistry et al., IEDM 2007) and an array
efficiency of 0.7 (an assumption: cells over total array area with decoders and sense amps;
set --array-efficiency).
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from synth import provenance  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


# Blocks whose area grows linearly with the buffer depth (see the module docstring).
DEPTH_LINEAR = ("aries_fifo", "aries_router_input")


def estimate(name, at_lo, at_hi, lo, hi, depth):
    """Area (or cells) of block `name` at `depth` from its values at depths lo < hi."""
    if name in DEPTH_LINEAR:
        return at_hi + (at_hi - at_lo) / (hi - lo) * (depth - hi)
    return at_hi


def synth(out, ports, vcs, depth, lanes, flows, reuse=False):
    d = os.path.join(out, f"depth{depth}")
    if reuse and os.path.exists(os.path.join(d, "area.json")):
        print(f"reusing {d}/area.json", file=sys.stderr, flush=True)
        return json.load(open(os.path.join(d, "area.json")))
    cmd = [sys.executable, os.path.join(HERE, "synth.py"), "--top", "aries_router", "--quiet",
           "--out", d, "-P", f"NumPorts={ports}", "-P", f"NumVCs={vcs}",
           "-P", f"BufferDepth={depth}", "-P", f"Lanes={lanes}", "-P", f"NumFlows={flows}"]
    print("$ " + " ".join(cmd), file=sys.stderr, flush=True)
    subprocess.check_call(cmd)
    return json.load(open(os.path.join(d, "area.json")))


def sram_bits(ports, vcs, depth, lanes):
    """Bits the router's input buffers store: per port and VC, depth entries of the flit
    (32-bit header + 32-bit lanes) plus its output-port mask and VC id (aries_router_input)."""
    return ports * vcs * depth * (32 + 32 * lanes + ports + 3)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", required=True)
    ap.add_argument("--ports", type=int, default=5)
    ap.add_argument("--vcs", type=int, default=4)
    ap.add_argument("--depth", type=int, default=32)
    ap.add_argument("--lanes", type=int, default=16)
    ap.add_argument("--flows", type=int, default=64)
    ap.add_argument("--cell-um2", type=float, default=0.346, help="SRAM bit cell (Mistry et al., IEDM 2007)")
    ap.add_argument("--array-efficiency", type=float, default=0.7, help="cell area / array area (assumption)")
    ap.add_argument("--reuse", action="store_true",
                    help="take the depth-2 and depth-4 syntheses already in --out")
    a = ap.parse_args()
    lo, hi = 2, 4
    alo = synth(a.out, a.ports, a.vcs, lo, a.lanes, a.flows, a.reuse)
    ahi = synth(a.out, a.ports, a.vcs, hi, a.lanes, a.flows, a.reuse)
    rows = {}
    for name in sorted(set(alo["blocks"]) | set(ahi["blocks"])):
        bl, bh = alo["blocks"].get(name), ahi["blocks"].get(name)
        est = estimate(name, bl["area_um2"], bh["area_um2"], lo, hi, a.depth)
        cest = estimate(name, bl["cells"], bh["cells"], lo, hi, a.depth)
        rows[name] = {"instances": bh["instances"], f"area_depth{lo}": bl["area_um2"],
                      f"area_depth{hi}": bh["area_um2"], f"area_depth{a.depth}_est": round(est, 1),
                      f"cells_depth{a.depth}_est": int(cest)}
    total = sum(r[f"area_depth{a.depth}_est"] for r in rows.values())
    label = {"aries_fifo": "VC metadata FIFOs", "aries_router_input": "inputs (payload memory)",
             "aries_route_compute": "route computation", "aries_router_output":
             "output / switch alloc.", "aries_rr_arb": "round-robin arbiters",
             "aries_credit_cnt": "credit counters", "aries_router_xbar": "crossbar",
             "aries_router_regs": "config regs + table", "aries_reg_rsp": "register response",
             "aries_router": "top glue"}
    print(f"{'block':<26}{'inst':>5}{'depth ' + str(lo):>12}{'depth ' + str(hi):>12}"
          f"{'depth ' + str(a.depth) + ' est':>16}{'share':>8}")
    for name, r in rows.items():
        print(f"{label.get(name, name):<26}{r['instances']:>5}{r[f'area_depth{lo}']:>12.0f}"
              f"{r[f'area_depth{hi}']:>12.0f}{r[f'area_depth{a.depth}_est']:>16.0f}"
              f"{100 * r[f'area_depth{a.depth}_est'] / total:>7.1f}%")
    print(f"{'total [um^2]':<26}{'':>5}{alo['area_um2']:>12.0f}{ahi['area_um2']:>12.0f}"
          f"{total:>16.0f}")
    bits = sram_bits(a.ports, a.vcs, a.depth, a.lanes)
    sram = bits * a.cell_um2 / a.array_efficiency
    print(f"buffers as SRAM: {bits} bits x {a.cell_um2} um^2 / {a.array_efficiency} = {sram:.0f} um^2 "
          f"(ARIES V-D: buffers 98740 um^2, crossbar 17806, switch allocator 4589, VC allocator 9066)")
    json.dump({"params": {"ports": a.ports, "vcs": a.vcs, "depth": a.depth, "lanes": a.lanes,
                          "flows": a.flows}, "liberty": ahi["liberty"], "blocks": rows,
               "total_um2_est": round(total, 1),
               "sram_buffers": {"bits": bits, "cell_um2": a.cell_um2,
                                "array_efficiency": a.array_efficiency, "um2": round(sram, 1)},
               "provenance": provenance()},
              open(os.path.join(a.out, "router_area.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
