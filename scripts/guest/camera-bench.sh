#!/bin/sh
# Frames per second captured through MMAP by the camera and by vivid, same
# sizes, same format (YUYV), same requested rate, same
# buffer count (scripts/bench-camera.sh runs this).  Prints one line per run:
#   BENCH <device> <w>x<h> requested <fps> effective <fps> captured <n> in <s> s: <fps> fps
# shellcheck source=../../tests/guest/camera-lib.sh
set -u
. /tests/camera-lib.sh
frames=${1:-120}
fps=${2:-60}

uptime_s() { cut -d' ' -f1 /proc/uptime; }

bench() {
	dev=$1 name=$2 w=$3 h=$4
	v4l2-ctl -d "$dev" "--set-fmt-video=width=$w,height=$h,pixelformat=YUYV" -p "$fps" >/dev/null 2>&1
	eff=$(v4l2-ctl -d "$dev" -P | awk '/Frames per second/ { print $4 }')
	got=$(v4l2-ctl -d "$dev" --get-fmt-video | awk -F': ' '/Width\/Height/ { print $2 }' | tr -d ' ')
	# Warm up (buffers allocated once), then time N frames
	v4l2-ctl -d "$dev" --stream-mmap=4 --stream-count=4 >/dev/null 2>&1
	t0=$(uptime_s)
	timeout 300 v4l2-ctl -d "$dev" --stream-mmap=4 --stream-count="$frames" >/dev/null 2>&1
	t1=$(uptime_s)
	awk -v d="$name" -v s="$got" -v r="$fps" -v e="$eff" -v n="$frames" -v a="$t0" -v b="$t1" \
		'BEGIN { printf "BENCH %s %s requested %s effective %s captured %d in %.2f s: %.2f fps\n", d, s, r, e, n, b - a, n / (b - a) }'
}

CAM=$(cam_node)
# vivid single-planar: v4l2-ctl 1.22 sets the frame rate of a multi-planar
# vivid through the single-planar type, which vivid refuses
modprobe vivid n_devs=1 node_types=0x1 multiplanar=1
VIVID=$(vivid_node)
for size in 640x480 1280x720; do
	bench "$CAM" s5pv210-camera ${size%x*} ${size#*x}
	bench "$VIVID" vivid ${size%x*} ${size#*x}
done
