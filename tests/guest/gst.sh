#!/bin/sh
# GStreamer in the guest (tests/suites/38-gstreamer.sh boots the boards and
# runs this; docs/camera.md, "GStreamer"):
#
#   [PLAIN="WxH..." PLAIN_FRAMES=N] gst.sh OUTDIR FRAMES SIZE...
#
# For each SIZE (WxH) and each format both the camera and the codec offer
# (GStreamer's YUY2 and NV12), with FRAMES buffers each:
#   cam-raw     v4l2src ! multifilesink                        (raw frames)
#   cam-jpeg    v4l2src ! v4l2jpegenc ! multifilesink          (MMAP both)
#   cam-dmabuf  v4l2src io-mode=dmabuf !
#               v4l2jpegenc output-io-mode=dmabuf-import !     (zero copy;
#               NV12 is NV12M on both devices, GStreamer's choice when a
#               device offers it: the camera's two DMABUFs a frame are the
#               codec's two planes; 1920x1080 too, in the board's 24 MiB
#               camera region)
#   test-jpeg   videotestsrc ! tee: the raw frames, and v4l2jpegenc's
# and once (the first SIZE, YUY2): cam-dec, v4l2src ! v4l2jpegenc !
# jpegparse ! jpegdec ! videoconvert ! YUY2 frames (decoded in the guest).
# and for each S5P_ENC_SIZES size (WxH, YUY2): s5p-enc, the camera to the SoC's
# JPEG block, mainline's s5p-jpeg: v4l2src ! YUY2 ! s5p-jpeg's encoder !
# JPEG files (in gst-run), checked as cam-jpeg's (every frame: GStreamer
# drains the encoder at the end of stream, V4L2_ENC_CMD_STOP, kernel patch
# 0055).  GStreamer names a V4L2 codec after its node unless it is
# the first of its kind (v4l2jpegenc is the codec's): s5p-jpeg's
# elements are the video4linux2 features whose device is its node, found
# with gst-inspect-1.0 and written to OUTDIR/s5p-elements.txt
# ("enc|dec ELEMENT NODE").  And for each S5P_ENC_SIZES size, s5p-rt: the
# round trip through the block, v4l2src ! YUY2 ! s5p-jpeg's encoder !
# s5p-jpeg's decoder ! YUY2 frames, checked as cam-dec's (the decoder
# keeps a header a buffer, the series' decoder fix: GStreamer queues several).
# Those pipelines write to /tmp, and the files are copied to OUTDIR.
# Then, straight to OUTDIR (the host folder, 9p; before the series' 9p fix
# a write from a V4L2 buffer's mapping failed there with EFAULT):
#   cam-plain   for each PLAIN size, YUY2 and NV12, the pipeline as a new
#               user types it (issue 24): v4l2src io-mode=dmabuf
#               num-buffers=PLAIN_FRAMES ! video/x-raw,format=F,width=W,
#               height=H ! v4l2jpegenc output-io-mode=dmabuf-import !
#               multifilesink location=OUTDIR/CASE/f-%02d.jpg, v4l2src's
#               own buffer count, the default device;
#   v4l2-raw    v4l2-ctl --stream-mmap --stream-to=OUTDIR/CASE/stream.raw
#               (YUYV 1280x720, NM12 640x480: FRAMES frames).
# Each case's files go to OUTDIR/CASE/ (f-NNN.raw, f-NNN.jpg, its log
# gst.log), one line a case in OUTDIR/gst.txt:
#   CASE KIND FOURCC W H STATUS FILES SECONDS FRAMES
# The host checks the files (tests/lib/gst_check.py).
#
# cam-dec, the cam-plain cases and v4l2-raw run as a user runs them
# (gst-launch-1.0, v4l2-ctl); the other cases (cam-raw, cam-jpeg,
# cam-dmabuf, test-jpeg) are queued and run by one gst-run process
# (tools/gst): GStreamer's start-up (about 1 s in this guest) is paid once
# a boot instead of once a pipeline.  Each pipeline there is parsed anew,
# set to PLAYING until its end of stream, set to NULL and freed, as
# gst-launch-1.0 does.  A case's SECONDS are its pipeline's (under
# gst-launch-1.0: the whole command).
set -u
tmp=/tmp/gst

