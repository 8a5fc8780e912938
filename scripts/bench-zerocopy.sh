#!/usr/bin/env bash
# Zero-copy benchmark (not a test): camera -> codec through GStreamer on
# both boards with their defaults, MMAP (GStreamer copies every frame into
# the codec's buffer) against DMABUF (the codec imports the camera's
# buffers), YUY2 at 1280x720 and 1920x1080 (scripts/guest/zerocopy-bench.sh):
# frames per second, guest CPU time per frame, pages copied per frame (0
# for DMABUF, checked: the run fails otherwise).
#
#   scripts/bench-zerocopy.sh [FRAMES]      (default 60 frames a run)
#
# Prints the guest's BENCH lines and a Markdown table (docs/benchmarks.md).
set -u
. "$(dirname "$0")/lib/common.sh"
case ${1:-} in -h | --help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
frames=${1:-60}
[[ $frames =~ ^[1-9][0-9]*$ ]] || s5p_die "usage: $0 [FRAMES]"
s5p_log "host: $(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n1), load $(cut -d' ' -f1-3 /proc/loadavg), commit $(git -C "$S5P_TOP" rev-parse --short HEAD 2>/dev/null)"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0
for board in goni aquila; do
	"$S5P_TOP/scripts/boot-$board.sh" --timeout 900 \
		--cmd "sh /usr/lib/s5p/zerocopy-bench.sh $frames 1280x720 1920x1080" >"$out/$board" 2>&1 || status=1
	sed "s/^/$board: /" "$out/$board"
done
echo
echo "| board | size | mode | frames | s | fps | guest CPU ms/frame | pages copied/frame |"
echo "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |"
for board in goni aquila; do
	sed -n 's/^BENCH //p' "$out/$board" | while read -r line; do
		declare -A v=()
		for kv in $line; do v[${kv%%=*}]=${kv#*=}; done
		echo "| $board | ${v[size]} | ${v[mode]} | ${v[frames]} | ${v[seconds]} | **${v[fps]}** | ${v[cpu_ms_per_frame]} | ${v[copied_pages_per_frame]} |"
	done
done
exit $status
