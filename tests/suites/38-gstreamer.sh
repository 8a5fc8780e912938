#!/usr/bin/env bash
# shellcheck disable=SC1090 # (boards/*/board.conf are sourced by name)
# GStreamer in the guest (docs/camera.md, "GStreamer"): Debian's armel
# gst-launch-1.0 with the video4linux2 plugin on the camera and the codec.
# One boot a board (goni, aquila), each running tests/guest/gst.sh with
# the share (--share, /host): for every size in SIZES and each format both
# devices offer (YUY2, NV12): camera to raw files; camera to v4l2jpegenc
# to JPEG files (MMAP); the same zero copy (io-mode=dmabuf,
# output-io-mode=dmabuf-import; NV12 is NV12M, two DMABUFs a frame, on
# both devices; not at the largest size, see gst.sh); videotestsrc to the codec; and once
# camera ! v4l2jpegenc ! jpegparse ! jpegdec ! videoconvert.  Every file
# is checked on the host (tests/lib/gst_check.py): count, layout, exact
# pixels (raw), djpeg decode and luma PSNR >= 30 dB against the camera's
# pattern (camera_pattern.py) or videotestsrc's frames.
# Default kernel only: the pipelines run the drivers' paths that 30-camera
# and 35-codec already run on the debug kernel (docs/testing.md).
. "$(dirname "$0")/../lib/tap.sh"

SIZES="32x16 200x150 640x480 1280x720 1920x1080"	# min, padded NV12 lines, typical, max
FRAMES=3
# cases a board: per size 3 (raw, jpeg, videotestsrc) x 2 formats + YUY2
# dmabuf, + cam-dec once, + NV12 dmabuf per size; no dmabuf at the max
nsizes=$(wc -w <<<"$SIZES")
CASES=$((nsizes * 6 + 2 * (nsizes - 1) + 1))
t_plan $((2 * (CASES + 4 + 4)))

check=$S5P_TOP/tests/lib/gst_check.py
for board in goni aquila; do
	share=$T_TMP/share-$board log=$T_TMP/$board-console.log
	mkdir -p "$share"
	t0=$(date +%s)
	"$S5P_TOP/scripts/boot-$board.sh" --share "$share" --log "$log" --timeout 900 --cmd "
		for e in v4l2src v4l2jpegenc videotestsrc videoconvert jpegparse jpegdec multifilesink; do
			gst-inspect-1.0 \$e || exit 10
		done >/host/inspect.txt 2>&1
		DMABUF_SKIP=${SIZES##* } sh /tests/gst.sh /host/out $FRAMES $SIZES" \
		>"$T_TMP/$board.out" 2>"$T_TMP/$board.err"
	rc=$?
	echo "# $board: boot and pipelines in $(($(date +%s) - t0)) s"
	t_check "$board: the guest ran gst-inspect-1.0 and every pipeline (status $rc)" [ "$rc" = 0 ]
	[ "$rc" = 0 ] || tail -n 8 "$T_TMP/$board.out" "$T_TMP/$board.err" | sed 's/^/#   /'
	t_check "$board: gst-inspect-1.0 knows v4l2src, v4l2jpegenc, videotestsrc, videoconvert, jpegparse, jpegdec, multifilesink" \
		bash -c "[ \$(grep -c '^Factory Details:' '$share/inspect.txt') = 7 ] &&
			grep -q 'V4L2 JPEG Encoder' '$share/inspect.txt'"
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

	# The largest size zero copy: v4l2src wants 4 buffers of 4 MiB, the
	# board's camera region (cam) holds 8 MiB: the same regions with cam
	# at 24 MiB, ending where the board's ends.
	. "$S5P_TOP/boards/$board/board.conf"
	cam=$(sed -n 's/.*\bcam=8M@\(0x[0-9a-f]*\).*/\1/p' <<<"$BOARD_CMA")
	big="cma=${BOARD_CMA/cam=8M@$cam/cam=24M@$(printf '0x%x' $((cam - 0x1000000)))} cma_map=$BOARD_CMA_MAP"
	share=$T_TMP/share-$board-big log=$T_TMP/$board-big-console.log
	mkdir -p "$share"
	t0=$(date +%s)
	"$S5P_TOP/scripts/boot-$board.sh" --share "$share" --log "$log" --timeout 600 --append "$big" \
		--cmd "DMABUF_ONLY=1 sh /tests/gst.sh /host/out $FRAMES ${SIZES##* }" \
		>"$T_TMP/$board-big.out" 2>"$T_TMP/$board-big.err"
	rc=$?
	echo "# $board, --append '$big': boot and pipelines in $(($(date +%s) - t0)) s"
	t_check "$board, cam 24 MiB: the guest ran the zero-copy pipelines at ${SIZES##* } (status $rc)" [ "$rc" = 0 ]
	[ "$rc" = 0 ] || tail -n 8 "$T_TMP/$board-big.out" "$T_TMP/$board-big.err" | sed 's/^/#   /'
	"$check" "$share/out" "$FRAMES" >"$T_TMP/$board-big-check.out" 2>&1
	m=0
	while IFS= read -r line; do
		case "$line" in
		'ok - '*) t_pass "$board, cam 24 MiB: ${line#ok - }"; m=$((m + 1)) ;;
		'not ok - '*) t_fail "$board, cam 24 MiB: ${line#not ok - }"; m=$((m + 1)) ;;
		*) echo "# $line" ;;
		esac
	done <"$T_TMP/$board-big-check.out"
	for _ in $(seq $((m + 1)) 2); do t_fail "$board, cam 24 MiB: a pipeline case missing"; done
	t_no_reports "$board, cam 24 MiB: no kernel report in the console log" "$log"
done
t_done
