#!/usr/bin/env bash
# s5p-flavours: default debug
# s5p-shared-boot: debug goni camera.sh main
# The camera end to end in the guest: the V4L2 driver (drivers/camera) on
# videobuf2-dma-contig on the emulated camera (qemu-patches/).
# tests/guest/camera.sh runs in three boots:
#   goni, the board's defaults (fb200000.camera/*=cam):
#       v4l2-compliance -s10 -f (MMAP streaming of every format, DMABUF
#       streaming), captures, placement,
#       bad input, close/unbind/rmmod while streaming, the single-planar
#       API (multiplanar=1: captures, v4l2-compliance) and a bad value;
#   goni, cma= and cma_map= moving kind "y" and kind "c" to two new regions;
#   aquila, the board's defaults: v4l2-compliance -s10 -f, captures and
#       placement.
# Every captured frame comes back as a SHA-256, compared here with the
# pattern recomputed by camera_pattern.py.
set -u
. "$(dirname "$0")/../lib/tap.sh"
t_plan 128 debug=95

pattern=$S5P_TOP/scripts/lib/camera_pattern.py

# run BOARD SCENARIO APPEND
run() {
	local board=$1 scenario=$2
	t_wanted "$board" "$scenario" || return 0
	t_guest_boot "$board" camera.sh "$scenario" "$3"
	if grep -q '^FRAME ' "$T_OUT"; then
		grep '^FRAME ' "$T_OUT" >"$T_TMP/frames"
		t_relay_cmd "$board: " python3 "$pattern" check <"$T_TMP/frames"
	else
		t_fail "$board $scenario: no frame came back"
	fi
	t_guest_end "$board" "$scenario"
}

run goni main ''
run goni moved 'cma=camy=8M@0x44000000;camc=4M@0x52000000 cma_map=fb200000.camera/y=camy;fb200000.camera/c=camc'
run aquila basic ''
t_done
