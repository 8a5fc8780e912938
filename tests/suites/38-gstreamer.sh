#!/usr/bin/env bash
# shellcheck disable=SC1090 # (boards/*/board.conf are sourced by name)
# s5p-lava: no (the frames go to a host folder, boot.sh --share, and are checked on the host)
# s5p-qemu: plain (GStreamer's use of the drivers; the device paths its pipelines drive run under ASan in 30-camera and 35-codec, whose zero-copy sweep takes every size both devices offer, and in the qtests)
# GStreamer in the guest (docs/camera.md, "GStreamer"): Debian's armel
# gst-launch-1.0 with the video4linux2 plugin on the camera and the codec.
# One boot a board (goni, aquila), each running tests/guest/gst.sh with
# the share (--share, /host): for every size in SIZES and each format both
# devices offer (YUY2, NV12): camera to raw files; camera to v4l2jpegenc
# to JPEG files (MMAP); the same zero copy (io-mode=dmabuf,
# output-io-mode=dmabuf-import; NV12 is NV12M, two DMABUFs a frame, on
# both devices; 1920x1080 too, in the board's default 24 MiB camera
# region); videotestsrc to the codec; and once camera ! v4l2jpegenc !
# jpegparse ! jpegdec ! videoconvert (under gst-launch-1.0; the others
# in one tools/gst gst-run process, which pays GStreamer's start-up once a
# boot, not once a pipeline).  Then, written straight to /host
# (the series' 9p fix), the pipeline of issue 24 typed as it is (v4l2src
# io-mode=dmabuf num-buffers=8 ! ... ! v4l2jpegenc
# output-io-mode=dmabuf-import ! multifilesink location=/host/...) at
# every PLAIN size, YUY2 and NV12, with the board's defaults, and two
# v4l2-ctl --stream-mmap --stream-to=/host/... captures.  And the camera
# to the SoC's JPEG block, mainline's s5p-jpeg (with the series' s5p-jpeg fixes;
# 0054 for GStreamer to negotiate the camera's colorimetry, 0055 for its
# drain at the end of stream, 0057 for the decoder to take more than one
# buffer a queue), with the board's defaults: v4l2src !
# s5p-jpeg's encoder (the element gst-inspect-1.0 finds on its node) !
# JPEG files at each S5P_ENC_SIZES size, every frame, and the round trip
# v4l2src ! s5p-jpeg's encoder ! its decoder ! YUY2 frames, every frame
# decoded to luma PSNR >= 30 dB against the camera's pattern.
# Every file
# is checked on the host (tests/lib/gst_check.py): count, layout, exact
# pixels (raw), djpeg decode and luma PSNR >= 30 dB against the camera's
# pattern (camera_pattern.py) or videotestsrc's frames.
# Default kernel only: the pipelines run the drivers' paths that 30-camera
# and 35-codec already run on the debug kernel (docs/testing.md).
set -u
. "$(dirname "$0")/../lib/tap.sh"

SIZES="32x16 200x150 640x480 1280x720 1920x1080"	# min, padded NV12 lines, typical, max
FRAMES=3
# The plain pipeline (issue 24), straight to /host, with the issue's 8 frames
PLAIN="320x240 640x480 1280x720 1920x1080"
PLAIN_FRAMES=8
# camera ! s5p-jpeg's encoder (YUY2)
S5P_ENC_SIZES="640x480"
# cases a board: per size 4 (raw, jpeg, dmabuf, videotestsrc) x 2 formats,
# + cam-dec once; per PLAIN size 2 formats; + 2 v4l2-ctl streams to /host;
# one s5p-enc and one s5p-rt an S5P_ENC_SIZES size
nsizes=$(wc -w <<<"$SIZES")
CASES=$((nsizes * 8 + 1 + 2 * $(wc -w <<<"$PLAIN") + 2 + 2 * $(wc -w <<<"$S5P_ENC_SIZES")))
t_plan $((2 * (CASES + 5) + 1))

