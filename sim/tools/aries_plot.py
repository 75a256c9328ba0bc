#!/usr/bin/env python3
"""Figures of ARIES-sim drawn with matplotlib from the CSVs the `aries` commands write.

    aries_plot.py KIND CSV STEM      writes STEM.svg, STEM.pdf and STEM.png

KIND: fig9 (all-reduce bandwidth against size), fig10 (training speedup of ARIES), fig11
(all-reduce energy by component), table1 (links and synchronization steps, formula against
planned), area (mesh and ARIES node area per block), timeline (one training iteration),
sweep (latency and throughput against offered load). The CSV's leading `#` lines (its
provenance: version, commit, command) are read and printed small under the figure.

The `aries` commands call it with --plot (sim/runs/plot.cc); it needs Debian's python3-matplotlib.
"""
import csv
import io
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

plt.rcParams.update({
    "svg.fonttype": "none",  # text stays text in the SVG (searchable, small)
    "font.size": 9,
    "axes.titlesize": 10,
    "legend.fontsize": 7.5,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "savefig.bbox": "tight",
})

TOPO_COLORS = {"mesh": "#4c72b0", "torus": "#dd8452", "fbfly": "#55a868", "adapt": "#8172b3",
               "aries": "#c44e52"}
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*", "<", ">", "h"]
STYLES = ["-", "--", "-.", ":"]


def read(path):
    """Rows (dicts with numbers converted) and the provenance comment lines."""
    with open(path) as f:
        text = f.read()
    prov = [l[2:] for l in text.splitlines() if l.startswith("# ")]
    body = "\n".join(l for l in text.splitlines() if not l.startswith("#"))
    rows = []
    for r in csv.DictReader(io.StringIO(body)):
        for k, v in r.items():
            try:
                r[k] = int(v)
            except (TypeError, ValueError):
                try:
                    r[k] = float(v)
                except (TypeError, ValueError):
                    pass
        rows.append(r)
    if not rows:
        sys.exit(f"{path}: no rows to plot")
    return rows, prov


CONFIG = {}  # the provenance's "config:" line, key -> value


def parse_config(prov):
    for line in prov:
        if line.startswith("config:"):
            for kv in line[len("config:"):].split():
                k, _, v = kv.partition("=")
                CONFIG[k] = v


def footer(fig, prov):
    """The provenance's first line (tool, version, commit) under the figure."""
    if prov:
        fig.text(0.0, -0.01, prov[0], fontsize=6, color="0.45", ha="left", va="top")


def shared_legend(fig, ax, ncol=None):
    """One legend for every panel, above them (inside a panel it would hide data)."""
    handles, labels = ax.get_legend_handles_labels()
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.3 / fig.get_figheight()))
    fig.legend(handles, labels, loc="upper center", ncol=ncol or len(labels), frameon=False,
               bbox_to_anchor=(0.5, 1.0))


def size_label(b):
    b = int(b)
    if b % (1 << 20) == 0:
        return f"{b >> 20}M"
    if b % 1024 == 0:
        return f"{b >> 10}K"
    return str(b)


