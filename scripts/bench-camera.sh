#!/usr/bin/env bash
# Capture benchmark (not a test): frames per second of the emulated camera
# (drivers/camera on videobuf2-dma-contig) next to vivid's, in the same Goni guest, at
# 640x480 and 1280x720 YUYV, both asked for 60 fps, 4 MMAP buffers.
#
#   scripts/bench-camera.sh [FRAMES [FPS]]     (default 120 frames, 60 fps)
#
# Prints the guest's BENCH lines (docs/camera.md has the figures).
set -u
. "$(dirname "$0")/lib/common.sh"
case ${1:-} in -h | --help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
frames=${1:-120}
fps=${2:-60}
[[ $frames =~ ^[1-9][0-9]*$ && $fps =~ ^[1-9][0-9]*$ ]] || s5p_die "usage: $0 [FRAMES [FPS]]"
s5p_log "host: $(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n1)"
"$S5P_TOP/scripts/boot-goni.sh" --timeout 600 --cmd "sh /usr/lib/s5p/camera-bench.sh $frames $fps"
