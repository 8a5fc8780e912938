#!/bin/sh
# Frames per second encoded by the codec (scripts/bench-codec.sh runs this):
# one camera frame, YUYV, fed FRAMES times through the mem2mem device
# (v4l2-ctl --stream-from --stream-loop: the frame is copied into each
# OUTPUT buffer, as a real application would), 4 MMAP buffers a queue,
# quality 75.  Prints one line per size:
#   BENCH s5pv210-codec <w>x<h> YUYV encoded <n> in <s> s: <fps> fps, <bytes> bytes/frame
# shellcheck source=../../tests/guest/lib.sh
set -u
. /tests/lib.sh
# shellcheck source=../../tests/guest/camera-lib.sh
. /tests/camera-lib.sh
# shellcheck source=../../tests/guest/codec-lib.sh
. /tests/codec-lib.sh
frames=${1:-120}
CAM=$(cam_node)
CODEC=$(codec_node)

uptime_s() { cut -d' ' -f1 /proc/uptime; }

bench() {
	w=$1 h=$2
	grab YUYV "$w" "$h" 1 /tmp/frame.raw || { echo "BENCH error: no camera frame"; return; }
	set -- "--set-fmt-video-out=width=$w,height=$h,pixelformat=YUYV" -c compression_quality=75 \
		--stream-out-mmap=4 --stream-mmap=4 --stream-from=/tmp/frame.raw --stream-loop
	# warm-up, then N frames timed
	v4l2-ctl -d "$CODEC" "$@" --stream-count=4 >/dev/null 2>&1
	t0=$(uptime_s)
	timeout 300 v4l2-ctl -d "$CODEC" "$@" --stream-count="$frames" --stream-to=/tmp/bench.mjpeg >/dev/null 2>&1
	t1=$(uptime_s)
	bytes=$(stat -c %s /tmp/bench.mjpeg)
	rm -f /tmp/bench.mjpeg /tmp/frame.raw
	awk -v s="${w}x$h" -v n="$frames" -v a="$t0" -v b="$t1" -v z="$bytes" \
		'BEGIN { printf "BENCH s5pv210-codec %s YUYV encoded %d in %.2f s: %.2f fps, %d bytes/frame\n", s, n, b - a, n / (b - a), z / n }'
}

for size in 640x480 1280x720; do
	bench ${size%x*} ${size#*x}
done
