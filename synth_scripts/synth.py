#!/usr/bin/env python3
"""Synthesize one ARIES-sim block with Yosys and report its cell area.

Reads rtl/sources.f (the same ordered list Verilator uses), sets the parameters, synthesizes
without flattening so every sub-block keeps its own area, maps flip-flops and logic to the
liberty file (default: lib/nangate45_area.lib, Nangate FreePDK45 areas), and writes into
--out: synth.ys (the script), yosys.log, netlist.v and netlist.json (mapped, hierarchical:
structural Verilog and Yosys JSON for other flows; each parameterised module named by its
parameters, aries_fifo__Depth4_Width40, not by a Yosys hash; modules.json maps the names),
cells.v (the liberty cells as Verilog blackboxes: `read_verilog cells.v netlist.v` needs no
liberty), constraints.sdc (the 1 GHz clock of ARIES Table II on clk_i, inputs and outputs
timed against it), rtl.json (before mapping), ports.json (the top's port widths) and area.json
(cells and um^2 per module and for the whole block). synth_scripts/sta.py times the netlist
with OpenSTA.

--check-ports also runs `verilator --cc` with the same parameters and fails unless every port
of the Verilated model has the width Yosys gives it (Yosys 0.23 can silently mis-size some
SystemVerilog constructs, ../shared/TOOLCHAIN.md).

Example:
  synth_scripts/synth.py --top aries_router -P Lanes=1 -P NumVCs=2 -P BufferDepth=4 \\
      --out build/synth/router_small --check-ports
"""
import argparse
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RTL = os.path.join(ROOT, "rtl")


