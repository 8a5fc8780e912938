#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Occupancy maps of CMA regions, from the chunk maps cma-bench -d writes.

    bench/plot.py [-o OUTDIR] MAP...       one PNG per map, MAP's name with .png

A map (bench/host/cma-bench.c, dump_map()) is

    # cma-bench map: trace <trace>, allocator <name>, after operation <n>
    region <name> <start> <size>
    chunk <start> <size> <dev>/<kind>      (the region's live chunks)
    free <start> <size>                    (its holes, from the allocator)

Each region is one row, its chunks coloured by device/kind, holes left
white, the offset in MiB along the x axis.  Needs python3-matplotlib
(scripts/setup.sh installs it).
"""
import os
import sys

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch
except ImportError:
    sys.exit("plot.py: python3-matplotlib is missing (scripts/setup.sh installs it)")

MiB = 1 << 20


def read_map(path):
    title, regions = "", []
    with open(path) as f:
        for no, line in enumerate(f, 1):
            w = line.split()
            if not w:
                continue
            try:
                if w[0] == "#":
                    title = line[1:].strip().replace("cma-bench map: ", "")
                elif w[0] == "region" and len(w) == 4:
                    regions.append({"name": w[1], "start": int(w[2], 0),
                                    "size": int(w[3], 0), "chunks": [], "holes": []})
                elif w[0] == "chunk" and len(w) == 4 and regions:
                    regions[-1]["chunks"].append((int(w[1], 0), int(w[2], 0), w[3].rstrip("/")))
                elif w[0] == "free" and len(w) == 3 and regions:
                    regions[-1]["holes"].append((int(w[1], 0), int(w[2], 0)))
                else:
                    raise ValueError
            except ValueError:
                raise SystemExit("plot.py: %s:%d: cannot parse: %s" % (path, no, line.rstrip()))
    if not regions:
        raise SystemExit("plot.py: %s: no region" % path)
    return title, regions


def plot(path, outdir):
    title, regions = read_map(path)
    owners = sorted({c[2] for r in regions for c in r["chunks"]})
    cmap = plt.get_cmap("tab10")
    colour = {o: cmap(i % 10) for i, o in enumerate(owners)}
    fig, ax = plt.subplots(figsize=(10, 0.7 * len(regions) + 1.4))
    for y, r in enumerate(regions):
        ax.broken_barh([(0, r["size"] / MiB)], (y - 0.4, 0.8), facecolors="white",
                       edgecolors="black", linewidth=0.8)
        for start, size, owner in r["chunks"]:
            ax.broken_barh([((start - r["start"]) / MiB, size / MiB)], (y - 0.35, 0.7),
                           facecolors=colour[owner], edgecolors="black", linewidth=0.2)
        used = sum(c[1] for c in r["chunks"])
        largest = max([h[1] for h in r["holes"]] or [0])
        ax.text(r["size"] / MiB, y, "  %d%% used, largest free %d KiB"
                % (100 * used // r["size"], largest // 1024), va="center", fontsize=8)
    ax.set_yticks(range(len(regions)))
    ax.set_yticklabels([r["name"] for r in regions])
    ax.invert_yaxis()
    ax.set_xlabel("offset in region (MiB)")
    xmax = max(r["size"] for r in regions) / MiB
    ax.set_xlim(0, xmax * 1.45)
    ax.set_title(title, fontsize=9)
    ax.legend(handles=[Patch(facecolor=colour[o], label=o) for o in owners] +
              [Patch(facecolor="white", edgecolor="black", label="free")],
              fontsize=7, loc="lower right", ncol=2)
    fig.tight_layout()
    out = os.path.join(outdir or os.path.dirname(path),
                       os.path.splitext(os.path.basename(path))[0] + ".png")
    fig.savefig(out, dpi=90)
    plt.close(fig)
    print(out)


def main(argv):
    outdir = None
    if len(argv) >= 2 and argv[0] == "-o":
        outdir = argv[1]
        os.makedirs(outdir, exist_ok=True)
        argv = argv[2:]
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    for p in argv:
        plot(p, outdir)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
