#!/usr/bin/env python3
"""Every cell instantiated in a mapped netlist exists in the liberty file with an area > 0."""
import re
import sys

lib, netlist = sys.argv[1], sys.argv[2]
areas = {m.group(1): float(m.group(2)) for m in
         re.finditer(r"cell \((\w+)\) \{\s*area : ([\d.]+);", open(lib).read())}
used = set(re.findall(r"^\s*(\w+_X\d)\s+\S+\s*\(", open(netlist).read(), re.M))
if not used:
    sys.exit(f"no library cells found in {netlist}")
missing = sorted(c for c in used if areas.get(c, 0) <= 0)
if missing:
    sys.exit(f"cells without an area in {lib}: {missing}")
print(f"{len(used)} cell types used, all with areas: {sorted(used)}")
