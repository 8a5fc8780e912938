#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Charts of scripts/bench-movable.sh's results (docs/benchmarks.md).

    bench/plot-movable.py [-o OUTDIR] [memory.txt] [pressure.txt]

memory.txt has one line per kernel, as bench-movable.sh --memory writes it:

    MEMORY <kernel> <MemTotal kB> <MemAvailable kB> <CmaTotal kB> <fill MiB>

and gives movable-memory.png: what one process fills on each kernel.
pressure.txt has bench-movable.sh --pressure's lines:

    PRESSURE <trace> <kernel> <load> allocs <n> failed <n> ... alloc-ns <p50> <p99> <max> ...

and gives movable-pressure.png: per trace and load, the p50 and p99
allocation latency of each kernel, with its count of failed allocations,
and movable-migrated.png: the pages each kernel migrated and the share of
its allocations that migrated none.  Repetitions of a kernel's row (a
trailing "rep <n>") are drawn as their median.
Each line is told by its first word, so the files may come in any order.
Needs python3-matplotlib (scripts/setup.sh installs it).
"""
import os
import sys

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit("plot-movable.py: python3-matplotlib is missing (scripts/setup.sh installs it)")

KERNELS = ["static", "movable", "blind", "mainline-cma", "page-alloc", "none"]
LABEL = {"static": "static regions", "movable": "movable regions",
         "blind": "movable, blind",
         "mainline-cma": "6.1's CMA", "page-alloc": "page allocator",
         "none": "no regions"}


def label(k):
    """A kernel's axis label, over two lines; KERNEL@R adds its ratio."""
    base, _, ratio = k.partition("@")
    text = LABEL.get(base, base).replace(" ", "\n", 1)
    return f"{text}\nratio {ratio}" if ratio else text


def order(k):
    """Where a kernel's row goes: KERNELS' order, KERNEL@R after KERNEL."""
    base, _, ratio = k.partition("@")
    return (KERNELS.index(base) if base in KERNELS else 99, int(ratio) if ratio.isdigit() else -1)


def parse(path):
    """(memory rows, pressure rows) of a results file; dies on a bad line."""
    mem, pres = [], []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            w = line.split()
            if not w:
                continue
            try:
                if w[0] == "MEMORY" and len(w) == 6:
                    mem.append((w[1], int(w[5])))
                    continue
                if w[0] == "PRESSURE" and len(w) > 4:
                    kv = {}
                    i = 4
                    while i < len(w):
                        if w[i] == "alloc-ns":
                            kv["p50"], kv["p99"] = float(w[i + 1]), float(w[i + 2])
                            i += 4
                        else:
                            kv[w[i]] = w[i + 1]
                            i += 2
                    pres.append((w[1], w[2], w[3], int(kv["allocs"]), int(kv["failed"]),
                                 kv["p50"] / 1000, kv["p99"] / 1000,
                                 int(kv.get("migrated", 0)), int(kv.get("clean", -1))))
                    continue
            except (ValueError, IndexError, KeyError):
                pass
            sys.exit(f"plot-movable.py: {path}:{n}: cannot parse: {line.rstrip()}")
    return mem, pres


def plot_memory(mem, out):
    rows = sorted(mem, key=lambda r: KERNELS.index(r[0]) if r[0] in KERNELS else 99)
    base = dict(mem).get("none")
    fig, ax = plt.subplots(figsize=(6, 3))
    bars = ax.barh([LABEL.get(k, k) for k, _ in rows], [v for _, v in rows], color="#4c72b0")
    for b, (_, v) in zip(bars, rows):
        ax.text(b.get_width(), b.get_y() + b.get_height() / 2,
                f" {v} MiB" + (f" ({100 * v / base:.1f}%)" if base else ""), va="center")
    ax.invert_yaxis()
    ax.set_xlim(0, max(v for _, v in rows) * 1.35)
    ax.set_xlabel("MiB one process fills before the OOM killer (Goni, 512 MiB)")
    fig.tight_layout()
    fig.savefig(out, dpi=100)


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def medians(pres):
    """One row per trace, kernel and load: the median of each figure."""
    keys, by = [], {}
    for r in pres:
        k = r[:3]
        if k not in by:
            keys.append(k)
            by[k] = []
        by[k].append(r)
    return [k + tuple(median([r[i] for r in by[k]]) for i in range(3, len(by[k][0])))
            for k in keys]


