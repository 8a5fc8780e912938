#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Generate the benchmark traces (format: tools/cma/trace.h, docs/benchmarks.md).

    bench/traces/gen-traces.py [OUTDIR]      (default: the script's directory)

Writes media.trace and random.trace.  Both come from a fixed seed and a
pseudo-random generator of our own (xorshift64*), so the files are the
same on every machine and Python version; tests/suites/25-bench-smoke.sh
checks that the committed files are what this script writes.

media.trace: a camera and a video codec sharing the board, as on Goni:
  - codec firmware, 512 KiB aligned to 128 KiB (kind fw), loaded once;
  - per session (one resolution): the camera's ring of 6 NV12 frames, the
    codec's picture buffers (luma on kind a, chroma on kind b, 8 KiB
    aligned, the MFC's port split), its per-instance context buffers
    (128 KiB aligned) and a stream of short-lived bitstream buffers and
    still captures while frames flow;
  - a resolution change frees everything in a random order and allocates
    again at the new size.
  Region sizes (the trace's cma line) are the peak live bytes of each
  region rounded up to 64 KiB: a perfect allocator just fits, and any
  fragmentation makes a request fail.

random.trace: random devices, sizes 4 KiB..4 MiB (log-uniform), random
alignments, a live set that wanders between 0 and about 200 chunks, in one
region sized to its peak live bytes rounded up to 1 MiB.
"""
import os
import sys

MASK = (1 << 64) - 1


class Rng:
    """xorshift64*: deterministic everywhere."""

    def __init__(self, seed):
        self.s = seed & MASK or 1

    def next(self):
        s = self.s
        s ^= s >> 12
        s ^= (s << 25) & MASK
        s ^= s >> 27
        self.s = s
        return (s * 0x2545F4914F6CDD1D) & MASK

    def below(self, n):
        return self.next() % n

    def chance(self, pct):
        return self.below(100) < pct

    def choice(self, seq):
        return seq[self.below(len(seq))]

    def shuffle(self, seq):
        for i in range(len(seq) - 1, 0, -1):
            j = self.below(i + 1)
            seq[i], seq[j] = seq[j], seq[i]


PAGE = 4096
KiB, MiB = 1024, 1024 * 1024


def page(n):
    return (n + PAGE - 1) // PAGE * PAGE


def up(n, a):
    return (n + a - 1) // a * a


class Trace:
    def __init__(self, route):
        self.lines = []
        self.next_id = 1
        self.live = {}          # id -> (region, bytes)
        self.route = route      # (dev, kind) -> region
        self.used = {}
        self.peak = {}
        self.allocs = self.frees = 0

    def alloc(self, dev, kind, size, align=0):
        i = self.next_id
        self.next_id += 1
        self.lines.append("alloc %d %s %s 0x%x 0x%x" % (i, dev, kind or "-", size, align))
        r = self.route(dev, kind)
        self.live[i] = (r, page(size))
        self.used[r] = self.used.get(r, 0) + page(size)
        self.peak[r] = max(self.peak.get(r, 0), self.used[r])
        self.allocs += 1
        return i

    def free(self, i):
        r, n = self.live.pop(i)
        self.used[r] -= n
        self.lines.append("free %d" % i)
        self.frees += 1

    def write(self, path, header):
        with open(path, "w") as f:
            f.write("# cma-test record 1\n")
            for h in header:
                f.write(h + "\n")
            f.write("\n".join(self.lines) + "\n")


CAM, CODEC = "s5p-cam", "s5p-codec"
MEDIA_ROUTE = {(CAM, ""): "cam", (CAM, "y"): "cam", (CODEC, "a"): "codec-a",
               (CODEC, "b"): "codec-b", (CODEC, "fw"): "codec-fw"}
RESOLUTIONS = [(1280, 720), (640, 480), (1920, 1088), (1280, 720), (720, 576),
               (1920, 1088), (320, 240), (1280, 720), (800, 480), (1920, 1088),
               (1280, 720), (640, 480)]


def media(seed=20100720):
    rng = Rng(seed)
    t = Trace(lambda d, k: MEDIA_ROUTE[(d, k)])
    fw = t.alloc(CODEC, "fw", 512 * KiB, 128 * KiB)
    for w, h in RESOLUTIONS:
        held = []
        nv12 = w * h * 3 // 2
        luma = up(up(w, 128) * up(h, 32), 8 * KiB)
        chroma = up(up(w, 128) * up(h // 2, 32), 8 * KiB)
        dpb = 4 if w * h > 1280 * 720 else 6
        steps = [("cam", None), ("codec", None)]
        rng.shuffle(steps)
        for what, _ in steps:
            if what == "cam":
                held += [t.alloc(CAM, "", nv12) for _ in range(6)]
            else:
                # per-instance context: 128 KiB aligned, one per port
                held.append(t.alloc(CODEC, "a", up(w * h // 8, PAGE), 128 * KiB))
                held.append(t.alloc(CODEC, "b", up(w * h // 16, PAGE), 128 * KiB))
                for _ in range(dpb):
                    held.append(t.alloc(CODEC, "a", luma, 8 * KiB))
                    held.append(t.alloc(CODEC, "b", chroma, 8 * KiB))
        # frames flow: bitstream buffers and still captures come and go
        flying = []
        for _ in range(150):
            if flying and (len(flying) > 6 or rng.chance(45)):
                t.free(flying.pop(rng.below(len(flying))))
            elif rng.chance(85):
                n = up(max(nv12 // (4 + rng.below(28)), 16 * KiB), 2 * KiB)
                flying.append(t.alloc(CODEC, "a" if rng.chance(50) else "b", n, 8 * KiB))
            else:
                flying.append(t.alloc(CAM, "y", w * h))
        # resolution change: everything goes, in a random order
        rest = held + flying
        rng.shuffle(rest)
        for i in rest:
            t.free(i)
    t.free(fw)
    regions = ["cam", "codec-a", "codec-b", "codec-fw"]
    sizes = {r: up(t.peak[r], 64 * KiB) for r in regions}
    sizes["codec-fw"] = 1 * MiB
    cma = "cma " + ";".join(
        "%s=%dK%s" % (r, sizes[r] // KiB, "/128K" if r == "codec-fw" else "") for r in regions)
    cma_map = ("cma_map %s/*=cam;%s/a=codec-a;%s/b=codec-b;%s/fw=codec-fw"
               % (CAM, CODEC, CODEC, CODEC))
    peaks = ", ".join("%s %d KiB" % (r, t.peak[r] // KiB) for r in regions)
    t.header = ["# media: camera ring + codec picture buffers over %d resolution changes, "
                "seed %d" % (len(RESOLUTIONS) - 1, seed),
                "# %d allocations, %d frees; peak live bytes: %s" % (t.allocs, t.frees, peaks),
                cma, cma_map]
    return t


def random_trace(seed=12345, ops=6000):
    rng = Rng(seed)
    devs = [("dev0", ""), ("dev1", "a"), ("dev1", "b"), ("dev2", "")]
    aligns = [0, 0, 0, 4 * KiB, 64 * KiB, 128 * KiB, 1 * MiB]
    t = Trace(lambda d, k: "r")
    live = []
    target = 100
    for n in range(ops):
        if n % 500 == 0:
            target = 20 + rng.below(180)
        if live and (len(live) > target or rng.chance(40)):
            t.free(live.pop(rng.below(len(live))))
        else:
            shift = 12 + rng.below(9)                       # 4 KiB .. 2 MiB
            size = (1 << shift) + rng.below(1 << shift)
            d, k = rng.choice(devs)
            live.append(t.alloc(d, k, size, rng.choice(aligns)))
    for i in live:
        t.free(i)
    size = up(t.peak["r"], MiB)
    t.header = ["# random: %d operations, seed %d; peak live bytes %d KiB"
                % (ops, seed, t.peak["r"] // KiB),
                "cma r=%dM" % (size // MiB), "cma_map */*=r"]
    return t


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    os.makedirs(out, exist_ok=True)
    for name, t in (("media", media()), ("random", random_trace())):
        path = os.path.join(out, name + ".trace")
        t.write(path, t.header)
        print("%s: %d allocations, %d frees" % (path, t.allocs, t.frees))


if __name__ == "__main__":
    main()
