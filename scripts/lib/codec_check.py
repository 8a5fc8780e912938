#!/usr/bin/env python3
"""Check Motion-JPEG streams the codec encoded in the guest against the
camera's pattern (camera_pattern.py), with an independent decoder (djpeg,
libjpeg-turbo-progs).

    codec_check.py check [--min-psnr DB] < guest-output
        every "BEGIN-FILE MJPEG FOURCC W H SEQS SIZES [PATTERN]" block
        (base64, up to "END-FILE MJPEG"): split into frames by SIZES, each
        must start with SOI and end with EOI, decode, and reach DB (default
        30) of PSNR against the pattern frame SEQ, in luma and in RGB; one
        TAP line per frame; exit 1 if any fails.  PATTERN is the camera's
        (camera_pattern.py; 0, the colour bars, when absent); frames of
        pattern 1 (gradients and noise) must reach GRADIENT_MIN_PSNR.
    codec_check.py extract DIR [--min-psnr DB] < guest-output
        the same checks, and writes DIR/codec-<W>x<H>-<FOURCC>.mjpeg, each
        frame as .jpg, and every "BEGIN-FILE RAW FOURCC W H SEQS" block
        (gzip, base64: captured frames) as PNG images.
    codec_check.py demo DIR [--min-psnr DB]
        what scripts/guest/codec-demo.sh (boot.sh --demo DIR) wrote into DIR
        through the share, as DIR/demo.txt lists it ("RAW FOURCC W H SEQS
        FILE", "MJPEG FOURCC W H SEQS SIZES FILE"): each raw frame written
        out as a PNG image, each frame of the stream checked as above and
        found in its own DIR/codec-<W>x<H>-<FOURCC>-<SEQ>.jpg.
    codec_check.py image FILE SEQ [--min-psnr DB]
        FILE (an 8-bit RGB PNG as extract writes, or a JPEG file, decoded
        by djpeg) is the pattern frame SEQ: PSNR >= DB in RGB; one TAP line.
"""
import base64
import gzip
import math
import os
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import camera_pattern  # noqa: E402

# The colour bars are flat areas with edges on the 8x8 blocks: the codec
# encodes them almost losslessly (47-75 dB, "inf" at times), so their
# threshold says little.  Pattern 1 (gradients, 1-pixel lines, stripes,
# noise) loses detail in any JPEG encoder: at quality 75 its frames decode
# to 39.2-39.6 dB (luma and RGB, YUYV and NV12 640x480), at quality 90 to
# 40.7-42.1 dB (NV12 320x240), so a few dB below that is a real check.
GRADIENT_MIN_PSNR = 36.0


def blocks(lines):
    """Yield (tag, args, bytes) for each BEGIN-FILE ... END-FILE block."""
    cur = None
    for line in lines:
        line = line.strip()
        if line.startswith("BEGIN-FILE "):
            f = line.split()
            cur = (f[1], f[2:], [])
        elif line.startswith("END-FILE ") and cur:
            yield cur[0], cur[1], base64.b64decode("".join(cur[2]))
            cur = None
        elif cur is not None:
            cur[2].append(line)


def read_pnm(data):
    """(width, height, channels, pixel bytes) of a binary P5/P6 image."""
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos)
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    pos += 1
    ch = {b"P5": 1, b"P6": 3}[fields[0]]
    w, h = int(fields[1]), int(fields[2])
    return w, h, ch, data[pos:pos + w * h * ch]


def djpeg(jpeg, *opts):
    with tempfile.NamedTemporaryFile(suffix=".jpg") as f:
        f.write(jpeg)
        f.flush()
        r = subprocess.run(["djpeg", *opts, f.name], capture_output=True)
    if r.returncode != 0:
        raise ValueError("djpeg: " + r.stderr.decode(errors="replace").strip())
    return read_pnm(r.stdout)


