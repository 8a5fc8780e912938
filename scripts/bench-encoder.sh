#!/usr/bin/env bash
# The codec model's JPEG encoder on the host, next to libjpeg-turbo (not a
# test; docs/codec.md has the figures): bench/codec-encoder built
# against hw/misc/jpeg_encoder.c of the patched QEMU tree (the tree
# S5P_QEMU_TREE names, or the cache's), then run.  Mpixel/s of the model
# and of libjpeg-turbo on the same frames (640x480 and 1280x720, YUYV and
# NV12, gradients and noise, quality 90) and their ratio.
#
#   scripts/bench-encoder.sh [ENCODER-BENCH OPTIONS] [CASE...]
#
# e.g. -t 5 (seconds of CPU per encoder and case, default 2), -q 75,
# -e model (one encoder only, for perf), 1920x1088:nv12.
set -u
. "$(dirname "$0")/lib/common.sh"
. "$S5P_TOP/scripts/lib/qemu.sh"
case ${1:-} in -h | --help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac

s5p_qemu_source
[ -f "$QSRC/hw/misc/jpeg_encoder.c" ] || s5p_die "$QSRC has no hw/misc/jpeg_encoder.c"
build=$S5P_CACHE/host-build/codec-encoder
s5p_log "building bench/codec-encoder against $QSRC/hw/misc/jpeg_encoder.c"
mkdir -p "$build"
make -s -C "$S5P_TOP/bench/codec-encoder" QSRC="$QSRC" O="$build" >"$build/build.log" 2>&1 ||
	{ tail -n 30 "$build/build.log"; s5p_die "bench/codec-encoder does not build (log: $build/build.log; scripts/setup.sh installs libjpeg62-turbo-dev)"; }
s5p_log "host: $(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n1), load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%Y-%m-%d %H:%M UTC')"
s5p_log "encoder: $(git -C "$QSRC" log -1 --format='%h %s' -- hw/misc/jpeg_encoder.c 2>/dev/null || echo "$QSRC")"
echo "# command: scripts/bench-encoder.sh${*:+ $*}"
"$build/encoder-bench" "$@"
