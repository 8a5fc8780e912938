#!/bin/sh
# GStreamer in the guest (tests/suites/38-gstreamer.sh boots the boards and
# runs this; docs/camera.md, "GStreamer"):
#
#   gst.sh OUTDIR FRAMES SIZE...
#
# For each SIZE (WxH) and each format both the camera and the codec offer
# (GStreamer's YUY2 and NV12), with FRAMES buffers each:
#   cam-raw     v4l2src ! multifilesink                        (raw frames)
#   cam-jpeg    v4l2src ! v4l2jpegenc ! multifilesink          (MMAP both)
#   cam-dmabuf  v4l2src io-mode=dmabuf !
#               v4l2jpegenc output-io-mode=dmabuf-import !     (zero copy;
#               NV12 is NV12M on both devices, GStreamer's choice when a
#               device offers it: the camera's two DMABUFs a frame are the
#               codec's two planes; not at DMABUF_SKIP: at 1920x1080 the board's 8 MiB
#               camera region holds 2 of the 4 buffers v4l2src asks for,
#               and v4l2src then copies frames out of them, which the
#               codec cannot import: the suite runs that size again with
#               DMABUF_ONLY=1 on a boot with a larger region)
#   test-jpeg   videotestsrc ! tee: the raw frames, and v4l2jpegenc's
# and once (the first SIZE, YUY2): cam-dec, v4l2src ! v4l2jpegenc !
# jpegparse ! jpegdec ! videoconvert ! YUY2 frames (decoded in the guest).
# Each pipeline's files go to OUTDIR/CASE/ (f-NNN.raw, f-NNN.jpg, its
# gst-launch log), one line a case in OUTDIR/gst.txt:
#   CASE KIND FOURCC W H STATUS FILES SECONDS
# The host checks the files (tests/lib/gst_check.py).  The pipelines write
# to /tmp and the files are copied to /host: a write to the 9p share from
# a V4L2 buffer's mapping fails (EFAULT; docs/driver-loop.md).
out=$1 frames=$2
shift 2
tmp=/tmp/gst
mkdir -p "$out" || exit 1
: >"$out/gst.txt"

node() { # NAME: the /dev/videoN whose sysfs name is NAME
	for n in /sys/class/video4linux/video*; do
		[ "$(cat "$n/name")" = "$1" ] && { echo "/dev/${n##*/}"; return; }
	done
}
CAM=$(node s5pv210-camera)
[ -n "$CAM" ] || { echo "no camera"; exit 1; }

run() { # CASE KIND FOURCC W H PIPELINE...
	c=$1 kind=$2 f=$3 w=$4 h=$5
	shift 5
	rm -rf "$tmp" && mkdir -p "$tmp"
	t0=$(cut -d. -f1 /proc/uptime)
	gst-launch-1.0 -q "$@" >"$tmp/gst.log" 2>&1
	rc=$?
	t1=$(cut -d. -f1 /proc/uptime)
	mkdir -p "$out/$c"
	n=0
	for x in "$tmp"/f-*; do [ -e "$x" ] && n=$((n + 1)); done
	cp "$tmp"/* "$out/$c/"
	echo "$c $kind $f $w $h $rc $n $((t1 - t0))" >>"$out/gst.txt"
	rm -rf "$tmp"
}

dmabuf() { # FOURCC W H: camera ! codec, zero copy
	run "cam-dmabuf-$1-${2}x$3" cam-dmabuf "$1" "$2" "$3" \
		v4l2src device="$CAM" io-mode=dmabuf num-buffers="$frames" ! \
		"video/x-raw,format=$1,width=$2,height=$3" ! \
		v4l2jpegenc output-io-mode=dmabuf-import ! multifilesink location="$tmp/f-%03d.jpg"
}

first=1
for size in "$@"; do
	w=${size%x*} h=${size#*x}
	if [ -n "${DMABUF_ONLY:-}" ]; then
		dmabuf YUY2 $w $h
		dmabuf NV12 $w $h
		continue
	fi
	for f in YUY2 NV12; do
		caps=video/x-raw,format=$f,width=$w,height=$h
		run "cam-raw-$f-$size" cam-raw $f $w $h \
			v4l2src device="$CAM" num-buffers="$frames" ! "$caps" ! \
			multifilesink location="$tmp/f-%03d.raw"
		run "cam-jpeg-$f-$size" cam-jpeg $f $w $h \
			v4l2src device="$CAM" num-buffers="$frames" ! "$caps" ! \
			v4l2jpegenc ! multifilesink location="$tmp/f-%03d.jpg"
		[ "$size" = "$DMABUF_SKIP" ] || dmabuf $f $w $h
		run "test-jpeg-$f-$size" test-jpeg $f $w $h \
			videotestsrc num-buffers="$frames" ! "$caps,framerate=30/1" ! tee name=t \
			t. ! queue ! multifilesink location="$tmp/f-%03d.raw" \
			t. ! queue ! v4l2jpegenc ! multifilesink location="$tmp/f-%03d.jpg"
		if [ $first = 1 ] && [ $f = YUY2 ]; then
			run "cam-dec-$f-$size" cam-dec $f $w $h \
				v4l2src device="$CAM" num-buffers="$frames" ! "$caps" ! \
				v4l2jpegenc ! jpegparse ! jpegdec ! videoconvert ! video/x-raw,format=YUY2 ! \
				multifilesink location="$tmp/f-%03d.raw"
		fi
	done
	first=0
done
sync
