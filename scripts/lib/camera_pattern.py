#!/usr/bin/env python3
"""The emulated camera's test pattern, recomputed from its definition
(docs/camera.md), to check frames captured in the guest.

    camera_pattern.py check < lines      # lines: FRAME <fourcc> <w> <h> <ctrl> <seq> <sha256> [<pattern>]
    camera_pattern.py frame FOURCC W H CTRL SEQ [PATTERN] > file   # write one frame

FOURCC is YUYV, NV12 (Y plane then CbCr plane) or NM12 (NV12M: the two
planes one after the other, as v4l2-ctl --stream-to writes them); CTRL is
the flip bits (1 horizontal, 2 vertical); lines have no padding
(bytesperline = width * bytes per pixel); PATTERN is the camera's PATTERN
register (the driver's test_pattern control): 0 colour bars (the
default), 1 gradients and noise.  "check" prints one TAP line per frame
and exits 1 if any differs.
"""
import hashlib
import sys

BARS = [(180, 128, 128), (162, 44, 142), (131, 156, 44), (112, 72, 58),
        (84, 184, 198), (65, 100, 212), (35, 212, 114), (16, 128, 128)]


M32 = 0xffffffff


def noise(x, y, seq):
    """The gradient pattern's 32-bit hash of source pixel (x, y) of frame seq."""
    n = (x * 0x9e3779b1 + y * 0x85ebca77 + seq * 0xc2b2ae3d) & M32
    n ^= n >> 15
    n = (n * 0x2c1b3c6d) & M32
    n ^= n >> 12
    n = (n * 0x297a2d39) & M32
    n ^= n >> 15
    return n


def gradient_rows(w, h, seq):
    """Pattern 1: gradients, 1-pixel lines, diagonal stripes and noise."""
    band = [235 if (seq >> (31 - x * 32 // w)) & 1 else 16 for x in range(w)]
    grey = [128] * w
    gx = [16 + x * 160 // w + ((12 if x & 1 else -12) if x >= w * 3 // 4 else 0) for x in range(w)]
    cbx = [16 + x * 224 // w for x in range(w)]
    for y in range(h):
        if y < 8:
            yield band, grey, grey
            continue
        yy, cb, cr = [0] * w, [0] * w, [0] * w
        gy = y * 48 // h
        cry = 16 + y * 224 // h
        stripes = y >= h * 3 // 4
        for x in range(w):
            n = noise(x, y, seq)
            g = gx[x] + gy
            if stripes and x < w // 4:
                g += 12 if (x + y) & 2 else -12
            yy[x] = min(max(g + (n & 7) - 4, 16), 235)
            cb[x] = min(max(cbx[x] + ((n >> 8) & 3) - 2, 16), 240)
            cr[x] = min(max(cry + ((n >> 16) & 3) - 2, 16), 240)
        yield yy, cb, cr


def source_rows(w, h, seq, pattern=0):
    """Yield (Y, Cb, Cr) lists for each source row P(., y)."""
    if pattern == 1:
        yield from gradient_rows(w, h, seq)
        return
    size = (min(w, h) // 4) & ~1
    x0 = (4 * seq) % (w - size)
    y0 = (2 * seq) % (h - size)
    bar_y = [BARS[x * 8 // w][0] for x in range(w)]
    bar_cb = [BARS[x * 8 // w][1] for x in range(w)]
    bar_cr = [BARS[x * 8 // w][2] for x in range(w)]
    band = [235 if (seq >> (31 - x * 32 // w)) & 1 else 16 for x in range(w)]
    grey = [128] * w
    for y in range(h):
        if y < 8:
            yield band, grey, grey
            continue
        yy = [v + y % 16 for v in bar_y]
        cb, cr = bar_cb, bar_cr
        if y0 <= y < y0 + size:
            yy[x0:x0 + size] = [235] * size
            cb = cb[:]
            cr = cr[:]
            cb[x0:x0 + size] = [128] * size
            cr[x0:x0 + size] = [128] * size
        yield yy, cb, cr


def frame(fourcc, w, h, ctrl, seq, pattern=0):
    rows = list(source_rows(w, h, seq, pattern))
    if ctrl & 2:
        rows.reverse()
    if ctrl & 1:
        rows = [(y[::-1], cb[::-1], cr[::-1]) for y, cb, cr in rows]
    if fourcc == "YUYV":
        out = bytearray(2 * w * h)
        for n, (yy, cb, cr) in enumerate(rows):
            line = bytearray(2 * w)
            line[0::4] = bytes(yy[0::2])
            line[1::4] = bytes(cb[0::2])
            line[2::4] = bytes(yy[1::2])
            line[3::4] = bytes(cr[0::2])
            out[2 * w * n:2 * w * (n + 1)] = line
        return bytes(out)
    if fourcc in ("NV12", "NM12"):
        luma = b"".join(bytes(yy) for yy, _, _ in rows)
        chroma = bytearray()
        for yy, cb, cr in rows[0::2]:
            line = bytearray(w)
            line[0::2] = bytes(cb[0::2])
            line[1::2] = bytes(cr[0::2])
            chroma += line
        return luma + bytes(chroma)
    raise ValueError("unknown format " + fourcc)


def check(lines):
    failed = 0
    cache = {}
    for line in lines:
        f = line.split()
        if len(f) not in (7, 8) or f[0] != "FRAME":
            continue
        fourcc, w, h, ctrl, seq, got = f[1], int(f[2]), int(f[3]), int(f[4]), int(f[5]), f[6]
        pattern = int(f[7]) if len(f) == 8 else 0
        key = (fourcc, w, h, ctrl, seq, pattern)
        if key not in cache:
            cache[key] = hashlib.sha256(frame(fourcc, w, h, ctrl, seq, pattern)).hexdigest()
        what = "%s %dx%d flip %d frame %d%s: every pixel as the pattern defines" % (
            fourcc, w, h, ctrl, seq, " (gradients and noise)" if pattern else "")
        if got == cache[key]:
            print("ok - " + what)
        else:
            print("not ok - " + what)
            print("#   sha256 %s, expected %s" % (got, cache[key]))
            failed += 1
    return failed


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "check":
        sys.exit(1 if check(sys.stdin) else 0)
    if len(sys.argv) in (7, 8) and sys.argv[1] == "frame":
        sys.stdout.buffer.write(frame(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]),
                                      int(sys.argv[5]), int(sys.argv[6]),
                                      int(sys.argv[7]) if len(sys.argv) == 8 else 0))
        return
    sys.exit(__doc__)


if __name__ == "__main__":
    main()