def fig9(rows):
    ks = sorted({r["k"] for r in rows})
    fams = list(dict.fromkeys(r["family"] for r in rows))
    fig, axes = plt.subplots(len(fams), len(ks), figsize=(5.2 * len(ks), 3.6 * len(fams)),
                             squeeze=False)
    for i, fam in enumerate(fams):
        for j, k in enumerate(ks):
            ax = axes[i][j]
            sel = [r for r in rows if r["family"] == fam and r["k"] == k]
            curves = list(dict.fromkeys((r["algorithm"], r["topology"]) for r in sel))
            for c, (algo, topo) in enumerate(curves):
                pts = sorted((r["bytes"], r["algbw_gbps"]) for r in sel
                             if r["algorithm"] == algo and r["topology"] == topo)
                # Curves that coincide stay visible: each its own marker, hollow, and dash.
                ax.plot([p[0] for p in pts], [p[1] for p in pts],
                        marker=MARKERS[c % len(MARKERS)], markersize=5, markerfacecolor="none",
                        linestyle=STYLES[c % len(STYLES)], linewidth=1.3,
                        color=TOPO_COLORS.get(topo, None) if topo != "aries" else
                        plt.cm.Reds(0.45 + 0.5 * (c / max(1, len(curves)))),
                        label=f"{algo} on {topo}")
            ax.set_xscale("log", base=2)
            sizes = sorted({r["bytes"] for r in sel})
            if sizes:
                ax.set_xticks(sizes)
                ax.set_xticklabels([size_label(s) for s in sizes], rotation=45)
            ax.set_title(f"{fam} all-reduce, {k}x{k} chiplets")
            ax.set_xlabel("bytes per node")
            ax.set_ylabel("algorithm bandwidth (GB/s at 1 GHz)")
            ax.legend(loc="upper left", ncol=1, framealpha=0.85)
    fig.tight_layout()
    return fig


def fig10(rows):
    ks = sorted({r["k"] for r in rows})
    fams = list(dict.fromkeys(r["family"] for r in rows))
    fig, axes = plt.subplots(len(ks), len(fams), figsize=(4.6 * len(fams), 3.4 * len(ks)),
                             squeeze=False)
    bases = ["mesh", "torus", "fbfly", "adapt"]
    for i, k in enumerate(ks):
        for j, fam in enumerate(fams):
            ax = axes[i][j]
            sel = [r for r in rows if r["k"] == k and r["family"] == fam and r["topology"] in bases]
            wls = list(dict.fromkeys(r["workload"] for r in sel))
            width = 0.8 / len(bases)
            for b, base in enumerate(bases):
                ys = [next((r["aries_speedup"] for r in sel
                            if r["workload"] == w and r["topology"] == base), math.nan)
                      for w in wls]
                xs = [x + (b - (len(bases) - 1) / 2) * width for x in range(len(wls))]
                ax.bar(xs, ys, width, color=TOPO_COLORS[base], label=f"ARIES over {base}")
                paper = [next((r["paper_speedup"] for r in sel if r["topology"] == base
                               and r["paper_speedup"] != ""), math.nan)] * len(wls)
                ax.scatter(xs, paper, marker="_", s=180, color="black", zorder=3,
                           label="paper (V-B)" if b == 0 else None)
            ax.axhline(1.0, color="0.3", linewidth=0.8)
            ax.set_xticks(range(len(wls)))
            ax.set_xticklabels(wls, rotation=20)
            ax.set_ylabel("training-iteration speedup")
            ax.set_title(f"{fam}, {k}x{k} chiplets")
    shared_legend(fig, axes[0][0])
    return fig


