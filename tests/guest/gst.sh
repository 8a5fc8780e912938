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
#               NV12 on the single-planar camera, multiplanar=1, at the
#               end; not at DMABUF_SKIP: at 1920x1080 the board's 8 MiB
#               camera region holds 2 of the 4 buffers v4l2src asks for,
#               and v4l2src then copies frames out of them, which the
#               codec cannot import: the suite runs that size again with
#               DMABUF_ONLY=1 on a boot with a larger region)
#   test-jpeg   videotestsrc ! tee: the raw frames, and v4l2jpegenc's
# and once (the first SIZE, YUY2): cam-dec, v4l2src ! v4l2jpegenc !
# jpegparse ! jpegdec ! videoconvert ! YUY2 frames (decoded in the guest).
# Each pipeline's files go to OUTDIR/CASE/ (f-NNN.raw, f-NNN.jpg, its
# log gst.log), one line a case in OUTDIR/gst.txt:
#   CASE KIND FOURCC W H STATUS FILES SECONDS
# The host checks the files (tests/lib/gst_check.py).  The pipelines write
# to /tmp and the files are copied to /host: a write to the 9p share from
# a V4L2 buffer's mapping fails (EFAULT; docs/driver-loop.md).
#
# cam-dec runs under gst-launch-1.0, as a user runs a pipeline; the other
# cases are queued and run in one gst-run process (tools/gst) a camera
# module: GStreamer's start-up (about 1 s in this guest) is paid twice a
# boot instead of once a pipeline.  (One process for both does not do:
# GStreamer 1.22's v4l2 elements keep their device open after their
# pipeline is freed, so the camera's module cannot be unloaded while that
# process lives, "Resource temporarily unavailable".)  A case's SECONDS
# are its pipeline's (gst-launch-1.0's: the whole command).
tmp=/tmp/gst

node() { # NAME: the /dev/videoN whose sysfs name is NAME
	for n in /sys/class/video4linux/video*; do
		[ "$(cat "$n/name")" = "$1" ] && { echo "/dev/${n##*/}"; return; }
	done
}

# (gst-run's "!" lines)  gst.sh --file OUTDIR CASE KIND FOURCC W H: file
# the case $tmp holds, with gst-run's GST_RUN_STATUS and GST_RUN_SECONDS.
if [ "$1" = --file ]; then
	out=$2 c=$3
	n=0
	for x in "$tmp"/f-*; do [ -e "$x" ] && n=$((n + 1)); done
	mkdir -p "$out/$c" && cp "$tmp"/* "$out/$c/" || exit 1
	echo "$c $4 $5 $6 $7 $GST_RUN_STATUS $n $GST_RUN_SECONDS" >>"$out/gst.txt"
	rm -rf "$tmp"
	exit 0
fi

out=$1 frames=$2
shift 2
mkdir -p "$out" || exit 1
: >"$out/gst.txt"
list=/tmp/gst.list
: >"$list"

CAM=$(node s5pv210-camera)
[ -n "$CAM" ] || { echo "no camera"; exit 1; }

run() { # CASE KIND FOURCC W H PIPELINE...: queued for gst-run
	echo "!rm -rf $tmp && mkdir -p $tmp" >>"$list"
	c=$1 kind=$2 f=$3 w=$4 h=$5
	shift 5
	echo ">$tmp/gst.log $*" >>"$list"
	echo "!sh $0 --file $out $c $kind $f $w $h" >>"$list"
}

gst_run() { # the queued cases, in one gst-run
	# status 1: a pipeline failed (gst.txt says which); 2 or 3: gst-run
	# could not start, or a "!" line failed (a case not filed)
	gst-run <"$list"
	rc=$?
	: >"$list"
	[ $rc -le 1 ] || { echo "gst-run: exit status $rc"; exit 1; }
}

launch() { # CASE KIND FOURCC W H PIPELINE...: now, under gst-launch-1.0
	c=$1 kind=$2 f=$3 w=$4 h=$5
	shift 5
	rm -rf "$tmp" && mkdir -p "$tmp"
	t0=$(cut -d. -f1 /proc/uptime)
	gst-launch-1.0 -q "$@" >"$tmp/gst.log" 2>&1
	GST_RUN_STATUS=$?
	GST_RUN_SECONDS=$(($(cut -d. -f1 /proc/uptime) - t0))
	export GST_RUN_STATUS GST_RUN_SECONDS
	sh "$0" --file "$out" "$c" "$kind" "$f" "$w" "$h"
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
		[ $f = NV12 ] || [ "$size" = "$DMABUF_SKIP" ] || dmabuf $f $w $h
		run "test-jpeg-$f-$size" test-jpeg $f $w $h \
			videotestsrc num-buffers="$frames" ! "$caps,framerate=30/1" ! tee name=t \
			t. ! queue ! multifilesink location="$tmp/f-%03d.raw" \
			t. ! queue ! v4l2jpegenc ! multifilesink location="$tmp/f-%03d.jpg"
		if [ $first = 1 ] && [ $f = YUY2 ]; then
			launch "cam-dec-$f-$size" cam-dec $f $w $h \
				v4l2src device="$CAM" num-buffers="$frames" ! "$caps" ! \
				v4l2jpegenc ! jpegparse ! jpegdec ! videoconvert ! video/x-raw,format=YUY2 ! \
				multifilesink location="$tmp/f-%03d.raw"
		fi
	done
	first=0
done

# NV12 zero copy: on the multi-planar camera GStreamer takes NM12 (two
# buffers) for NV12, which the single-planar codec cannot import; the
# single-planar camera (multiplanar=1) gives it NV12 in one buffer.
gst_run
rmmod s5pv210_camera && modprobe s5pv210-camera multiplanar=1 || exit 1
sleep 1
CAM=$(node s5pv210-camera)
for size in "$@"; do
	[ "$size" = "$DMABUF_SKIP" ] || dmabuf NV12 "${size%x*}" "${size#*x}"
done
gst_run
rmmod s5pv210_camera && modprobe s5pv210-camera || exit 1
sync
