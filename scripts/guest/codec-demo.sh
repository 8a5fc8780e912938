#!/bin/sh
# scripts/boot-goni.sh --demo DIR: N camera frames (YUYV 640x480, default 6)
# through the codec at quality 90, written straight into DIR, which boot.sh
# shares with the guest at /host (--share):
#   camera-640x480-YUYV.yuyv     the captured frames, one after the other
#   codec-640x480-YUYV.mjpeg     the Motion-JPEG stream
#   codec-640x480-YUYV-SEQ.jpg   each encoded frame
#   demo.txt                     what they hold: "RAW YUYV 640 480 SEQS FILE"
#                                and "MJPEG YUYV 640 480 SEQS SIZES FILE"
#   gstreamer/frame-NN.jpg       the same camera encoded by the codec through
#                                GStreamer (v4l2src ! v4l2jpegenc, zero copy)
# and prints "demo: ..." progress lines.  On the host, codec_check.py demo
# DIR turns the frames into PNG files and decodes and checks each JPEG.
# shellcheck source=../../tests/guest/lib.sh
set -u
. /tests/lib.sh
# shellcheck source=../../tests/guest/camera-lib.sh
. /tests/camera-lib.sh
# shellcheck source=../../tests/guest/codec-lib.sh
. /tests/codec-lib.sh

n=${1:-6} w=640 h=480 out=/host
CAM=$(cam_node)
CODEC=$(codec_node)
if ! grep -q " $out 9p " /proc/mounts; then
	echo "demo: error: no shared directory at $out (boot.sh --demo shares DIR there)"
	exit 1
fi
if [ -z "$CAM" ] || [ -z "$CODEC" ]; then
	echo "demo: error: no camera ('$CAM') or codec ('$CODEC') video device"
	exit 1
fi
raw=camera-${w}x$h-YUYV.yuyv base=codec-${w}x$h-YUYV
rm -f $out/demo.txt $out/$raw $out/$base.mjpeg $out/$base-*.jpg
if ! grab YUYV "$w" "$h" "$n" /tmp/raw; then
	echo "demo: error: capturing $n frames from $CAM failed:"
	tail -n 5 /tmp/grab.log | sed 's/^/demo:   /'
	exit 1
fi
echo "demo: captured $n YUYV ${w}x$h frames from the camera ($CAM), sequence $SEQS"
# Encoded into /tmp, then copied: v4l2-ctl writes straight from the
# buffers it mmaps from the driver, which 9p's zero-copy path cannot pin,
# so a stream written to /host directly comes out short (docs/driver-loop.md).
if ! encode YUYV "$w" "$h" "$n" /tmp/raw /tmp/out.mjpeg 90; then
	echo "demo: error: encoding on $CODEC failed:"
	tail -n 5 /tmp/enc.log | sed 's/^/demo:   /'
	exit 1
fi
echo "demo: encoded them on the codec ($CODEC, quality 90): frames of $SIZES bytes"
cp /tmp/raw $out/$raw && cp /tmp/out.mjpeg $out/$base.mjpeg || exit 1
# one file a frame: SIZES are the frames' lengths in the stream, in order
pos=0 i=0
for size in $(echo "$SIZES" | tr , ' '); do
	i=$((i + 1))
	seq=$(echo "$SEQS" | cut -d, -f$i)
	tail -c +$((pos + 1)) /tmp/out.mjpeg | head -c "$size" >"$out/$base-$seq.jpg" || exit 1
	pos=$((pos + size))
done
{
	echo "RAW YUYV $w $h $SEQS $raw"
	echo "MJPEG YUYV $w $h $SEQS $SIZES $base.mjpeg"
} >$out/demo.txt
echo "demo: wrote them into the shared directory ($out)"

# The same through GStreamer, zero copy: the codec imports the camera's
# buffers (dmabuf).  Written to /tmp, then copied, as above.
pipeline="v4l2src device=$CAM io-mode=dmabuf num-buffers=$n !"
pipeline="$pipeline video/x-raw,format=YUY2,width=$w,height=$h !"
pipeline="$pipeline v4l2jpegenc output-io-mode=dmabuf-import !"
pipeline="$pipeline multifilesink location=/tmp/gst/frame-%02d.jpg"
echo "demo: GStreamer: gst-launch-1.0 $pipeline"
rm -rf /tmp/gst $out/gstreamer
mkdir -p /tmp/gst $out/gstreamer || exit 1
set -f
# shellcheck disable=SC2086 # the pipeline is words
if ! gst-launch-1.0 -q $pipeline >/tmp/gst.log 2>&1; then
	echo "demo: error: the GStreamer pipeline failed:"
	tail -n 5 /tmp/gst.log | sed 's/^/demo:   /'
	exit 1
fi
set +f
cp /tmp/gst/frame-*.jpg $out/gstreamer/ || exit 1
# shellcheck disable=SC2010 # (our own files' names: frame-NNN.jpg)
echo "demo: GStreamer wrote $(ls /tmp/gst | grep -c '^frame-') JPEG frames into $out/gstreamer"
