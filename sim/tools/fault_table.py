#!/usr/bin/env python3
"""All-reduce around faults: every algorithm on K x K ARIES without a fault, with one dead
mesh link and with one dead bypass wire span (and whatever more is listed), each run verified
element by element, printed as a Markdown table of cycles and the ratio to the fault-free run.

Usage: fault_table.py ARIES_BINARY [--k 4,8] [--size 512K] [--model fast] [--jobs 2]
The faults are present from reset: the controller plans around them (a fault that strikes a
running collective is the recovery path, `aries coll --set package.faults=LINK@CYCLE`).
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
import time

# One dead link and one dead bypass wire span in the middle of the package.
FAULTS = {
    4: [("none", ""), ("link x(1,1) (nodes 5-6)", "link:x(1,1)"),
        ("x-track 0 of row 1, span 1-2", "segment:xtrack0.1:1-2")],
    8: [("none", ""), ("link x(3,3) (nodes 27-28)", "link:x(3,3)"),
        ("x-track 0 of row 3, span 3-4", "segment:xtrack0.3:3-4")],
}
ALGOS = ["ring", "aries_bw", "aries_lt", "2dring", "dbt", "mtree", "cmtree", "tree", "rd",
         "rabenseifner"]


def run(aries, k, algo, faults, size, model, out_dir):
    js = os.path.join(out_dir, f"{k}_{algo}_{abs(hash(faults))}.json")
    cmd = [aries, "coll", "-k", str(k), "--topology", "aries", "--algo", algo, "--size", size,
           "--verify", "--model", model, "--json", js]
    if algo == "aries_lt":
        cmd += ["--levels", "2" if k == 4 else "3"]
    if faults:
        cmd += ["--set", f"package.faults={faults}"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        why = [l for l in (p.stdout + p.stderr).splitlines() if l.strip()]
        return None, why[-1] if why else f"exit {p.returncode}"
    with open(js) as f:
        r = json.load(f)["result"]
    if not r["verified"]:
        return None, "not verified"
    return r["cycles"], r["plan"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("aries")
    ap.add_argument("--k", default="4,8")
    ap.add_argument("--size", default="512K")
    ap.add_argument("--model", default="fast")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    t0 = time.time()
    ks = [int(x) for x in a.k.split(",")]
    with tempfile.TemporaryDirectory() as d, \
            concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        jobs = {}
        for k in ks:
            for algo in ALGOS:
                for label, f in FAULTS[k]:
                    jobs[(k, algo, label)] = pool.submit(run, a.aries, k, algo, f, a.size,
                                                         a.model, d)
        failed = 0
        for k in ks:
            labels = [l for l, _ in FAULTS[k]]
            print(f"\n**{k}x{k} ARIES, all-reduce of {a.size}** (cycles; x: against no fault)\n")
            print("| algorithm | " + " | ".join(labels) + " |")
            print("|---" * (len(labels) + 1) + "|")
            notes = []
            for algo in ALGOS:
                base, _ = jobs[(k, algo, "none")].result()
                cells = []
                for label in labels:
                    cyc, info = jobs[(k, algo, label)].result()
                    if cyc is None:
                        failed += 1
                        cells.append("refused")
                        notes.append(f"{algo}, {label}: {info}")
                    elif label == "none" or not base:
                        cells.append(f"{cyc:,}")
                    else:
                        cells.append(f"{cyc:,} ({cyc / base:.2f}x)")
                print(f"| {algo} | " + " | ".join(cells) + " |")
            for n in notes:
                print(f"\n* {n}")
    print(f"\n{len(jobs)} runs, every completed one verified element by element; "
          f"{failed} refused or failed; {time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
