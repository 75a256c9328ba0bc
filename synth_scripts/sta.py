#!/usr/bin/env python3
"""Static timing of a synthesized ARIES-sim block with OpenSTA (Debian's `opensta`).

    synth_scripts/sta.py DIR [--liberty LIB] [--top TOP]

DIR is a synth.py output (netlist.v, constraints.sdc, area.json naming the top). OpenSTA reads
the liberty and the netlist, links the design, applies constraints.sdc (the 1 GHz clock of
ARIES Table II) and reports the worst setup path, WNS and TNS into DIR/timing.txt and
DIR/timing.json. The shipped liberty (lib/nangate45_area.lib) has areas only, so with it the
run checks that the netlist reads back and links (every cell and module found) and reports
no timing; for timing give the full open library, NangateOpenCellLibrary_typical.lib (in
OpenROAD-flow-scripts: flow/platforms/nangate45/lib/, or OpenSTA's examples/nangate45_typ.lib.gz,
gunzipped), whose cell and pin names the netlist uses.
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from synth import provenance  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", help="a synth.py output directory")
    ap.add_argument("--liberty", default=os.path.join(HERE, "lib", "nangate45_area.lib"))
    ap.add_argument("--top", help="the top module (default: area.json's)")
    ap.add_argument("--sta", default="sta", help="the OpenSTA executable")
    a = ap.parse_args()
    d = a.dir
    for f in ("netlist.v", "constraints.sdc") + (() if a.top else ("area.json",)):
        if not os.path.exists(os.path.join(d, f)):
            sys.exit(f"{d}/{f}: missing (run synth_scripts/synth.py --out {d} first)")
    top = a.top or json.load(open(os.path.join(d, "area.json")))["top"]
    tcl = os.path.join(d, "sta.tcl")
    with open(tcl, "w") as f:
        f.write(f"read_liberty {a.liberty}\n"
                f"read_verilog {d}/netlist.v\n"
                f"link_design {top}\n"
                f"read_sdc {d}/constraints.sdc\n"
                f"puts \"linked: [llength [get_cells -hierarchical *]] instances\"\n"
                f"report_checks -path_delay max -digits 3 -path_group clk\n"
                f"report_worst_slack -digits 3\n"
                f"report_wns -digits 3\n"
                f"report_tns -digits 3\n"
                f"exit\n")
    try:
        p = subprocess.run([a.sta, "-no_splash", "-exit", tcl], capture_output=True, text=True,
                           timeout=3600)
    except FileNotFoundError:
        sys.exit(f"{a.sta}: not found; install opensta (bash cmake/setup-debian.sh)")
    out = p.stdout + p.stderr
    open(os.path.join(d, "timing.txt"), "w").write(out)
    errors = [l for l in out.splitlines() if l.startswith("Error")]
    linked = re.search(r"linked: (\d+) instances", out)
    if p.returncode != 0 or errors or not linked:
        sys.exit(f"OpenSTA could not read or link {d}/netlist.v with {a.liberty}:\n" +
                 "\n".join(errors or out.splitlines()[-10:]))
    wns = re.search(r"^wns\s+(-?[\d.]+)", out, re.M)
    tns = re.search(r"^tns\s+(-?[\d.]+)", out, re.M)
    worst = re.search(r"^worst slack\s+(-?[\d.]+)", out, re.M)
    arrival = re.search(r"^\s*([\d.]+)\s+data arrival time", out, re.M)
    timed = re.search(r"slack \((MET|VIOLATED)\)", out) is not None and worst is not None
    res = {"top": top, "liberty": os.path.basename(a.liberty), "instances": int(linked.group(1)),
           "clock_period_ns": 1.0, "timed": timed, "provenance": provenance()}
    res["provenance"]["opensta"] = subprocess.run([a.sta, "-version"], capture_output=True,
                                                  text=True).stdout.strip()
    if timed:
        res.update({"worst_slack_ns": float(worst.group(1)), "met": float(worst.group(1)) >= 0,
                    "worst_arrival_ns": float(arrival.group(1)) if arrival else None,
                    "wns_ns": float(wns.group(1)) if wns else None,
                    "tns_ns": float(tns.group(1)) if tns else None})
    json.dump(res, open(os.path.join(d, "timing.json"), "w"), indent=1)
    if timed:
        print(f"{top}: worst setup slack {res['worst_slack_ns']:.3f} ns at 1 GHz "
              f"({'met' if res['met'] else 'VIOLATED'}; arrival {res['worst_arrival_ns']} ns), "
              f"WNS {res['wns_ns']}, TNS {res['tns_ns']} ({res['liberty']}); {d}/timing.txt")
    else:
        print(f"{top}: {res['instances']} instances read and linked by OpenSTA with "
              f"{res['liberty']}, which has no timing (give --liberty with timing); "
              f"{d}/timing.txt")


if __name__ == "__main__":
    main()
