#!/usr/bin/env python3
"""The emulated camera's test pattern, recomputed from its definition
(docs/camera.md), to check frames captured in the guest.

    camera_pattern.py check < lines      # lines: FRAME <fourcc> <w> <h> <ctrl> <seq> <sha256>
    camera_pattern.py frame FOURCC W H CTRL SEQ > file   # write one frame

FOURCC is YUYV, NV12 (Y plane then CbCr plane) or NM12 (NV12M: the two
planes one after the other, as v4l2-ctl --stream-to writes them); CTRL is
the flip bits (1 horizontal, 2 vertical); lines have no padding
(bytesperline = width * bytes per pixel).  "check" prints one TAP line per
frame and exits 1 if any differs.
"""
import hashlib
import sys

BARS = [(180, 128, 128), (162, 44, 142), (131, 156, 44), (112, 72, 58),
        (84, 184, 198), (65, 100, 212), (35, 212, 114), (16, 128, 128)]


def source_rows(w, h, seq):
    """Yield (Y, Cb, Cr) lists for each source row P(., y)."""
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


def frame(fourcc, w, h, ctrl, seq):
    rows = list(source_rows(w, h, seq))
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
        if len(f) != 7 or f[0] != "FRAME":
            continue
        fourcc, w, h, ctrl, seq, got = f[1], int(f[2]), int(f[3]), int(f[4]), int(f[5]), f[6]
        key = (fourcc, w, h, ctrl, seq)
        if key not in cache:
            cache[key] = hashlib.sha256(frame(fourcc, w, h, ctrl, seq)).hexdigest()
        what = "%s %dx%d flip %d frame %d: every pixel as the pattern defines" % (fourcc, w, h, ctrl, seq)
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
    if len(sys.argv) == 7 and sys.argv[1] == "frame":
        sys.stdout.buffer.write(frame(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]),
                                      int(sys.argv[5]), int(sys.argv[6])))
        return
    sys.exit(__doc__)


if __name__ == "__main__":
    main()
