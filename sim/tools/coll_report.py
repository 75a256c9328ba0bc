#!/usr/bin/env python3
"""Tables from `aries coll-sweep --csv` files: all-reduce cycles per algorithm x topology at the
chosen sizes, and ARIES against mesh and torus for the paper's three families (ARIES section
V-A, Fig. 9): ring (ARIES_LT / ARIES_BW on ARIES vs the ring on mesh and torus), double binary
tree, multi-tree (the concentrated multi-tree or the multi-tree on ARIES vs the multi-tree).

  python3 sim/tools/coll_report.py collectives/data/collective_costs.csv --sizes 1K,64K,2M
"""
import argparse
import csv
import sys

UNITS = {"K": 1024, "M": 1024 * 1024}


def parse_size(s):
    return int(s[:-1]) * UNITS[s[-1]] if s[-1] in UNITS else int(s)


def label(row):
    if row["algo"] == "aries_lt":
        return f"aries_lt L={row['levels']}"
    if row["algo"] == "tree" and row["embeddings"] != "1":
        return f"tree E={row['embeddings']}"
    name = row["algo"]
    if row.get("ring_map", "snake") not in ("", "snake"):
        name += f" {row['ring_map']}"
    if row.get("ring_dirs", "1") == "2":
        name += " bidir"
    return name


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--sizes", default="1K,64K,2M")
    ap.add_argument("--topologies", default="mesh,torus,aries,fbfly")
    a = ap.parse_args()
    sizes = [parse_size(s) for s in a.sizes.split(",")]
    names = a.sizes.split(",")
    cyc = {}  # (k, label, topology, bytes) -> cycles
    order = []
    for path in a.csv:
        for row in csv.DictReader(l for l in open(path) if not l.startswith("#")):
            if row["collective"] != "allreduce":
                continue
            if row.get("groups", "all") != "all":  # communicator rows: not the whole package
                continue
            if row["ok"] != "1":
                sys.exit(f"{path}: a failed run: {row}")
            key = (int(row["k"]), label(row))
            if key not in order:
                order.append(key)
            cyc[(int(row["k"]), label(row), row["topology"], int(row["bytes"]))] = (
                int(row["cycles"]), float(row["bound_fraction"]))
    topos = a.topologies.split(",")
    print("cycles from", ", ".join(a.csv))
    for k in sorted({k for k, _ in order}):
        print(f"\n{k}x{k} all-reduce, cycles (fraction of the bound) per topology\n")
        head = "| algorithm | " + " | ".join(f"{n} {t}" for n in names for t in topos) + " |"
        print(head)
        print("|---|" + "---|" * (len(names) * len(topos)))
        for kk, lab in order:
            if kk != k:
                continue
            cells = []
            for b in sizes:
                for t in topos:
                    v = cyc.get((k, lab, t, b))
                    cells.append(f"{v[0]:,} ({100 * v[1]:.0f}%)" if v else "-")
            print(f"| {lab} | " + " | ".join(cells) + " |")
        print(f"\n{k}x{k}: ARIES speed-up over mesh / over torus (their cycles / ARIES cycles)\n")
        print("| family | ARIES algorithm | baseline | " + " | ".join(names) + " |")
        print("|---|---|---|" + "---|" * len(names))
        fams = [("ring", "ring", [l for kk, l in order if kk == k and l.startswith(("aries_lt", "aries_bw", "ring"))]),
                ("double binary tree", "dbt", ["dbt"]),
                ("multi-tree", "mtree", ["mtree", "cmtree"])]
        for fam, base, ours in fams:
            for o in ours:
                cells = []
                for b in sizes:
                    mine = cyc.get((k, o, "aries", b))
                    ref = [cyc.get((k, base, t, b)) for t in ("mesh", "torus")]
                    cells.append(" / ".join(f"{r[0] / mine[0]:.2f}x" if r and mine else "-" for r in ref))
                print(f"| {fam} | {o} | {base} | " + " | ".join(cells) + " |")

if __name__ == "__main__":
    main()