# (gst-run's "!" lines)  gst.sh --file OUTDIR CASE KIND FOURCC W H FRAMES:
# file the case $tmp holds, with GST_RUN_STATUS and GST_RUN_SECONDS.
if [ "${1:-}" = --file ]; then
	out=$2 c=$3
	n=0
	for x in "$tmp"/f-*; do [ -e "$x" ] && n=$((n + 1)); done
	mkdir -p "$out/$c" && cp "$tmp"/* "$out/$c/" || exit 1
	echo "$c $4 $5 $6 $7 $GST_RUN_STATUS $n $GST_RUN_SECONDS $8" >>"$out/gst.txt"
	rm -rf "$tmp"
	exit 0
fi

out=$1 frames=$2
shift 2
mkdir -p "$out" || exit 1
: >"$out/gst.txt"
list=/tmp/gst.list
: >"$list"

node() { # NAME: the /dev/videoN whose sysfs name is NAME
	for n in /sys/class/video4linux/video*; do
		[ "$(cat "$n/name")" = "$1" ] && { echo "/dev/${n##*/}"; return; }
	done
}
CAM=$(node s5pv210-camera)
[ -n "$CAM" ] || { echo "no camera"; exit 1; }

run() { # CASE KIND FOURCC W H PIPELINE...: queued for gst-run
	c=$1 kind=$2 f=$3 w=$4 h=$5
	shift 5
	{
		echo "!rm -rf $tmp && mkdir -p $tmp"
		echo ">$tmp/gst.log $*"
		echo "!sh $0 --file $out $c $kind $f $w $h $frames"
	} >>"$list"
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
	sh "$0" --file "$out" "$c" "$kind" "$f" "$w" "$h" "$frames" || exit 1
}

direct() { # CASE KIND FOURCC W H FRAMES COMMAND...: COMMAND writes into OUTDIR/CASE
	c=$1 kind=$2 f=$3 w=$4 h=$5 nf=$6
	shift 6
	mkdir -p "$out/$c"
	t0=$(cut -d. -f1 /proc/uptime)
	"$@" >"$out/$c/gst.log" 2>&1
	rc=$?
	t1=$(cut -d. -f1 /proc/uptime)
	n=0
	for x in "$out/$c"/f-* "$out/$c"/stream.raw; do [ -e "$x" ] && n=$((n + 1)); done
	echo "$c $kind $f $w $h $rc $n $((t1 - t0)) $nf" >>"$out/gst.txt"
}

dmabuf() { # FOURCC W H: camera ! codec, zero copy
	run "cam-dmabuf-$1-${2}x$3" cam-dmabuf "$1" "$2" "$3" \
		v4l2src device="$CAM" io-mode=dmabuf num-buffers="$frames" ! \
		"video/x-raw,format=$1,width=$2,height=$3" ! \
		v4l2jpegenc output-io-mode=dmabuf-import ! multifilesink location="$tmp/f-%03d.jpg"
}

