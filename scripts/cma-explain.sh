#!/usr/bin/env bash
# What a board boots with, CMA-wise, without booting it: the kernel's own
# device tree hook (mm/cma-of.c), cma= / cma_map= parser and region code
# run on the host over the board's RAM and device tree (tools/platform's
# cma-explain; docs/cma.md, "From a trace to a board's regions"):
#
#   scripts/cma-explain.sh [--board NAME] [--dtb FILE] [--log] [--device DEV[/KIND]]...
#                          [cma=STRING] [cma_map=STRING] [cma_movable=STRING]
#
#   --board NAME   the board (default goni): its RAM (board.conf's
#                  BOARD_BANKS), its device tree (boards/NAME/NAME.dts,
#                  compiled as for a boot) and the devices and kinds its
#                  drivers ask for (BOARD_CMA_DEVICES)
#   --dtb FILE     another device tree blob for that board (as boot.sh --dtb)
#   --log          print only the lines the kernel prints
#   --device D/K   one more device and kind to explain
#   cma=... cma_map=... cma_movable=...   as given on the kernel command line
#
# Prints the boot's "OF: reserved mem:" and "cma:" lines (every "cma:
# error:" one among them), the regions (base, size, allocator, movable),
# the rules in order, and for each device and kind the regions it gets, in
# the order they are tried.  Exit status 1 when the kernel would report a
# problem.  The tool is built (once, then when its sources change) in
# $S5P_CACHE/host-build/platform-<hash of the checkout and kernel tree>
# from the kernel tree with the series applied (or S5P_KERNEL_TREE).
set -u
. "$(dirname "$0")/lib/common.sh"
. "$S5P_TOP/scripts/lib/kernel.sh"

board=goni dtb='' args=()
while [ $# -gt 0 ]; do
	case "$1" in
	--board) board=${2:?--board NAME}; shift 2 ;;
	--dtb) dtb=${2:?--dtb FILE}; shift 2 ;;
	-h | --help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) args+=("$1"); shift ;;
	esac
done
conf=$S5P_TOP/boards/$board/board.conf
[ -f "$conf" ] || s5p_die "unknown board '$board' (no $conf)"
# shellcheck disable=SC1090
. "$conf"

# s5p_platform_tools: build tools/platform against the kernel tree; sets
# PLATFORM_BIN.  Quiet when nothing is to be done.
s5p_kernel_source >/dev/null
# One build directory per checkout and kernel tree: runs from other
# checkouts never share one.
PLATFORM_BIN=$S5P_CACHE/host-build/platform-$(printf '%s' "$S5P_TOP:$KSRC" | sha256sum | cut -c1-12)
mkdir -p "$PLATFORM_BIN"
make -s -C "$S5P_TOP/tools/platform" KSRC="$KSRC" O="$PLATFORM_BIN" >"$PLATFORM_BIN.log" 2>&1 ||
	{ tail -n 20 "$PLATFORM_BIN.log" >&2; s5p_die "building tools/platform failed"; }
if [ -z "$dtb" ]; then
	s5p_dtb "$board" >/dev/null
	dtb=$DTB
fi
devs=()
for d in ${BOARD_CMA_DEVICES:-}; do devs+=(--device "$d"); done
exec "$PLATFORM_BIN/cma-explain" --dtb "$dtb" --banks "$BOARD_BANKS" "${devs[@]}" "${args[@]}"
