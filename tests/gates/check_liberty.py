#!/usr/bin/env python3
"""Every cell a mapped netlist instantiates is either a module of the netlist or a liberty
cell with an area > 0 (an unmapped Yosys cell such as $_DFF_P_ would count as zero area)."""
import re
import sys

lib, netlist = sys.argv[1], sys.argv[2]
areas = {m.group(1): float(m.group(2)) for m in
         re.finditer(r"cell \((\w+)\) \{\s*area : ([\d.]+);", open(lib).read())}
text = open(netlist).read()
modules = set(re.findall(r"^module\s+(\S+)\s*\(", text, re.M))
keywords = {"module", "input", "output", "inout", "wire", "reg", "assign", "always", "endmodule"}
used = {m.group(1) for m in re.finditer(r"^\s+(\S+)\s+\S+\s*\($", text, re.M)
        if m.group(1) not in keywords}
if not used:
    sys.exit(f"no cell instances found in {netlist}")
cells = used - modules
bad = sorted(c for c in cells if areas.get(c, 0) <= 0)
if bad:
    sys.exit(f"cells without an area in {lib}: {bad}")
print(f"{len(modules)} modules; {len(cells)} cell types used, all with areas: {sorted(cells)}")