# s5p_elem NODE SUFFIX: the video4linux2 element ending in SUFFIX whose
# device is NODE (GStreamer's name for it, v4l2videoN..., or the plain
# one if it is the first of its kind), from V4L2_FEATURES
s5p_elem() {
	for e in "v4l2${1#/dev/}$2" "v4l2$2"; do
		case " $V4L2_FEATURES " in *" $e "*) ;; *) continue ;; esac
		gst-inspect-1.0 "$e" | grep -q "Default: \"$1\"" && { echo "$e"; return; }
	done
}
if [ -n "${S5P_ENC_SIZES:-}" ]; then
	V4L2_FEATURES=$(gst-inspect-1.0 video4linux2 | sed -n 's/^ *\(v4l2[a-z0-9]*\):.*/\1/p' | tr '\n' ' ')
	S5P_ENC=$(s5p_elem "$(node s5p-jpeg-enc)" jpegenc)
	S5P_DEC=$(s5p_elem "$(node s5p-jpeg-dec)" jpegdec)
	echo "enc ${S5P_ENC:-none} $(node s5p-jpeg-enc)" >"$out/s5p-elements.txt"
	echo "dec ${S5P_DEC:-} $(node s5p-jpeg-dec)" >>"$out/s5p-elements.txt"
	for size in $S5P_ENC_SIZES; do
		w=${size%x*} h=${size#*x}
		run "s5p-enc-YUY2-$size" s5p-enc YUY2 "$w" "$h" \
			v4l2src device="$CAM" num-buffers="$frames" ! "video/x-raw,format=YUY2,width=$w,height=$h" ! \
			"${S5P_ENC:-none}" ! multifilesink location="$tmp/f-%03d.jpg"
		run "s5p-rt-YUY2-$size" s5p-rt YUY2 "$w" "$h" \
			v4l2src device="$CAM" num-buffers="$frames" ! "video/x-raw,format=YUY2,width=$w,height=$h" ! \
			"${S5P_ENC:-none}" ! "${S5P_DEC:-none}" ! video/x-raw,format=YUY2 ! \
			multifilesink location="$tmp/f-%03d.raw"
	done
fi

first=1
for size in "$@"; do
	w=${size%x*} h=${size#*x}
	for f in YUY2 NV12; do
		caps=video/x-raw,format=$f,width=$w,height=$h
		run "cam-raw-$f-$size" cam-raw "$f" "$w" "$h" \
			v4l2src device="$CAM" num-buffers="$frames" ! "$caps" ! \
			multifilesink location="$tmp/f-%03d.raw"
		run "cam-jpeg-$f-$size" cam-jpeg "$f" "$w" "$h" \
			v4l2src device="$CAM" num-buffers="$frames" ! "$caps" ! \
			v4l2jpegenc ! multifilesink location="$tmp/f-%03d.jpg"
		dmabuf "$f" "$w" "$h"
		run "test-jpeg-$f-$size" test-jpeg "$f" "$w" "$h" \
			videotestsrc num-buffers="$frames" ! "$caps,framerate=30/1" ! tee name=t \
			t. ! queue ! multifilesink location="$tmp/f-%03d.raw" \
			t. ! queue ! v4l2jpegenc ! multifilesink location="$tmp/f-%03d.jpg"
		if [ $first = 1 ] && [ "$f" = YUY2 ]; then
			launch "cam-dec-$f-$size" cam-dec "$f" "$w" "$h" \
				v4l2src device="$CAM" num-buffers="$frames" ! "$caps" ! \
				v4l2jpegenc ! jpegparse ! jpegdec ! videoconvert ! video/x-raw,format=YUY2 ! \
				multifilesink location="$tmp/f-%03d.raw"
		fi
	done
	first=0
done
gst_run

# Straight to OUTDIR: the plain pipeline, typed as it is
for size in ${PLAIN:-}; do
	w=${size%x*} h=${size#*x}
	for f in YUY2 NV12; do
		direct "cam-plain-$f-$size" cam-plain "$f" "$w" "$h" "${PLAIN_FRAMES:-8}" \
			gst-launch-1.0 -q v4l2src io-mode=dmabuf num-buffers="${PLAIN_FRAMES:-8}" ! \
			"video/x-raw,format=$f,width=$w,height=$h" ! \
			v4l2jpegenc output-io-mode=dmabuf-import ! multifilesink location="$out/cam-plain-$f-$size/f-%02d.jpg"
	done
done
# ... and v4l2-ctl writing the buffers it maps from the driver
if [ -n "${PLAIN:-}" ]; then
	direct v4l2-raw-YUY2-1280x720 v4l2-raw YUY2 1280 720 "$frames" \
		v4l2-ctl -d "$CAM" --set-fmt-video=width=1280,height=720,pixelformat=YUYV \
		--stream-mmap --stream-count="$frames" --stream-to="$out/v4l2-raw-YUY2-1280x720/stream.raw"
	direct v4l2-raw-NV12-640x480 v4l2-raw NV12 640 480 "$frames" \
		v4l2-ctl -d "$CAM" --set-fmt-video=width=640,height=480,pixelformat=NM12 \
		--stream-mmap --stream-count="$frames" --stream-to="$out/v4l2-raw-NV12-640x480/stream.raw"
fi
sync
