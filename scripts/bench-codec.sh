#!/usr/bin/env bash
# Encode benchmark (not a test): frames per second of the codec
# (drivers/codec on videobuf2-dma-contig, Motion-JPEG at quality 75) in a Goni guest
# with the board's defaults, at 640x480 and 1280x720 YUYV, one camera
# frame looped through 4 MMAP buffers a queue (scripts/guest/codec-bench.sh).
#
#   scripts/bench-codec.sh [FRAMES]      (default 120 frames)
#
# Prints the guest's BENCH lines (docs/codec.md has the figures).
set -u
. "$(dirname "$0")/lib/common.sh"
case ${1:-} in -h | --help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
frames=${1:-120}
[[ $frames =~ ^[1-9][0-9]*$ ]] || s5p_die "usage: $0 [FRAMES]"
s5p_log "host: $(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n1)"
"$S5P_TOP/scripts/boot-goni.sh" --timeout 900 --cmd "sh /usr/lib/s5p/codec-bench.sh $frames"