def provenance():
    """What made a result: the sources' git commit, Yosys's version, the command, the date."""
    def run(cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            return "unknown"
    return {"tool": "ARIES-sim synth_scripts",
            "commit": run(["git", "-C", ROOT, "describe", "--always", "--dirty", "--abbrev=12"]),
            "yosys": run(["yosys", "-V"]),
            "command": " ".join(sys.argv),
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}


def rtl_sources():
    with open(os.path.join(RTL, "sources.f")) as f:
        lines = [l.strip() for l in f]
    return [os.path.join(RTL, l) for l in lines if l and not l.startswith("//")]


# What a run writes into --out (its script and log aside).
RESULTS = ("area.json", "ports.json", "stat.txt", "rtl.json", "netlist_hashed.json",
           "netlist_named.json", "netlist.json", "netlist.v", "cells.v", "modules.json",
           "names.ys", "constraints.sdc")


def run_yosys(top, params, liberty, out, abc_fast=False):
    sources = " ".join(rtl_sources())
    # -defer + chparam: Yosys 0.23 trips an internal assertion (rtlil.cc:663) on
    # `hierarchy -chparam` for some tops; setting the parameters on the deferred module works.
    chparam = ""
    if params:
        chparam = "chparam " + " ".join(f"-set {k} {v}" for k, v in params) + f" {top}\n"
    script = (
        f"read_verilog -defer -sv -noautowire -I{RTL}/include {sources}\n"
        f"{chparam}"
        f"hierarchy -check -top {top}\n"
        f"proc\n"
        f"write_json {out}/rtl.json\n"
        f"synth -top {top}\n"
        f"dfflibmap -liberty {liberty}\n"
        f"abc {'-fast ' if abc_fast else ''}-liberty {liberty}\n"
        f"opt_clean -purge\n"
        f"tee -o {out}/stat.txt stat -liberty {liberty}\n"
        f"write_json {out}/netlist_hashed.json\n"
    )
    yosys(out, "synth.ys", "yosys.log", script)


def yosys(out, script_name, log_name, script):
    """Runs a Yosys script written to out/script_name, its output in out/log_name."""
    with open(os.path.join(out, script_name), "w") as f:
        f.write(script)
    with open(os.path.join(out, log_name), "w") as log:
        rc = subprocess.call(["yosys", "-q", "-s", os.path.join(out, script_name)],
                             stdout=log, stderr=subprocess.STDOUT)
    if rc != 0:
        sys.exit(f"yosys failed (rc {rc}) on {out}/{script_name}; see {out}/{log_name}")


def base_name(mod):
    """'$paramod$abc\\aries_fifo\\Width=...' or 'aries_fifo__Depth4_Width40' -> 'aries_fifo'."""
    m = re.search(r"(aries_\w+)", mod)
    return m.group(1).split("__")[0] if m else mod.lstrip("\\")


def readable_names(netlist_json):
    """Yosys's parameterised module names -> base name and its parameters
    ('$paramod$1ad6...\\aries_router_regs' -> 'aries_router_regs__BufferDepth4_Lanes1_...')."""
    mods = json.load(open(netlist_json))["modules"]
    names = {}
    for name, m in mods.items():
        if not name.startswith("$paramod"):
            continue
        params = m.get("parameter_default_values", {})
        sig = "_".join(f"{k}{int(v, 2) if set(v) <= set('01') else v}"
                       for k, v in sorted(params.items()))
        new = f"{base_name(name)}__{sig}" if sig else base_name(name)
        while new in names.values() or new in mods:
            new += "_"
        names[name] = new
    return names


def write_netlists(out, top, liberty):
    """netlist.v / netlist.json with readable module names, cells.v, constraints.sdc."""
    hashed = os.path.join(out, "netlist_hashed.json")
    names = readable_names(hashed)
    json.dump({"top": top, "renamed": names}, open(os.path.join(out, "modules.json"), "w"),
              indent=1, sort_keys=True)
    # Rename the modules and every instance's type in the JSON netlist, then let Yosys write
    # both netlists from it (its `rename` leaves the instances pointing at the old names).
    data = json.load(open(hashed))
    data["modules"] = {names.get(k, k): v for k, v in data["modules"].items()}
    for m in data["modules"].values():
        for c in m.get("cells", {}).values():
            c["type"] = names.get(c["type"], c["type"])
    named = os.path.join(out, "netlist_named.json")
    json.dump(data, open(named, "w"))
    script = (
        f"read_liberty -lib {liberty}\n"
        f"read_json {named}\n"
        f"hierarchy -check -top {top}\n"
        f"write_verilog -noattr {out}/netlist.v\n"
        f"write_json {out}/netlist.json\n"
        f"design -reset\n"
        f"read_liberty -lib {liberty}\n"
        f"write_verilog -blackboxes {out}/cells.v\n"
    )
    yosys(out, "names.ys", "yosys_names.log", script)
    os.remove(hashed)
    os.remove(named)
    # ARIES Table II: 1 GHz. Inputs and outputs are registered at the node's neighbours, so
    # they are timed against the same clock with no external delay. A block without a clock
    # (combinational: the crossbar, route computation) gets its paths bounded by the period.
    ports = json.load(open(os.path.join(out, "netlist.json")))["modules"][top]["ports"]
    with open(os.path.join(out, "constraints.sdc"), "w") as f:
        f.write("# ARIES-sim: the 1 GHz clock of ARIES Table II (synth_scripts/synth.py)\n")
        if "clk_i" in ports:
            f.write("create_clock -name clk -period 1.0 [get_ports clk_i]\n"
                    "set_input_delay 0 -clock clk "
                    "[delete_from_list [all_inputs] [get_ports clk_i]]\n"
                    "set_output_delay 0 -clock clk [all_outputs]\n")
        else:
            f.write("# no clock port: every input-to-output path within one period\n"
                    "set_max_delay 1.0 -from [all_inputs] -to [all_outputs]\n")


def parse_stat(path, top):
    """Per-module own cells/area and the instance tree from `stat -liberty` output."""
    text = open(path).read()
    mods = {}
    for sec in re.split(r"\n=== ", text)[1:]:
        name = sec.split(" ===", 1)[0].strip()
        if name == "design hierarchy":
            continue
        cells = int(re.search(r"Number of cells:\s+(\d+)", sec).group(1))
        am = re.search(r"Chip area for module '.*':\s+([\d.]+)\s*$", sec, re.M)
        area = float(am.group(1)) if am else 0.0
        kinds = {}
        for m in re.finditer(r"^\s{5}(\S+)\s+(\d+)\s*$", sec, re.M):
            kinds[m.group(1)] = int(m.group(2))
        mods[name] = {"own_cells": cells, "own_area": area, "kinds": kinds}
    names = set(mods)
    for name, m in mods.items():
        m["children"] = {k: v for k, v in m["kinds"].items() if k in names}
        m["own_cells"] -= sum(m["children"].values())
    memo = {}

    def total(name):
        if name not in memo:
            m = mods[name]
            cells, area = m["own_cells"], m["own_area"]
            for child, n in m["children"].items():
                c, a = total(child)
                cells += n * c
                area += n * a
            memo[name] = (cells, area)
        return memo[name]

    top_name = next(n for n in mods if base_name(n) == top and not any(
        n in m["children"] for m in mods.values()))
    # Own area of each block type (excluding its children) times its instances.
    per_block_own = {}

    def walk_own(name, mult):
        b = per_block_own.setdefault(base_name(name), {"instances": 0, "cells": 0, "area_um2": 0.0})
        b["instances"] += mult
        b["cells"] += mult * mods[name]["own_cells"]
        b["area_um2"] += mult * mods[name]["own_area"]
        for child, n in mods[name]["children"].items():
            walk_own(child, mult * n)

    walk_own(top_name, 1)
    cells, area = total(top_name)
    tm = re.search(r"Chip area for top module '.*':\s+([\d.]+)", text)
    if tm and abs(float(tm.group(1)) - area) > 0.01 * max(area, 1.0):
        sys.exit(f"area roll-up {area:.1f} disagrees with Yosys's total {tm.group(1)}")
    return {"top": top, "cells": cells, "area_um2": round(area, 3),
            "blocks": {k: {"instances": v["instances"], "cells": v["cells"],
                           "area_um2": round(v["area_um2"], 3)}
                       for k, v in sorted(per_block_own.items())}}


def yosys_ports(out, top):
    data = json.load(open(os.path.join(out, "rtl.json")))
    mod = data["modules"].get(top)  # chparam on the deferred top keeps its name
    if mod is None:
        sys.exit(f"top {top} not in {out}/rtl.json")
    return {p: len(v["bits"]) for p, v in mod["ports"].items()}


def verilator_ports(top, params):
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["verilator", "--cc", "-Wno-fatal", "-Wno-lint", "-Wno-style", f"-I{RTL}/include",
               "--top-module", top, "--prefix", "Vportcheck", "--Mdir", tmp]
        cmd += [f"-G{k}={v}" for k, v in params] + rtl_sources()
        subprocess.check_call(cmd, stdout=subprocess.DEVNULL)
        header = open(os.path.join(tmp, "Vportcheck.h")).read()
    ports = {}
    for m in re.finditer(r"VL_(?:IN|OUT|INOUT)(?:8|16|64|W)?\(&(\w+),(\d+),(\d+)", header):
        ports[m.group(1)] = int(m.group(2)) - int(m.group(3)) + 1
    return ports


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--top", required=True, help="module to synthesize (from rtl/sources.f)")
    ap.add_argument("-P", "--param", action="append", default=[],
                    help="parameter override NAME=VALUE (repeatable)")
    ap.add_argument("--liberty", default=os.path.join(HERE, "lib", "nangate45_area.lib"))
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--check-ports", action="store_true",
                    help="compare port widths with the Verilated model")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--abc-fast", action="store_true",
                    help="abc -fast for the cell mapping (arithmetic-heavy blocks: the full "
                         "mapping of the fp32 lane takes over 10 minutes)")
    args = ap.parse_args()
    params = []
    for p in args.param:
        if "=" not in p:
            sys.exit(f"--param {p!r}: expected NAME=VALUE")
        k, v = p.split("=", 1)
        params.append((k, v))
    os.makedirs(args.out, exist_ok=True)
    # An earlier run's results go first: a run that fails must not leave them behind for
    # router_area.py --reuse or `aries report --area` to take as its own.
    for f in RESULTS:
        if os.path.exists(os.path.join(args.out, f)):
            os.remove(os.path.join(args.out, f))
    run_yosys(args.top, params, args.liberty, args.out, args.abc_fast)
    write_netlists(args.out, args.top, args.liberty)
    area = parse_stat(os.path.join(args.out, "stat.txt"), args.top)
    area["params"] = dict(params)
    area["mapping"] = "abc -fast" if args.abc_fast else "abc"  # (-fast maps wide muxes larger)
    area["liberty"] = os.path.basename(args.liberty)
    area["provenance"] = provenance()
    ports = yosys_ports(args.out, args.top)
    json.dump(ports, open(os.path.join(args.out, "ports.json"), "w"), indent=1, sort_keys=True)
    json.dump(area, open(os.path.join(args.out, "area.json"), "w"), indent=1)
    if not args.quiet:
        print(f"{args.top} {' '.join(f'{k}={v}' for k, v in params)}")
        print(f"  {'block':<24}{'inst':>6}{'cells':>10}{'area um2':>14}")
        for name, b in area["blocks"].items():
            print(f"  {name:<24}{b['instances']:>6}{b['cells']:>10}{b['area_um2']:>14.1f}")
        print(f"  {'total':<24}{'':>6}{area['cells']:>10}{area['area_um2']:>14.1f}")
    if args.check_ports:
        vports = verilator_ports(args.top, params)
        bad = [f"{p}: verilator {w}, yosys {ports.get(p)}" for p, w in sorted(vports.items())
               if ports.get(p) != w]
        extra = sorted(set(ports) - set(vports))
        if bad or extra:
            sys.exit("port width mismatch:\n  " + "\n  ".join(bad + [f"{p}: yosys only"
                                                                  for p in extra]))
        print(f"  ports: {len(vports)} match the Verilated model")


if __name__ == "__main__":
    main()