check=$S5P_TOP/tests/lib/gst_check.py
# gst-run (tools/gst), which runs the pipelines: warnings are errors here,
# natively and for armel (the initramfs's build uses the same flags).
cp -a "$S5P_TOP/tools/gst" "$T_TMP/gst" && rm -rf "$T_TMP/gst/build"
t_check "tools/gst (gst-run) builds without warnings, natively and for armel" \
	bash -c "{ make -C '$T_TMP/gst' && make -C '$T_TMP/gst' CROSS_COMPILE=arm-linux-gnueabi-; } >'$T_TMP/gst.log' 2>&1 &&
		! grep -i warning '$T_TMP/gst.log' || { cat '$T_TMP/gst.log'; false; }"
for board in goni aquila; do
	share=$T_TMP/share-$board log=$T_TMP/$board-console.log
	mkdir -p "$share"
	t0=$(date +%s)
	"$S5P_TOP/scripts/boot-$board.sh" --share "$share" --log "$log" --timeout 900 --cmd "
		for e in v4l2src v4l2jpegenc videotestsrc videoconvert jpegparse jpegdec multifilesink; do
			gst-inspect-1.0 \$e || exit 10
		done >/host/inspect.txt 2>&1
		PLAIN='$PLAIN' PLAIN_FRAMES=$PLAIN_FRAMES S5P_ENC_SIZES='$S5P_ENC_SIZES' sh /tests/gst.sh /host/out $FRAMES $SIZES" \
		>"$T_TMP/$board.out" 2>"$T_TMP/$board.err"
	rc=$?
	echo "# $board: boot and pipelines in $(($(date +%s) - t0)) s"
	t_check "$board: the guest ran gst-inspect-1.0 and every pipeline (status $rc)" [ "$rc" = 0 ]
	[ "$rc" = 0 ] || tail -n 8 "$T_TMP/$board.out" "$T_TMP/$board.err" | sed 's/^/#   /'
	t_check "$board: gst-inspect-1.0 knows v4l2src, v4l2jpegenc, videotestsrc, videoconvert, jpegparse, jpegdec, multifilesink" \
		bash -c "[ \$(grep -c '^Factory Details:' '$share/inspect.txt') = 7 ] &&
			grep -q 'V4L2 JPEG Encoder' '$share/inspect.txt'"
	# s5p-jpeg's elements: not the codec's v4l2jpegenc, each on its node
	t_check "$board: gst-inspect-1.0 finds s5p-jpeg's encoder and decoder elements on its nodes: $(tr '\n' ' ' <"$share/out/s5p-elements.txt" 2>/dev/null)" \
		bash -c "grep -Eq '^enc v4l2[a-z0-9]*jpegenc /dev/video[0-9]+\$' '$share/out/s5p-elements.txt' &&
			grep -Eq '^dec v4l2[a-z0-9]*jpegdec /dev/video[0-9]+\$' '$share/out/s5p-elements.txt' &&
			! grep -q '^enc v4l2jpegenc ' '$share/out/s5p-elements.txt'"
	n=$(wc -l <"$share/out/gst.txt" 2>/dev/null || echo 0)
	t_check "$board: $CASES pipelines listed in /host/out/gst.txt (got $n)" [ "$n" = "$CASES" ]
	"$check" "$share/out" "$FRAMES" >"$T_TMP/$board-check.out" 2>&1
	while IFS= read -r line; do
		case "$line" in
		'ok - '*) t_pass "$board ${line#ok - }" ;;
		'not ok - '*) t_fail "$board ${line#not ok - }" ;;
		*) echo "# $line" ;;
		esac
	done <"$T_TMP/$board-check.out"
	# pad the plan when fewer cases came back (each missing one a failure)
	m=$(grep -c '^ok - \|^not ok - ' "$T_TMP/$board-check.out")
	for _ in $(seq $((m + 1)) "$CASES"); do t_fail "$board: a pipeline case missing"; done
	t_no_reports "$board: no kernel report in the console log" "$log"
done
t_done