def plot_migrated(pres, out):
    groups = []
    for t, _, load, *_ in pres:
        if (t, load) not in groups:
            groups.append((t, load))
    fig, axes = plt.subplots(1, len(groups), figsize=(3.2 * len(groups), 3.6), squeeze=False)
    for ax, (t, load) in zip(axes[0], groups):
        rows = [r for r in pres if r[0] == t and r[2] == load and r[1] != "static"]
        rows.sort(key=lambda r: order(r[1]))
        x = range(len(rows))
        bars = ax.bar(list(x), [r[7] for r in rows], 0.6, color="#8172b2")
        for b, r in zip(bars, rows):
            if r[8] >= 0 and r[3]:
                ax.text(b.get_x() + b.get_width() / 2, b.get_height(),
                        f"{100 * r[8] / r[3]:.0f}% clean", ha="center", va="bottom", fontsize=6)
        ax.set_xticks(list(x))
        ax.set_xticklabels([label(r[1]) for r in rows], fontsize=6)
        ax.set_title(f"{t}, {load}", fontsize=9)
        ax.set_ylabel("pages the claims migrated (median)", fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=100)


def plot_pressure(pres, out):
    groups = []
    for t, _, load, *_ in pres:
        if (t, load) not in groups:
            groups.append((t, load))
    fig, axes = plt.subplots(1, len(groups), figsize=(3.2 * len(groups), 3.6), squeeze=False)
    for ax, (t, load) in zip(axes[0], groups):
        rows = [r for r in pres if r[0] == t and r[2] == load]
        rows.sort(key=lambda r: order(r[1]))
        x = range(len(rows))
        ax.bar([i - 0.2 for i in x], [r[5] for r in rows], 0.4, label="p50", color="#55a868")
        ax.bar([i + 0.2 for i in x], [r[6] for r in rows], 0.4, label="p99", color="#c44e52")
        ax.set_yscale("log")
        ax.set_xticks(list(x))
        ax.set_xticklabels([label(r[1]) for r in rows], fontsize=6)
        for i, r in enumerate(rows):
            ax.text(i, r[6] * 1.15,
                    f"{r[4]} failed", ha="center", fontsize=6)
        ax.set_title(f"{t}, {load}", fontsize=9)
        ax.set_ylabel("allocation latency, µs (log)", fontsize=8)
    axes[0][0].legend(fontsize=7, loc="center left")
    fig.tight_layout()
    fig.savefig(out, dpi=100)


def main(argv):
    outdir = "."
    if argv[:1] == ["-o"]:
        if len(argv) < 2:
            sys.exit("plot-movable.py: -o needs a directory")
        outdir, argv = argv[1], argv[2:]
    if not argv or argv[0].startswith("-"):
        sys.exit(__doc__.split("\n\n")[1].strip())
    mem, pres = [], []
    for path in argv:
        m, p = parse(path)
        mem += m
        pres += p
    os.makedirs(outdir, exist_ok=True)
    if mem:
        plot_memory(mem, os.path.join(outdir, "movable-memory.png"))
        print(os.path.join(outdir, "movable-memory.png"))
    if pres:
        pres = medians(pres)
        plot_pressure(pres, os.path.join(outdir, "movable-pressure.png"))
        print(os.path.join(outdir, "movable-pressure.png"))
        plot_migrated(pres, os.path.join(outdir, "movable-migrated.png"))
        print(os.path.join(outdir, "movable-migrated.png"))
    if not mem and not pres:
        sys.exit("plot-movable.py: no MEMORY or PRESSURE line in " + " ".join(argv))


if __name__ == "__main__":
    main(sys.argv[1:])