def ycc_to_rgb(y, cb, cr):
    """JFIF (full range BT.601) Y'CbCr to R'G'B', as libjpeg does."""
    r = y + 1.402 * (cr - 128)
    g = y - 0.344136 * (cb - 128) - 0.714136 * (cr - 128)
    b = y + 1.772 * (cb - 128)
    return [min(255, max(0, int(round(v)))) for v in (r, g, b)]


# ycc_to_rgb's products, by the value of Cb or Cr: the same float
# operations in the same order, so rgb_row() gives ycc_to_rgb's bytes
_KR = [1.402 * (c - 128) for c in range(256)]
_KGB = [0.344136 * (c - 128) for c in range(256)]
_KGR = [0.714136 * (c - 128) for c in range(256)]
_KB = [1.772 * (c - 128) for c in range(256)]


def rgb_row(yy, cb, cr):
    """ycc_to_rgb() of a row's pixels, as bytes (R, G, B a pixel)."""
    out = bytearray(3 * len(yy))
    i = 0
    for y, b_, r_ in zip(yy, cb, cr):
        r = y + _KR[r_]
        g = y - _KGB[b_] - _KGR[r_]
        b = y + _KB[b_]
        out[i] = 0 if r < 0 else 255 if r > 255 else int(round(r))
        out[i + 1] = 0 if g < 0 else 255 if g > 255 else int(round(g))
        out[i + 2] = 0 if b < 0 else 255 if b > 255 else int(round(b))
        i += 3
    return out


_REFERENCE = {}


def reference(w, h, seq, pattern=0):
    """Luma bytes and RGB bytes of the pattern frame (no flip).  (The colour
    bars repeat their rows: each distinct row is converted once; a frame
    asked for again, by another stream of the same size, is computed once.)"""
    key = (w, h, seq, pattern)
    if key not in _REFERENCE:
        luma = bytearray()
        rgb = bytearray()
        rows = {}
        for yy, cb, cr in camera_pattern.source_rows(w, h, seq, pattern):
            luma += bytes(yy)
            if pattern == 1:
                rgb += rgb_row(yy, cb, cr)
                continue
            k = (bytes(yy), bytes(cb), bytes(cr))
            if k not in rows:
                rows[k] = rgb_row(yy, cb, cr)
            rgb += rows[k]
        _REFERENCE[key] = (bytes(luma), bytes(rgb))
    return _REFERENCE[key]


def psnr(a, b):
    se = sum((x - y) * (x - y) for x, y in zip(a, b))
    if se == 0:
        return float("inf")
    return 10 * math.log10(255 * 255 * len(a) / se)


def write_png(path, w, h, rgb):
    raw = b"".join(b"\0" + rgb[y * 3 * w:(y + 1) * 3 * w] for y in range(h))

    def chunk(kind, data):
        c = struct.pack(">I", len(data)) + kind + data
        return c + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))