def fig11(rows):
    ks = sorted({r["k"] for r in rows})
    comps = ["buffers_nj", "crossbar_nj", "allocators_nj", "links_nj", "engine_nj", "leakage_nj"]
    colors = plt.cm.tab10.colors
    fig, axes = plt.subplots(1, len(ks), figsize=(7.0 * len(ks), 4.2), squeeze=False)
    for j, k in enumerate(ks):
        ax = axes[0][j]
        sel = [r for r in rows if r["k"] == k]
        fams = list(dict.fromkeys(r["family"] for r in sel))
        topos = ["mesh", "torus", "fbfly", "adapt", "aries"]
        x, labels, centers = 0.0, [], []
        for fam in fams:
            start = x
            for t in topos:
                r = next((r for r in sel if r["family"] == fam and r["topology"] == t), None)
                if r is None:
                    continue
                bottom = 0.0
                for c, comp in enumerate(comps):
                    ax.bar(x, r[comp], 0.8, bottom=bottom, color=colors[c],
                           edgecolor="white", linewidth=0.3,
                           label=comp[:-3] if (x == 0.0) else None)
                    bottom += r[comp]
                ax.text(x, bottom, f"{bottom:.0f}", ha="center", va="bottom", fontsize=6.5)
                labels.append((x, f"adapt: {r['algorithm']}" if t == "adapt"
                               else t if t != "aries" or r["algorithm"] == r["family"]
                               else f"aries: {r['algorithm']}"))
                x += 1.0
            centers.append(((start + x - 1.0) / 2, fam))
            x += 0.8
        ax.set_xticks([p for p, _ in labels])
        ax.set_xticklabels([t for _, t in labels], rotation=45, fontsize=7, ha="right")
        # The family over its group, inside the axes (under it the rotated tick labels would
        # cross it).
        for cx, fam in centers:
            ax.text(cx, 0.98, fam, transform=ax.get_xaxis_transform(), ha="center", va="top",
                    fontweight="bold")
        ax.set_ylabel("energy of one all-reduce (nJ)")
        ax.set_ylim(0, ax.get_ylim()[1] * 1.2)  # room for the totals and the family names
        r0 = sel[0]
        extra = (f", {size_label(r0['bytes'])} per node ({r0['tech']})" if "bytes" in r0 else "")
        ax.set_title(f"all-reduce energy by component, {k}x{k} chiplets{extra}")
    shared_legend(fig, axes[0][0])
    return fig


def table1(rows):
    ns = sorted({r["n"] for r in rows})
    fig, axes = plt.subplots(len(ns), 2, figsize=(11, 3.6 * len(ns)), squeeze=False)
    for i, n in enumerate(ns):
        sel = [r for r in rows if r["n"] == n]
        names = [f"{r['algorithm']}" + (f" L={r['levels']}" if r["levels"] else "") for r in sel]
        for j, (f, m, what) in enumerate([("links_formula", "links", "logical links"),
                                          ("sync_steps_formula", "sync_steps",
                                           "synchronization steps")]):
            ax = axes[i][j]
            xs = range(len(sel))
            ax.bar([x - 0.2 for x in xs], [r[f] for r in sel], 0.4, color="#8da0cb",
                   label="Table I formula")
            ax.bar([x + 0.2 for x in xs], [r[m] for r in sel], 0.4, color="#fc8d62",
                   label="planned program")
            ax.set_xticks(list(xs))
            ax.set_xticklabels(names, rotation=30, ha="right")
            ax.set_ylabel(what)
            ax.set_title(f"{what}, N = {n}")
    shared_legend(fig, axes[0][0])
    return fig


def area(rows):
    blocks = [r for r in rows if r["block"] not in ("total",)]
    total = next((r for r in rows if r["block"] == "total"), None)
    blocks.sort(key=lambda r: max(r["mesh_node_um2"], r["aries_node_um2"]))
    fig, ax = plt.subplots(figsize=(7.5, 0.32 * len(blocks) + 1.4))
    ys = range(len(blocks))
    ax.barh([y + 0.2 for y in ys], [r["mesh_node_um2"] for r in blocks], 0.4,
            color=TOPO_COLORS["mesh"], label="mesh node")
    ax.barh([y - 0.2 for y in ys], [r["aries_node_um2"] for r in blocks], 0.4,
            color=TOPO_COLORS["aries"], label="ARIES node")
    ax.set_yticks(list(ys))
    ax.set_yticklabels([r["block"] for r in blocks])
    ax.set_xscale("symlog", linthresh=1000)
    ax.set_xlabel("area (um^2, Nangate 45 nm cells; symmetric log scale)")
    title = "node area per block"
    if total:
        title += (f": mesh {total['mesh_node_um2']:,.0f} um^2, "
                  f"ARIES {total['aries_node_um2']:,.0f} um^2")
    ax.set_title(title)
    ax.legend(loc="lower right")
    fig.tight_layout()
    return fig


