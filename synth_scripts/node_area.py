#!/usr/bin/env python3
"""ARIES area overhead: the chiplet node synthesized as the mesh baseline and as ARIES.

Synthesizes aries_node twice with the same router (default: 16 lanes = 544-bit flits, 4 VCs,
64 flows, no collective engine) and buffer depth --depth: NumTracks=0 (a mesh node: no port
muxes, no bypass registers) and NumTracks=--tracks (ARIES: four port muxes choosing among the
mesh link and the track taps, PORTSEL and BYPASS registers), plus one bypass switch of the
interposer (aries_bypass_switch at the flit width, one per track per dimension per node). The
overhead does not depend on the buffer depth, so a shallow depth keeps Yosys fast; the router's
full-depth area is router_area.py's. Prints both nodes per block, the overhead and its share,
beside ARIES section V-D, and writes <out>/node_area.json; the netlists stay in <out>/mesh,
<out>/aries and <out>/bypass_switch (netlist.v, netlist.json).

--engine adds the collective engine (PIUMA): synthesized at 1 and 2 lanes with its real id,
program and queue sizes, extrapolated linearly to --lanes (everything but the per-lane
datapath and queue width is shared), like router_area.py extrapolates the buffer depth.
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from synth import provenance  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# ARIES V-D (45 nm, Synopsys Design Vision): the baseline router's blocks and the overhead.
PAPER = {"crossbar_um2": 17806, "switch_allocator_um2": 4589, "vc_allocator_um2": 9066,
         "buffers_um2": 98740, "chiplet_noc_mm2": 8.3, "aries_extra_mm2": 0.3}


def synth(out, top, params):
    cmd = [sys.executable, os.path.join(HERE, "synth.py"), "--top", top, "--quiet", "--abc-fast",
           "--out", out] + [x for k, v in params.items() for x in ("-P", f"{k}={v}")]
    print("$ " + " ".join(cmd), file=sys.stderr, flush=True)
    subprocess.check_call(cmd)
    return json.load(open(os.path.join(out, "area.json")))


def block_areas(area):
    """{readable block: um^2} from synth.py's area.json (module names without parameters)."""
    rows = {}
    for name, b in area["blocks"].items():
        rows[name] = rows.get(name, 0) + b["area_um2"]
    return rows


def engine_estimate(area_1lane, area_2lanes, lanes):
    """Linear in the lane count through the 1- and 2-lane syntheses."""
    return area_1lane + (area_2lanes - area_1lane) * (lanes - 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--lanes", type=int, default=16)
    ap.add_argument("--vcs", type=int, default=4)
    ap.add_argument("--depth", type=int, default=2)
    ap.add_argument("--flows", type=int, default=64)
    ap.add_argument("--tracks", type=int, default=2)
    ap.add_argument("--engine", action="store_true", help="also the collective engine, extrapolated in lanes")
    a = ap.parse_args()
    common = {"Lanes": a.lanes, "NumVCs": a.vcs, "BufferDepth": a.depth, "NumFlows": a.flows, "CollEngine": 0}
    mesh = synth(os.path.join(a.out, "mesh"), "aries_node", dict(common, NumTracks=0))
    aries = synth(os.path.join(a.out, "aries"), "aries_node", dict(common, NumTracks=a.tracks))
    flit_w = 32 + 32 * a.lanes
    switch = synth(os.path.join(a.out, "bypass_switch"), "aries_bypass_switch", {"W": flit_w})
    bm, ba = block_areas(mesh), block_areas(aries)
    print(f"{'block':<28}{'mesh node um^2':>16}{'ARIES node um^2':>17}{'difference':>12}")
    for name in sorted(set(bm) | set(ba)):
        print(f"{name:<28}{bm.get(name, 0):>16.0f}{ba.get(name, 0):>17.0f}{ba.get(name, 0) - bm.get(name, 0):>12.0f}")
    over = aries["area_um2"] - mesh["area_um2"]
    switches = 2 * a.tracks  # per node: one per track per dimension
    print(f"{'total':<28}{mesh['area_um2']:>16.0f}{aries['area_um2']:>17.0f}{over:>12.0f}")
    print(f"\nARIES overhead on the chiplet (buffer depth {a.depth}): {over:.0f} um^2 = "
          f"{100 * over / mesh['area_um2']:.1f}% of the mesh node; on the interposer {switches} bypass "
          f"switches x {switch['area_um2']:.0f} um^2 = {switches * switch['area_um2']:.0f} um^2 per node")
    print(f"paper (V-D, 45 nm): {PAPER['aries_extra_mm2']} mm^2 over {PAPER['chiplet_noc_mm2']} mm^2 of chiplet "
          f"NoC = {100 * PAPER['aries_extra_mm2'] / PAPER['chiplet_noc_mm2']:.1f}%")
    engine = None
    if a.engine:
        e1 = synth(os.path.join(a.out, "engine_l1"), "aries_coll_engine", {"Lanes": 1})
        e2 = synth(os.path.join(a.out, "engine_l2"), "aries_coll_engine", {"Lanes": 2})
        engine = engine_estimate(e1["area_um2"], e2["area_um2"], a.lanes)
        print(f"collective engine: {e1['area_um2']:.0f} um^2 at 1 lane, {e2['area_um2']:.0f} at 2, "
              f"{engine:.0f} estimated at {a.lanes} lanes ({100 * engine / mesh['area_um2']:.1f}% of the mesh node)")
    json.dump({"params": dict(common, tracks=a.tracks), "liberty": aries["liberty"],
               "engine_um2_est": None if engine is None else round(engine, 1),
               "mesh_node_um2": mesh["area_um2"], "aries_node_um2": aries["area_um2"],
               "overhead_um2": round(over, 1), "bypass_switch_um2": switch["area_um2"],
               "bypass_switches_per_node": switches, "blocks_mesh": bm, "blocks_aries": ba,
               "paper": PAPER, "provenance": provenance()},
              open(os.path.join(a.out, "node_area.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
