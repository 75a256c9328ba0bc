#!/usr/bin/env python3
"""synth.py's area roll-up on a hand-written `stat -liberty` report, and router_area.py's SRAM
buffer model and node_area.py's engine extrapolation on hand-computed cases.

top (own 10 um^2, 3 cells) holds 2 x mid; mid (own 4 um^2, 2 cells) holds 3 x leaf;
leaf is 1 um^2, 1 cell. Expected: leaf 6 inst / 6 um^2, mid 2 inst / 8 um^2, top 10 um^2,
total 24 um^2 and 13 cells.
"""
import os
import sys
import tempfile

sys.path.insert(0, sys.argv[1])
import synth  # noqa: E402

REPORT = """
=== $paramod\\aries_leaf\\N=32'00000000000000000000000000000011 ===

   Number of cells:                  1
     INV_X1                          1

   Chip area for module '$paramod\\aries_leaf\\N=32'00000000000000000000000000000011': 1.000000

=== aries_mid ===

   Number of cells:                  5
     $paramod\\aries_leaf\\N=32'00000000000000000000000000000011      3
     NAND2_X1                        2

   Chip area for module '\\aries_mid': 4.000000

=== aries_top ===

   Number of cells:                  5
     NAND2_X1                        3
     aries_mid                       2

   Chip area for module '\\aries_top': 10.000000

=== design hierarchy ===

   Chip area for top module '\\aries_top': 24.000000
"""

with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "stat.txt")
    open(path, "w").write(REPORT)
    r = synth.parse_stat(path, "aries_top")
expect = {"aries_leaf": (6, 6, 6.0), "aries_mid": (2, 4, 8.0), "aries_top": (1, 3, 10.0)}
got = {k: (v["instances"], v["cells"], v["area_um2"]) for k, v in r["blocks"].items()}
ok = got == expect and r["area_um2"] == 24.0 and r["cells"] == 13
print("got", got, r["area_um2"], r["cells"])
if not ok:
    sys.exit("roll-up differs from the hand-computed case")

# The SRAM buffer model (router_area.py): 5 ports x 4 VCs x 32 entries x (544-bit flit + 5-bit
# port mask + 3-bit VC id) = 353,280 bits; x 0.346 um^2 / 0.7 = 174,621.3 um^2.
import router_area  # noqa: E402
bits = router_area.sram_bits(5, 4, 32, 16)
print("sram bits", bits)
if bits != 353280 or abs(bits * 0.346 / 0.7 - 174621.257) > 0.01:
    sys.exit("SRAM buffer model differs from the hand-computed case")

# Depth extrapolation: the metadata FIFOs and the inputs (payload memory) grow linearly, 100 at
# depth 2 and 200 at depth 4 (50 per slot) -> 200 + 28 x 50 = 1600 at depth 32; any other block
# keeps its depth-4 value.
ex = (router_area.estimate("aries_router_input", 100, 200, 2, 4, 32),
      router_area.estimate("aries_fifo", 100, 200, 2, 4, 32),
      router_area.estimate("aries_router_xbar", 100, 200, 2, 4, 32))
print("extrapolated", ex)
if ex != (1600, 1600, 200):
    sys.exit("depth extrapolation differs from the hand-computed case")

# The engine's lane extrapolation (node_area.py): 1000 um^2 at 1 lane, 1300 at 2 -> 1000 + 300 x 15
# = 5500 at 16 lanes.
import node_area  # noqa: E402
if node_area.engine_estimate(1000, 1300, 16) != 5500:
    sys.exit("engine extrapolation differs from the hand-computed case")