def timeline(rows):
    kinds = {"fwd": "#4c72b0", "bwd": "#55a868", "allreduce": "#c44e52",
             "allgather": "#dd8452", "reducescatter": "#8172b3"}
    kinds.update({"alltoall": "#937860", "send": "#da8bc3"})
    stages = 1 + max([int(r.get("stage", 0)) for r in rows] + [0])
    fig, ax = plt.subplots(figsize=(11, 1.2 + 1.4 * stages))
    seen = set()
    for r in rows:
        dur = (r["end_ns"] - r["start_ns"]) / 1000.0
        if dur <= 0:
            continue
        kind = str(r["op"]).split(" ")[0].split("(")[0]
        color = kinds.get(kind, "0.6")
        # Stage s: compute above its communication; stage 0 on top.
        lane = 2 * (stages - 1 - int(r.get("stage", 0))) + (1 if r["stream"] == "compute" else 0)
        ax.broken_barh([(r["start_ns"] / 1000.0, dur)], (lane - 0.4, 0.8),
                       facecolors=color, edgecolor="white", linewidth=0.2)
        seen.add(kind)
    ax.set_yticks(range(2 * stages))
    labels = []
    for lane in range(2 * stages):
        stage = stages - 1 - lane // 2
        what = "compute" if lane % 2 else "communication"
        labels.append(f"stage {stage} {what}" if stages > 1 else what)
    ax.set_yticklabels(labels)
    ax.set_xlabel("time (us)")
    title = "one training iteration: compute and communication streams"
    if "train.workload" in CONFIG:
        c = CONFIG
        title = (f"{c['train.workload']} {c.get('train.strategy', '')} on "
                 f"{c.get('package.topology', '')} {c.get('package.k', '')}x"
                 f"{c.get('package.k', '')} ({c.get('coll.algo', '')}): {title}")
    ax.set_title(title)
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for k, c in kinds.items() if k in seen]
    ax.legend(handles, [k for k in kinds if k in seen], loc="upper center",
              bbox_to_anchor=(0.5, -0.35), ncol=len(handles), frameon=False)
    ax.grid(axis="y", visible=False)
    fig.tight_layout()
    return fig


def sweep(rows):
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 3.8))
    rows = sorted(rows, key=lambda r: r["offered"])
    off = [r["offered"] for r in rows]
    a.plot(off, [r["lat_mean"] for r in rows], marker="o", label="mean")
    a.plot(off, [r["lat_p99"] for r in rows], marker="s", linestyle="--", label="p99")
    a.set_xlabel("offered load (flits/node/cycle)")
    a.set_ylabel("packet latency (cycles)")
    a.set_title("latency against load")
    a.legend()
    b.plot(off, [r["accepted"] for r in rows], marker="o", label="accepted")
    b.plot(off, off, color="0.5", linestyle=":", label="offered = accepted")
    b.set_xlabel("offered load (flits/node/cycle)")
    b.set_ylabel("accepted (flits/node/cycle)")
    b.set_title("throughput against load")
    b.legend()
    r0 = rows[0]
    fig.suptitle(f"{r0['topology']} {r0['k']}x{r0['k']}, {r0['pattern']} traffic, "
                 f"{r0['packet_len']}-flit packets, {r0['link_latency']}-cycle links")
    fig.tight_layout()
    return fig


KINDS = {"fig9": fig9, "fig10": fig10, "fig11": fig11, "table1": table1, "area": area,
         "timeline": timeline, "sweep": sweep}


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in KINDS:
        sys.exit(f"usage: {sys.argv[0]} {{{','.join(KINDS)}}} CSV STEM")
    kind, path, stem = sys.argv[1:]
    rows, prov = read(path)
    parse_config(prov)
    fig = KINDS[kind](rows)
    footer(fig, prov)
    for ext in ("svg", "pdf", "png"):
        fig.savefig(f"{stem}.{ext}", dpi=150 if ext == "png" else None)
    plt.close(fig)


if __name__ == "__main__":
    main()
