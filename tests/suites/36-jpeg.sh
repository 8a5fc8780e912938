#!/usr/bin/env bash
# s5p-flavours: default debug
# s5p-debug-scenarios: goni:main
# The SoC's JPEG block (qemu-patches/: hw/misc/s5pv210_jpeg.c) under
# mainline's s5p-jpeg driver (with the series' s5p-jpeg fixes), its buffers placed by a cma_map=
# rule: each board boots with its default cma= plus a region "jpeg" and its
# default cma_map= plus "fb600000.jpeg-codec=jpeg".  tests/guest/jpeg.sh
# runs in two boots:
#   goni: the driver probed, v4l2-compliance -s10 -f on the decoder and the
#       encoder, round trips camera -> s5p-jpeg encode -> s5p-jpeg decode
#       (PSNR against the camera's frames, in the guest), every buffer in
#       region jpeg, a stream whose size changes queued at once
#       (tools/jpeg/jpeg-dec-seq), a bad stream;
#   aquila: the driver probed, v4l2-compliance -s10 -f on both nodes, a
#       round trip, placement.
# Every encoded stream comes back base64 over the output UART; here each
# frame is decoded by djpeg and compared with the camera's pattern
# (codec_check.py: PSNR >= 30 dB, luma and RGB).
set -u
. "$(dirname "$0")/../lib/tap.sh"
t_plan 39 debug=24

check=$S5P_TOP/scripts/lib/codec_check.py

# run BOARD SCENARIO: boot BOARD with the jpeg region and rule added
run() {
	local board=$1 scenario=$2 cma map
	t_wanted "$board" "$scenario" || return 0
	# shellcheck source=../../boards/goni/board.conf
	cma=$(. "$S5P_TOP/boards/$board/board.conf" && echo "$BOARD_CMA")
	# shellcheck source=../../boards/goni/board.conf
	map=$(. "$S5P_TOP/boards/$board/board.conf" && echo "$BOARD_CMA_MAP")
	t_guest_boot "$board" jpeg.sh "$scenario" "cma=$cma;jpeg=16M cma_map=$map;fb600000.jpeg-codec=jpeg"
	if grep -q '^BEGIN-FILE MJPEG ' "$T_OUT"; then
		t_relay_cmd "$board $scenario: s5p-jpeg's " python3 "$check" check <"$T_OUT"
	else
		t_fail "$board $scenario: no encoded stream came back"
	fi
	t_guest_end "$board" "$scenario"
}

run goni main
run aquila basic
t_done
