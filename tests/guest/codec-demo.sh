#!/bin/sh
# scripts/boot-goni.sh --demo: N camera frames (YUYV 640x480, default 6)
# through the codec at quality 90.  Prints "demo: ..." progress lines and
# two files for the host (base64): the captured frames, gzipped, between
# "BEGIN-FILE RAW YUYV 640 480 SEQS" and "END-FILE RAW", and the Motion-JPEG
# stream between "BEGIN-FILE MJPEG YUYV 640 480 SEQS SIZES" and
# "END-FILE MJPEG" (tests/suites/codec_check.py extract writes them out).
. /tests/lib.sh
. /tests/camera-lib.sh
. /tests/codec-lib.sh

n=${1:-6} w=640 h=480
CAM=$(cam_node)
CODEC=$(codec_node)
if [ -z "$CAM" ] || [ -z "$CODEC" ]; then
	echo "demo: error: no camera ('$CAM') or codec ('$CODEC') video device"
	exit 1
fi
if ! grab YUYV $w $h $n /tmp/raw; then
	echo "demo: error: capturing $n frames from $CAM failed:"
	tail -n 5 /tmp/grab.log | sed 's/^/demo:   /'
	exit 1
fi
echo "demo: captured $n YUYV ${w}x$h frames from the camera ($CAM), sequence $SEQS"
if ! encode YUYV $w $h $n /tmp/raw /tmp/out.mjpeg 90; then
	echo "demo: error: encoding on $CODEC failed:"
	tail -n 5 /tmp/enc.log | sed 's/^/demo:   /'
	exit 1
fi
echo "demo: encoded them on the codec ($CODEC, quality 90): frames of $SIZES bytes"
gzip -c /tmp/raw >/tmp/raw.gz
emit RAW /tmp/raw.gz YUYV $w $h $SEQS
emit MJPEG /tmp/out.mjpeg YUYV $w $h $SEQS $SIZES
