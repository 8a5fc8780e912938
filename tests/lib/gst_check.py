#!/usr/bin/env python3
"""Check the files GStreamer pipelines wrote in the guest
(tests/guest/gst.sh) against the camera's pattern, on the host.

    gst_check.py DIR FRAMES [--min-psnr DB]

DIR/gst.txt lists the cases ("CASE KIND FOURCC W H STATUS FILES SECONDS
[FRAMES]": a case's own FRAMES, when given, instead of the argument's);
one TAP line a case, ok when its runner (gst-launch-1.0, gst-run's
pipeline, v4l2-ctl) gave status 0 and every file is right:
  cam-raw     FRAMES raw frames (tight, or with the driver's bytesperline);
              each is exactly the pattern frame its sequence-number band
              says (camera_pattern.py), the numbers increasing;
  v4l2-raw    one file, stream.raw, of FRAMES frames (v4l2-ctl's
              --stream-to), each checked as cam-raw's;
  cam-jpeg, cam-dmabuf, cam-plain
              FRAMES JPEG files: SOI ... EOI, decoded by djpeg to WxH,
              luma PSNR >= DB against the pattern frame their band says,
              the numbers increasing (luma: in RGB the camera's chroma,
              taken from every other pixel, differs from the full-
              resolution pattern at bar edges off the 2-pixel grid: 26-28
              dB at 200x150 and 32x16 before any encoding);
  s5p-enc     the camera to s5p-jpeg's encoder (the SoC's JPEG block): as
              cam-jpeg (every frame: GStreamer drains the encoder with
              V4L2_ENC_CMD_STOP at the end of stream, the series' s5p-jpeg drain fix);
  test-jpeg   FRAMES videotestsrc frames and their FRAMES JPEG files: each
              JPEG decodes to WxH with luma PSNR >= DB against its frame;
  cam-dec     FRAMES raw YUY2 frames jpegdec decoded in the guest: luma
              PSNR >= DB against the pattern frame their band says;
  s5p-rt      the camera through s5p-jpeg's encoder and decoder: as cam-dec.
Exit status 1 when a case fails.
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../scripts/lib"))
import camera_pattern  # noqa: E402
import codec_check  # noqa: E402

FOURCC = {"YUY2": "YUYV", "NV12": "NV12"}
_luma = {}


def ref_luma(w, h, seq):
    if (w, h, seq) not in _luma:
        _luma[w, h, seq] = b"".join(bytes(y) for y, _, _ in camera_pattern.source_rows(w, h, seq))
    return _luma[w, h, seq]


def psnr(a, b):
    se = sum((x - y) * (x - y) for x, y in zip(a, b))
    return float("inf") if se == 0 else 10 * math.log10(255 * 255 * len(a) / se)


def band_seq(luma, w):
    """The frame's sequence number, from row 4 of its band (rows 0-7)."""
    seq = 0
    for b in range(32):
        lo = -(-b * w // 32)
        hi = -(-(b + 1) * w // 32)
        seq = seq << 1 | (luma[4 * w + (lo + hi - 1) // 2] > 125)
    return seq


def layouts(fourcc, w, h, data):
    """The frame without line padding, for each layout a raw file may
    have: tight (GStreamer copies into its own stride, a buffer as long
    as the driver's sizeimage, the rest zero) or with the driver's
    bytesperline (the line rounded up to 16 bytes)."""
    lw = 2 * w if fourcc == "YUYV" else w
    lines = h if fourcc == "YUYV" else h + h // 2
    bpl = (lw + 15) // 16 * 16
    out = []
    if len(data) in (lw * lines, bpl * lines) and not any(data[lw * lines:]):
        out.append(data[:lw * lines])
    if len(data) == bpl * lines and bpl != lw:
        out.append(b"".join(data[i * bpl:i * bpl + lw] for i in range(lines)))
    if not out:
        raise ValueError("%d bytes: neither %d nor %d" % (len(data), lw * lines, bpl * lines))
    return out


def tight(fourcc, w, h, data):
    return layouts(fourcc, w, h, data)[0]


def luma_of(fourcc, w, h, data):
    return data[0:2 * w * h:2] if fourcc == "YUYV" else data[:w * h]


def files(d, ext):
    return sorted(f for f in os.listdir(d) if f.startswith("f-") and f.endswith(ext))


def check_case(d, kind, fourcc, w, h, frames, need):
    notes = []
    seqs = []
    if kind == "cam-raw":
        names = files(d, ".raw")
        if len(names) != frames:
            raise ValueError("%d raw files, not %d" % (len(names), frames))
        for n in names:
            good = False
            for data in layouts(fourcc, w, h, open(os.path.join(d, n), "rb").read()):
                seq = band_seq(luma_of(fourcc, w, h, data), w)
                good = data == camera_pattern.frame(fourcc, w, h, 0, seq)
                if good:
                    break
            if not good:
                raise ValueError("%s is not the pattern frame %d" % (n, seq))
            seqs.append(seq)
        notes.append("every pixel as the pattern")
    elif kind == "v4l2-raw":
        data = open(os.path.join(d, "stream.raw"), "rb").read()
        if not data or len(data) % frames:
            raise ValueError("stream.raw: %d bytes, not %d frames" % (len(data), frames))
        size = len(data) // frames
        for i in range(frames):
            good = False
            for frame in layouts(fourcc, w, h, data[i * size:(i + 1) * size]):
                seq = band_seq(luma_of(fourcc, w, h, frame), w)
                good = frame == camera_pattern.frame(fourcc, w, h, 0, seq)
                if good:
                    break
            if not good:
                raise ValueError("frame %d of stream.raw is not the pattern frame %d" % (i, seq))
            seqs.append(seq)
        notes.append("%d frames of %d bytes, every pixel as the pattern" % (frames, size))
    elif kind in ("cam-jpeg", "cam-dmabuf", "cam-plain", "s5p-enc"):
        names = files(d, ".jpg")
        if len(names) != frames:
            raise ValueError("%d JPEG files, not %d" % (len(names), frames))
        low = None
        for i, n in enumerate(names):
            jpeg = open(os.path.join(d, n), "rb").read()
            if jpeg[:2] != b"\xff\xd8" or jpeg[-2:] != b"\xff\xd9":
                raise ValueError("%s: no SOI/EOI" % n)
            gw, gh, _, luma = codec_check.djpeg(jpeg, "-grayscale")
            if (gw, gh) != (w, h):
                raise ValueError("%s decodes to %dx%d" % (n, gw, gh))
            seq = band_seq(luma, w)
            seqs.append(seq)
            p = psnr(luma, ref_luma(w, h, seq))
            if p < need:
                raise ValueError("%s (frame %d): PSNR %.1f dB < %g" % (n, seq, p, need))
            low = p if low is None else min(low, p)
        notes.append("%d-%d bytes, PSNR >= %.1f dB" % (
            min(os.path.getsize(os.path.join(d, n)) for n in names),
            max(os.path.getsize(os.path.join(d, n)) for n in names), low))
    elif kind == "test-jpeg":
        raws, jpegs = files(d, ".raw"), files(d, ".jpg")
        if len(raws) != frames or len(jpegs) != frames:
            raise ValueError("%d raw and %d JPEG files, not %d" % (len(raws), len(jpegs), frames))
        low = None
        for r, j in zip(raws, jpegs):
            raw = tight(fourcc, w, h, open(os.path.join(d, r), "rb").read())
            gw, gh, _, luma = codec_check.djpeg(open(os.path.join(d, j), "rb").read(), "-grayscale")
            if (gw, gh) != (w, h):
                raise ValueError("%s decodes to %dx%d" % (j, gw, gh))
            p = psnr(luma, luma_of(fourcc, w, h, raw))
            if p < need:
                raise ValueError("%s: PSNR %.1f dB < %g against %s" % (j, p, need, r))
            low = p if low is None else min(low, p)
        notes.append("luma PSNR >= %.1f dB against videotestsrc's frames" % low)
        return notes
    elif kind in ("cam-dec", "s5p-rt"):
        names = files(d, ".raw")
        if len(names) != frames:
            raise ValueError("%d raw files, not %d" % (len(names), frames))
        low = None
        for n in names:
            data = tight("YUYV", w, h, open(os.path.join(d, n), "rb").read())
            luma = luma_of("YUYV", w, h, data)
            seq = band_seq(luma, w)
            seqs.append(seq)
            p = psnr(luma, ref_luma(w, h, seq))
            if p < need:
                raise ValueError("%s (frame %d): PSNR %.1f dB < %g" % (n, seq, p, need))
            low = p if low is None else min(low, p)
        notes.append("luma PSNR >= %.1f dB" % low)
    else:
        raise ValueError("unknown kind " + kind)
    if any(b <= a for a, b in zip(seqs, seqs[1:])):
        raise ValueError("frame numbers not increasing: %s" % seqs)
    notes.insert(0, "frames %s" % ",".join(map(str, seqs)))
    return notes


def main():
    args = sys.argv[1:]
    need = 30.0
    if "--min-psnr" in args:
        i = args.index("--min-psnr")
        need = float(args[i + 1])
        del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    top, frames = args[0], int(args[1])
    failed = 0
    try:
        cases = [l.split() for l in open(os.path.join(top, "gst.txt")) if l.strip()]
    except OSError as e:
        print("not ok - no gst.txt: %s" % e)
        sys.exit(1)
    for c in cases:
        name, kind, f, w, h, rc, n, secs = c[0], c[1], c[2], int(c[3]), int(c[4]), c[5], c[6], c[7]
        nf = int(c[8]) if len(c) > 8 else frames
        runner = {"v4l2-raw": "v4l2-ctl", "cam-dec": "gst-launch-1.0",
                  "cam-plain": "gst-launch-1.0"}.get(kind, "gst-run pipeline")
        what = "%s: %s status %s, %s files in %s s" % (name, runner, rc, n, secs)
        try:
            if rc != "0":
                log = open(os.path.join(top, name, "gst.log"), errors="replace").read()
                raise ValueError("it failed: " + " | ".join(log.strip().splitlines()[:3]))
            notes = check_case(os.path.join(top, name), kind, FOURCC[f], w, h, nf, need)
            print("ok - %s; %s" % (what, "; ".join(notes)))
        except (OSError, ValueError, KeyError, IndexError) as e:
            print("not ok - %s: %s" % (what, e))
            failed += 1
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
