#!/bin/sh
# Camera -> codec through GStreamer, MMAP (GStreamer copies each frame
# into the codec's OUTPUT buffer) against DMABUF (the codec imports the
# camera's buffers): frames per second, guest CPU time per frame and the
# pages GStreamer copied per frame (scripts/bench-zerocopy.sh runs this in
# the guest; docs/benchmarks.md has the figures).
#
#   zerocopy-bench.sh FRAMES SIZE...
#
# One line a run:
#   BENCH mode=MMAP|DMABUF size=WxH format=YUY2 frames=N seconds=S fps=F cpu_ms_per_frame=C copied_pages_per_frame=P
# The camera runs at 60 fps (its fastest); fps is frames / wall time of the
# pipeline, guest clock (/proc/uptime), including GStreamer's start-up.
# CPU time: every CPU state but idle and iowait in /proc/stat over the
# run, so the kernel's work (drivers, interrupts) counts with GStreamer's.
# Copies: GStreamer's v4l2 buffer pool logs each frame it copies between
# the camera's and the codec's buffers ("copying buffer", GST_DEBUG
# v4l2bufferpool:6); pages = copies x frame size / 4096.  The encoder's
# CAPTURE pool also copies each compressed JPEG out for downstream (its
# "v4l2jpegenc0:pool0:src" lines): not a raw frame, not counted.  DMABUF
# must copy no raw frame: a run that did says "not ok" and the script
# exits 1.
set -u
frames=$1
shift
hz=$(getconf CLK_TCK 2>/dev/null || echo 100)
busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
up() { cut -d' ' -f1 /proc/uptime; }
status=0
for size in "$@"; do
	w=${size%x*} h=${size#*x}
	for mode in MMAP DMABUF; do
		if [ $mode = DMABUF ]; then
			src="v4l2src io-mode=dmabuf" enc="v4l2jpegenc output-io-mode=dmabuf-import"
		else
			src="v4l2src io-mode=mmap" enc="v4l2jpegenc output-io-mode=mmap"
		fi
		t0=$(up) c0=$(busy)
		# shellcheck disable=SC2086 # (src and enc are words)
		GST_DEBUG=v4l2bufferpool:6 GST_DEBUG_NO_COLOR=1 gst-launch-1.0 -q $src num-buffers="$frames" ! \
			"video/x-raw,format=YUY2,width=$w,height=$h,framerate=60/1" ! \
			$enc ! fakesink >/tmp/zc-bench.log 2>&1
		rc=$?
		t1=$(up) c1=$(busy)
		# (raw frames only: the encoder's CAPTURE pool, v4l2jpegenc0:pool0:src,
		# copies each JPEG out of its buffer for downstream, a few pages)
		copies=$(grep 'copying buffer' /tmp/zc-bench.log | grep -vc 'v4l2jpegenc[0-9]*:pool[0-9]*:src>')
		awk -v m=$mode -v s="$size" -v n="$frames" -v t0="$t0" -v t1="$t1" -v c0="$c0" -v c1="$c1" \
			-v hz="$hz" -v cp="$copies" -v fb=$((w * h * 2)) -v rc=$rc 'BEGIN {
			t = t1 - t0
			printf "BENCH mode=%s size=%s format=YUY2 frames=%d status=%d seconds=%.2f fps=%.2f cpu_ms_per_frame=%.1f copied_pages_per_frame=%.0f\n",
				m, s, n, rc, t, n / t, (c1 - c0) * 1000 / hz / n, cp * fb / 4096 / n
		}'
		if [ $rc != 0 ]; then
			echo "not ok - $mode $size: gst-launch-1.0 status $rc"; tail -n 5 /tmp/zc-bench.log
			status=1
		elif [ $mode = DMABUF ] && [ "$copies" != 0 ]; then
			echo "not ok - DMABUF $size: GStreamer copied $copies frames"
			status=1
		elif [ $mode = MMAP ] && [ "$copies" -lt "$frames" ]; then
			echo "not ok - MMAP $size: GStreamer's copies not seen ($copies log lines for $frames frames)"
			status=1
		fi
	done
done
exit $status