def read_png(path):
    """(width, height, RGB bytes) of an 8-bit RGB, non-interlaced PNG."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if zlib.crc32(kind + body) & 0xffffffff != struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])[0]:
            raise ValueError("bad CRC in chunk " + kind.decode(errors="replace"))
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if (depth, ctype, interlace) != (8, 2, 0):
                raise ValueError("not 8-bit RGB non-interlaced")
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    out, prev, stride = bytearray(), bytearray(3 * w), 3 * w
    for y in range(h):
        ftype, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if ftype == 0:
            out += line
            prev = line
            continue
        for i in range(stride):
            a = line[i - 3] if i >= 3 else 0
            b = prev[i]
            c = prev[i - 3] if i >= 3 else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out += line
        prev = line
    return w, h, bytes(out)


def raw_to_rgb(fourcc, w, h, data):
    """One captured frame (YUYV or NV12, no padding) as RGB bytes."""
    out = bytearray()
    if w % 2 == 0:
        # a row at a time: each chroma sample serves two pixels
        for y in range(h):
            if fourcc == "YUYV":
                row = data[2 * w * y:2 * w * (y + 1)]
                yy, cb, cr = row[0::2], row[1::4], row[3::4]
            else:
                c = w * h + (y // 2) * w
                yy, cb, cr = data[y * w:(y + 1) * w], data[c:c + w:2], data[c + 1:c + w:2]
            out += rgb_row(yy, bytes(v for v in cb for _ in (0, 1)), bytes(v for v in cr for _ in (0, 1)))
        return bytes(out)
    for y in range(h):
        for x in range(w):
            if fourcc == "YUYV":
                p = 2 * (y * w + x)
                q = 4 * ((y * w + x) // 2)
                yy, cb, cr = data[p], data[q + 1], data[q + 3]
            else:
                c = w * h + (y // 2) * w + (x & ~1)
                yy, cb, cr = data[y * w + x], data[c], data[c + 1]
            out += bytes(ycc_to_rgb(yy, cb, cr))
    return bytes(out)


def check(lines, min_psnr, outdir=None):
    failed = 0
    streams = 0
    for tag, args, data in blocks(lines):
        if tag == "RAW" and outdir:
            fourcc, w, h, seqs = args[0], int(args[1]), int(args[2]), args[3].split(",")
            data = gzip.decompress(data)
            size = len(camera_pattern.frame(fourcc, w, h, 0, 0))
            for i, seq in enumerate(seqs):
                path = os.path.join(outdir, "camera-%dx%d-%s-%s.png" % (w, h, fourcc, seq))
                write_png(path, w, h, raw_to_rgb(fourcc, w, h, data[i * size:(i + 1) * size]))
                print("# wrote " + path)
            continue
        if tag != "MJPEG":
            continue
        streams += 1
        fourcc, w, h = args[0], int(args[1]), int(args[2])
        seqs = [int(s) for s in args[3].split(",")]
        sizes = [int(s) for s in args[4].split(",")]
        pattern = int(args[5]) if len(args) > 5 else 0
        need = GRADIENT_MIN_PSNR if pattern == 1 else min_psnr
        name = "%s %dx%d%s" % (fourcc, w, h, " gradients and noise" if pattern == 1 else "")
        if len(seqs) != len(sizes) or sum(sizes) != len(data):
            print("not ok - %s: %d frames, %d sizes, %d bytes for %d" %
                  (name, len(seqs), len(sizes), len(data), sum(sizes)))
            failed += 1
            continue
        if outdir:
            base = os.path.join(outdir, "codec-%dx%d-%s" % (w, h, fourcc))
            with open(base + ".mjpeg", "wb") as f:
                f.write(data)
            print("# wrote " + base + ".mjpeg")
        pos = 0
        for seq, size in zip(seqs, sizes):
            jpeg = data[pos:pos + size]
            pos += size
            what = "%s frame %d: %d bytes" % (name, seq, size)
            try:
                if jpeg[:2] != b"\xff\xd8" or jpeg[-2:] != b"\xff\xd9":
                    raise ValueError("no SOI/EOI")
                gw, gh, _, luma = djpeg(jpeg, "-grayscale")
                cw, ch, _, rgb = djpeg(jpeg, "-nosmooth")
                if (gw, gh) != (w, h) or (cw, ch) != (w, h):
                    raise ValueError("decoded %dx%d" % (cw, ch))
            except (ValueError, KeyError, IndexError) as e:
                print("not ok - %s: %s" % (what, e))
                failed += 1
                continue
            if outdir:
                path = "%s-%d.jpg" % (base, seq)
                with open(path, "wb") as f:
                    f.write(jpeg)
                print("# wrote " + path)
            ref_luma, ref_rgb = reference(w, h, seq, pattern)
            py, pc = psnr(luma, ref_luma), psnr(rgb, ref_rgb)
            line = "%s, decoded by djpeg: PSNR %.1f dB luma, %.1f dB RGB vs the pattern (>= %g)" % (
                what, py, pc, need)
            if py >= need and pc >= need:
                print("ok - " + line)
            else:
                print("not ok - " + line)
                failed += 1
    if streams == 0:
        print("not ok - no encoded stream came back")
        failed += 1
    return failed


def demo(outdir, min_psnr):
    """The files codec-demo.sh wrote into outdir (see the docstring)."""
    failed = 0
    try:
        with open(os.path.join(outdir, "demo.txt")) as f:
            manifest = [line.split() for line in f if line.strip()]
    except OSError as e:
        print("not ok - the demo wrote no demo.txt: %s" % e)
        return 1
    lines = []
    for m in manifest:
        path = os.path.join(outdir, m[-1])
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            print("not ok - %s: %s" % (path, e))
            failed += 1
            continue
        print("# wrote " + path)
        if m[0] == "RAW":
            fourcc, w, h, seqs = m[1], int(m[2]), int(m[3]), m[4].split(",")
            size = len(camera_pattern.frame(fourcc, w, h, 0, 0))
            if len(data) != size * len(seqs):
                print("not ok - %s: %d bytes, not %d frames of %d" %
                      (path, len(data), len(seqs), size))
                failed += 1
                continue
            for i, seq in enumerate(seqs):
                png = os.path.join(outdir, "camera-%dx%d-%s-%s.png" % (w, h, fourcc, seq))
                write_png(png, w, h, raw_to_rgb(fourcc, w, h, data[i * size:(i + 1) * size]))
                print("# wrote " + png)
        elif m[0] == "MJPEG":
            fourcc, w, h, seqs, sizes = m[1], int(m[2]), int(m[3]), m[4], m[5]
            pos = 0
            for seq, size in zip(seqs.split(","), (int(x) for x in sizes.split(","))):
                jpg = os.path.join(outdir, "codec-%dx%d-%s-%s.jpg" % (w, h, fourcc, seq))
                try:
                    with open(jpg, "rb") as f:
                        same = f.read() == data[pos:pos + size]
                except OSError:
                    same = False
                if not same:
                    print("not ok - %s is not frame %s of the stream" % (jpg, seq))
                    failed += 1
                else:
                    print("# wrote " + jpg)
                pos += size
            lines += ["BEGIN-FILE MJPEG %s %d %d %s %s" % (fourcc, w, h, seqs, sizes),
                      base64.b64encode(data).decode(), "END-FILE MJPEG"]
    return failed + check(lines, min_psnr)


def main():
    args = sys.argv[1:]
    min_psnr = 30.0
    if "--min-psnr" in args:
        i = args.index("--min-psnr")
        min_psnr = float(args[i + 1])
        del args[i:i + 2]
    if args == ["check"]:
        sys.exit(1 if check(sys.stdin, min_psnr) else 0)
    if len(args) == 3 and args[0] == "image":
        seq = int(args[2])
        try:
            if args[1].endswith(".png"):
                w, h, rgb = read_png(args[1])
                kind = "PNG"
            else:
                with open(args[1], "rb") as f:
                    w, h, _, rgb = djpeg(f.read(), "-nosmooth")
                kind = "JPEG decoded by djpeg"
        except (OSError, ValueError, KeyError, struct.error, zlib.error) as e:
            print("not ok - %s: %s" % (args[1], e))
            sys.exit(1)
        p = psnr(rgb, reference(w, h, seq)[1])
        line = "%s: %dx%d %s, PSNR %.1f dB vs the pattern frame %d (>= %g)" % (
            os.path.basename(args[1]), w, h, kind, p, seq, min_psnr)
        print(("ok - " if p >= min_psnr else "not ok - ") + line)
        sys.exit(0 if p >= min_psnr else 1)
    if len(args) == 2 and args[0] == "demo":
        sys.exit(1 if demo(args[1], min_psnr) else 0)
    if len(args) == 2 and args[0] == "extract":
        os.makedirs(args[1], exist_ok=True)
        sys.exit(1 if check(sys.stdin, min_psnr, args[1]) else 0)
    sys.exit(__doc__)


if __name__ == "__main__":
    main()
