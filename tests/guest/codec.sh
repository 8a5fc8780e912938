#!/bin/sh
# The codec from inside the guest (tests/suites/35-codec.sh boots the
# boards and runs this with a scenario):
#
#   codec.sh main      compliance (MMAP; DMABUF from the camera), zero copy
#                      from the camera at every size, NM12 (two buffers)
#                      too, camera -> codec encodes (NV12M from two MMAP
#                      planes too), placement, bad input, drains,
#                      close/unbind/rmmod while streaming, the
#                      single-planar API (multiplanar=1) (the board's
#                      defaults)
#   codec.sh swapped   kind "a" in codec-b and kind "b" in codec-a
#                      (cma_map= only): encodes and placement; the
#                      camera's chroma (kind "c") outside port A's window:
#                      its NM12 refused at QBUF, the log naming the plane
#   codec.sh onebank   both kinds in one bank: pictures in the bitstream's
#                      bank refused at QBUF (MMAP, and the camera's NM12),
#                      the log naming the plane; the device never runs
#   codec.sh basic     compliance, encodes and placement (the other board)
#   codec.sh nokind    no cma_map= rule for kind "b": the driver does not
#                      probe, and its log names the rule it needs
#
# Besides TAP lines it prints each encoded stream, base64, between
# "BEGIN-FILE MJPEG FOURCC W H SEQS SIZES" and "END-FILE MJPEG": the host
# decodes every frame and compares it with the camera's pattern.
# shellcheck source=lib.sh
set -u
. /tests/lib.sh
# shellcheck source=camera-lib.sh
. /tests/camera-lib.sh
# shellcheck source=codec-lib.sh
. /tests/codec-lib.sh
# shellcheck source=cma-lib.sh
. /tests/cma-lib.sh

scenario=${1:-main}
CAM=$(cam_node)
CODEC=$(codec_node)
if [ "$scenario" = nokind ]; then
	# A kind without a region: every buffer of it would come from memory
	# no port reaches, and be refused; the driver refuses to probe instead.
	check "codec: no rule for kind b: no codec video device, the driver bound to nothing" \
		sh -c "[ -z '$CODEC' ] && [ -d /sys/bus/platform/drivers/s5pv210-codec ] &&
			! [ -e /sys/bus/platform/drivers/s5pv210-codec/$CODEC_DEV ]"
	dmesg | grep "$CODEC_DEV" | sed 's/^/# /'
	check "codec: no rule for kind b: the kernel log names the cma_map= rule it needs" \
		sh -c "dmesg | grep -q 'no CMA region for kind \"b\" .*: give cma_map= a rule for $CODEC_DEV/b' &&
			dmesg | grep -q 'probe.* $CODEC_DEV .*failed\|$CODEC_DEV: probe .*failed'"
	cma_nothing_lost "codec: nothing lost in any CMA region at the end"
	check "codec: no oops, BUG or warning in the kernel log" \
		sh -c ". /tests/lib.sh; ! part_dmesg | kernel_reports"
	exit $T_FAILED
fi
if [ -z "$CODEC" ] || [ -z "$CAM" ]; then
	not_ok "codec: video devices: camera '$CAM', codec '$CODEC'"
	dmesg | grep -i "codec\|camera\|vb2" | sed 's/^/# /'
	exit 1
fi
ok "codec: $CODEC is the s5pv210-codec ($CODEC_DEV), the camera is $CAM"

# ccompliance WHAT LOG LINE...: compliance_verdict with the codec's name
ccompliance() { compliance_verdict "$@" | sed 's/: camera: /: codec: /'; }

compliance() {
	v4l2_compliance /tmp/comp.log -d "$CODEC" -s10 -f
	ccompliance "v4l2-compliance -s10 -f (MMAP streaming, every format at its smallest, largest and default size)" /tmp/comp.log \
		"test VIDIOC_(TRY_)ENCODER_CMD: OK" "test VIDIOC_ENUM_FMT/FRAMESIZES/FRAMEINTERVALS: OK" \
		"test VIDIOC_G_FMT: OK" "test VIDIOC_TRY_FMT: OK" "test VIDIOC_S_FMT: OK" \
		"test VIDIOC_REQBUFS/CREATE_BUFS/QUERYBUF: OK" "test MMAP (no poll, REQBUFS): OK" \
		"test MMAP (select, REQBUFS): OK" "test MMAP (epoll, REQBUFS): OK" \
		"test MMAP (no poll, CREATE_BUFS): OK" "test MMAP (select, CREATE_BUFS): OK" \
		"test MMAP (epoll, CREATE_BUFS): OK" "Stream using all formats:"
	codec_no_leak "after v4l2-compliance"
}

case "$scenario" in
main)
	compliance
	# ---- DMABUF: the camera's buffers (region cam, inside port A) ----
	v4l2-ctl -d "$CAM" --set-fmt-video=width=640,height=480,pixelformat=YUYV
	v4l2_compliance /tmp/comp-dmabuf.log -d "$CODEC" -s10 -e "$CAM"
	ccompliance "v4l2-compliance -s10 -e camera (DMABUF import of the camera's buffers)" \
		/tmp/comp-dmabuf.log "test DMABUF (no poll): OK" "test DMABUF (select): OK"
	codec_no_leak "after DMABUF streaming"

	# ---- zero copy: every size and format both offer, camera buffers
	# (DMABUF) straight into the codec, each imported and encoded ----
	# The debug kernel takes every 8th size of the two sweeps and the last
	# of each (103 of 774): there a size costs about 0.3 s of allocations,
	# imports and DMA-API checks, and what varies with the size is the
	# drivers' arithmetic, not the kernel code that runs; the default
	# kernel sweeps every size (docs/testing.md, "The debug pass").
	sweep=all what="every camera width (32-1920) and height (16-1080)" n=774
	if debug_kernel; then
		sweep=all/8 what="every 8th camera width (32-1920) and height (16-1080) and the largest (debug kernel)" n=103
	fi
	for f in YUYV NV12; do
		codec-bad zerocopy "$CODEC" "$CAM" $f $sweep >/tmp/zc.log 2>&1
		grep -v "^zerocopy $f: " /tmp/zc.log | head -n 20 | sed 's/^/# /'
		check "codec: zero copy $f, $what, and 4 sizes with frames: 2 camera buffers a size imported and encoded" \
			grep -qx "zerocopy $f: $n sizes, $((n * 2)) camera buffers imported, $((n * 2)) frames encoded, 0 failed" /tmp/zc.log
	done
	# ---- zero copy, two buffers: the multi-planar camera's NM12, luma
	# and chroma exported as two DMABUFs, imported as the two planes of
	# one codec buffer (NV12M: SRC_Y_OFFSET, SRC_C_OFFSET) and encoded
	# (1920x1080 too: the board's camera region is 24 MiB) ----
	codec-bad zerocopy "$CODEC" "$CAM" NM12 1920x1080 1280x720 640x480 360x240 320x240 32x16 >/tmp/zc.log 2>&1
	grep -v "^zerocopy NM12: " /tmp/zc.log | head -n 20 | sed 's/^/# /'
	check "codec: zero copy NM12, two camera DMABUFs a frame (luma, chroma) imported as the codec's two planes: 6 sizes 32x16 to 1920x1080, 2 frames each" \
		grep -qx "zerocopy NM12: 6 sizes, 12 camera buffers imported, 12 frames encoded, 0 failed" /tmp/zc.log
	codec_no_leak "after the zero-copy sizes"

	# ---- camera -> codec, the streams checked by the host ----
	pipeline YUYV 640 480 8
	pipeline NV12 320 240 4
	pipeline YUYV 1280 720 3 90
	# the camera's second pattern (gradients, fine detail, noise): what
	# JPEG loses shows in its PSNR, unlike the bars' (docs/codec.md)
	pipeline YUYV 640 480 3 75 1
	pipeline NV12 320 240 2 90 1
	# NV12M: each picture in two MMAP buffers of the codec's OUTPUT
	pipeline NM12 640 480 3
	pipeline NM12 320 240 2 90 1
	codec_no_leak "after the encodes"

	# ---- every buffer in the region cma_map= sends it to ----
	codec_placement YUYV 640 480 "a=codec-a b=codec-b"

	# ---- what the driver adjusts or refuses ----
	# (formats are per file handle: set and get in one v4l2-ctl)
	# (v4l2-ctl refuses a pixel format the device does not list)
	check_eq "codec: TRY_FMT RGB3 33x17 is adjusted to YUYV 34x18" \
		"format: YUYV 34x18 bytesperline 80 sizeimage 1440" \
		"$(codec-bad tryfmt "$CODEC" RGB3 33 17 | grep '^format:')"
	check_eq "codec: TRY_FMT NV12 15x4097 is adjusted to 16x2048" \
		"format: NV12 16x2048 bytesperline 16 sizeimage 49152" \
		"$(codec-bad tryfmt "$CODEC" NV12 15 4097 | grep '^format:')"
	check_eq "codec: TRY_FMT NM12 33x17 is adjusted to 34x18, two planes with one stride" \
		"format: NM12 34x18 bytesperline 48 sizeimage 864 bytesperline 48 sizeimage 432" \
		"$(codec-bad tryfmt "$CODEC" NM12 33 17 | grep '^format:')"
	v4l2-ctl -d "$CODEC" --set-fmt-video-out=width=5000,height=5000,pixelformat=NV12 \
		--get-fmt-video-out >/tmp/set.log 2>&1
	check_eq "codec: S_FMT NV12 5000x5000 is clamped to 2048x2048" "2048/2048 NV12" "$(fmt_of /tmp/set.log)"
	v4l2-ctl -d "$CODEC" --set-fmt-video-out=width=640,height=480,pixelformat=YUYV \
		--set-fmt-video=sizeimage=1000 --get-fmt-video >/tmp/cap.log 2>&1
	check_eq "codec: a CAPTURE sizeimage of 1000 is raised to 2 x 640 x 480 + 16 KiB" "630784" \
		"$(awk -F': ' '/Size Image/ { print $2 }' /tmp/cap.log | tr -d ' ' | tail -n 1)"
	codec-bad nobufs "$CODEC" >/tmp/bad.log 2>&1
	sed 's/^/# /' /tmp/bad.log
	check "codec: STREAMON without buffers: EINVAL" \
		grep -qx "STREAMON output without buffers: errno EINVAL" /tmp/bad.log
	check "codec: STREAMON with buffers but none queued succeeds, no job runs (DQBUF: EAGAIN)" \
		sh -c 'grep -qx "STREAMON capture, none queued: ok" /tmp/bad.log &&
			grep -qx "DQBUF capture, none queued: errno EAGAIN" /tmp/bad.log'
	codec-bad import "$CODEC" "$CAM" 64 64 >/tmp/bad.log 2>&1
	sed 's/^/# /' /tmp/bad.log
	check "codec: QBUF of a camera DMABUF (64x64) smaller than sizeimage (640x480): EINVAL" \
		grep -qx "QBUF output dmabuf: errno EINVAL" /tmp/bad.log
	codec-bad import "$CODEC" "$CAM" 640 480 >/tmp/bad.log 2>&1
	check "codec: QBUF of a camera DMABUF of the right size, inside port A: accepted" \
		grep -qx "QBUF output dmabuf: ok" /tmp/bad.log
	codec-bad encode "$CODEC" >/tmp/bad.log 2>&1
	check "codec: one grey frame by hand (codec-bad encode) comes back without error" \
		grep -q "capture buffer: bytesused [1-9][0-9]*\$" /tmp/bad.log
	codec-bad payload "$CODEC" >/tmp/bad.log 2>&1
	sed 's/^/# /' /tmp/bad.log
	check "codec: QBUF of a raw picture with half its bytes (bytesused < sizeimage): EINVAL" \
		grep -qx "QBUF output, half the payload: errno EINVAL" /tmp/bad.log
	check "codec: QBUF of a whole raw picture: accepted" \
		grep -qx "QBUF output, the whole payload: ok" /tmp/bad.log
	codec_no_leak "after the bad input"

	# ---- drains: ENC_CMD STOP right after a frame, then START ----
	codec-bad drain "$CODEC" 20 >/tmp/drain.log 2>&1
	grep -v ': ok$' /tmp/drain.log | sed 's/^/# /'
	check "codec: 20 drains (STOP racing the frame's interrupt) each end with LAST, START resumes (20 frames)" \
		grep -qx "drains: 20 of 20 ended with LAST and restarted, 20 frames" /tmp/drain.log
	codec_no_leak "after the drains"

	# ---- STREAMOFF during a job: .job_abort resets the device and fails
	# the job at once, rather than wait (the device's lock held) for its
	# interrupt or, on a stuck device, the 10 s watchdog ----
	codec-bad abort "$CODEC" 5 >/tmp/abort.log 2>&1
	grep -v ': ok$' /tmp/abort.log | sed 's/^/# /'
	# shellcheck disable=SC2046 # (its two numbers)
	set -- $(sed -n 's/^aborts: \([0-9]*\) of 5 jobs aborted at STREAMOFF, [0-9]* waited for, \([0-9]*\) other;.*/\1 \2/p' /tmp/abort.log)
	check "codec: STREAMOFF(OUTPUT) during a 1920x1080 job aborts it (CAPTURE buffer ERROR; ${1:-?} of 5), and the next frame encodes" \
		sh -c "[ '${1:-0}' -ge 1 ] && [ '${2:-1}' = 0 ] &&
			grep -q '^abort: then a frame encoded: bytesused [1-9][0-9]*\$' /tmp/abort.log"
	codec_no_leak "after the aborts"

	# ---- S_FMT(CAPTURE) while either queue has buffers: EBUSY
	# (dev-encoder.rst); G/S_PARM ----
	codec-bad fmtbusy "$CODEC" >/tmp/fmt.log 2>&1
	sed 's/^/# /' /tmp/fmt.log
	check "codec: S_FMT(CAPTURE) with buffers on OUTPUT or on CAPTURE: EBUSY; with none: accepted" \
		sh -c 'grep -qx "S_FMT capture, OUTPUT has buffers: errno EBUSY" /tmp/fmt.log &&
			grep -qx "S_FMT capture, CAPTURE has buffers: errno EBUSY" /tmp/fmt.log &&
			grep -qx "S_FMT capture, no buffers: ok" /tmp/fmt.log'
	codec-bad parm "$CODEC" >/tmp/parm.log 2>&1
	sed 's/^/# /' /tmp/parm.log
	# (a mem2mem JPEG encoder has no frame interval: v4l2-compliance
	# fails G/S_PARM on it, docs/codec.md)
	# shellcheck disable=SC2016 # (sh -c's script, expanded there)
	check "codec: no G/S_PARM on either queue (ENOTTY), as v4l2-compliance wants of a JPEG encoder" \
		sh -c 'for w in "G_PARM output" "S_PARM output 1/25" "S_PARM output 0/0" "G_PARM capture" "S_PARM capture"; do
			grep -qx "$w: errno ENOTTY" /tmp/parm.log || exit 1; done'

	# ---- closing while streaming ----
	stream_start YUYV 640 480
	streaming "codec: kill -9 while streaming" $SPID /tmp/stream.log
	kill -9 $SPID
	wait $SPID 2>/dev/null
	codec_no_leak "after the streaming process was killed"

	# ---- unbinding while streaming ----
	drv=/sys/bus/platform/drivers/s5pv210-codec
	stream_start YUYV 640 480
	streaming "codec: unbind while streaming" $SPID /tmp/stream.log
	echo $CODEC_DEV >"$drv/unbind"
	t=0
	while kill -0 $SPID 2>/dev/null && [ $t -lt 300 ]; do sleep 0.1; t=$((t + 1)); done
	if kill -0 $SPID 2>/dev/null; then
		not_ok "codec: the streaming process did not end after unbind"
		kill -9 $SPID
	else
		ok "codec: the streaming process ends after unbind ($(tail -n 1 /tmp/stream.log | tr -d '\r<>'))"
	fi
	wait $SPID 2>/dev/null
	check "codec: no codec video device after unbind" sh -c "[ -z \"\$(. /tests/camera-lib.sh; video_node s5pv210-codec)\" ]"
	codec_no_leak "after unbind while streaming"
	echo $CODEC_DEV >"$drv/bind"
	CODEC=$(codec_node)
	check "codec: bound again ($CODEC)" test -n "$CODEC"
	pipeline YUYV 320 240 2

	# ---- rmmod while streaming ----
	stream_start YUYV 640 480
	streaming "codec: rmmod while streaming" $SPID /tmp/stream.log
	if rmmod s5pv210_codec 2>/tmp/rmmod.err; then
		not_ok "codec: rmmod succeeded while the device was open"
	else
		ok "codec: rmmod refused while streaming ($(cat /tmp/rmmod.err))"
	fi
	kill $SPID
	wait $SPID 2>/dev/null
	codec_no_leak "after the streaming process ended"
	check "codec: rmmod s5pv210_codec once idle" rmmod s5pv210_codec
	check "codec: the memory ports went with the driver" \
		sh -c "! ls -d /sys/devices/platform/soc/$CODEC_DEV/$CODEC_DEV:* 2>/dev/null"
	check "codec: modprobe loads it again" modprobe s5pv210-codec
	CODEC=$(codec_node)
	pipeline YUYV 640 480 2
	codec_no_leak "at the end"

	# ---- the single-planar API (multiplanar=1), for applications that
	# know no other: compliance, an encode, the camera's NV12 imported ----
	rmmod s5pv210_codec && modprobe s5pv210-codec multiplanar=1
	CODEC=$(codec_node)
	check "codec: reloaded with multiplanar=1: the single-planar API ($CODEC: V4L2_CAP_VIDEO_M2M)" \
		sh -c "dmesg | tail -n 20 | grep -q 'Motion-JPEG encoder at $CODEC, single-planar API' &&
			v4l2-ctl -d $CODEC -D | grep -q 'Video Memory-to-Memory\$'"
	v4l2_compliance /tmp/comp-sp.log -d "$CODEC" -s10 -f
	ccompliance "single-planar API: v4l2-compliance -s10 -f (MMAP streaming, every format)" /tmp/comp-sp.log \
		"test VIDIOC_(TRY_)ENCODER_CMD: OK" "test VIDIOC_ENUM_FMT/FRAMESIZES/FRAMEINTERVALS: OK" \
		"test VIDIOC_G_FMT: OK" "test VIDIOC_TRY_FMT: OK" "test VIDIOC_S_FMT: OK" \
		"test VIDIOC_REQBUFS/CREATE_BUFS/QUERYBUF: OK" "test MMAP (select, REQBUFS): OK" \
		"Stream using all formats:"
	codec_no_leak "after v4l2-compliance on the single-planar API"
	pipeline NV12 320 240 2
	codec-bad zerocopy "$CODEC" "$CAM" NV12 640x480 >/tmp/zc.log 2>&1
	grep -v "^zerocopy NV12: " /tmp/zc.log | sed 's/^/# /'
	check "codec: single-planar API: zero copy NV12 640x480 (one camera DMABUF a frame), 2 frames" \
		grep -qx "zerocopy NV12: 1 sizes, 2 camera buffers imported, 2 frames encoded, 0 failed" /tmp/zc.log
	rmmod s5pv210_codec && modprobe s5pv210-codec
	CODEC=$(codec_node)
	check "codec: reloaded with the default, the multi-planar API ($CODEC: V4L2_CAP_VIDEO_M2M_MPLANE)" \
		sh -c "dmesg | tail -n 20 | grep -q 'Motion-JPEG encoder at $CODEC, multi-planar API' &&
			v4l2-ctl -d $CODEC -D | grep -q 'Video Memory-to-Memory Multiplanar'"
	codec_no_leak "after the single-planar API"
	;;
swapped)
	codec_placement YUYV 640 480 "a=codec-b b=codec-a"
	pipeline YUYV 640 480 4
	# the camera's luma (kind y) in codec-b, inside port A's window (bank
	# 2); its chroma (kind c) in cam (bank 1), outside it
	codec-bad import "$CODEC" "$CAM" 640 480 >/tmp/bad.log 2>&1
	check "codec: kinds swapped: QBUF of the camera's YUYV buffer (kind y, codec-b, inside port A): accepted" \
		grep -qx "QBUF output dmabuf: ok" /tmp/bad.log
	codec-bad zerocopy "$CODEC" "$CAM" NM12 640x480 >/tmp/zc.log 2>&1
	sed 's/^/# /' /tmp/zc.log
	check "codec: kinds swapped: the camera's NM12 with its chroma outside port A's window refused at QBUF: EINVAL" \
		grep -qx "zerocopy NM12 640x480: codec QBUF of camera buffer 0 (307200 and 153600 bytes): errno EINVAL" /tmp/zc.log
	check "codec: kinds swapped: the kernel log names the chroma plane, its address and port A's window" \
		sh -c "dmesg | grep -q \"OUTPUT buffer 0 plane 1 (chroma) at 0x4[cd][0-9a-f]*-0x4[cd][0-9a-f]* refused: not 16-byte aligned inside port A's window 0x50000000-0x57ffffff\""
	dmesg | grep "refused" | sed 's/^/# /'
	codec_no_leak "at the end"
	;;
onebank)
	# Both kinds in codec-a (bank 1): every picture there is in the
	# bitstream's bank, which the device refuses (error 10); the driver
	# refuses such buffers at QBUF instead, naming the plane.
	check "codec: one bank: the driver says at probe that kinds a and b share memory" \
		sh -c "dmesg | grep -q 'placement error: kinds \"a\" (.*) and \"b\" (.*) share memory'"
	dmesg | grep 'placement error\|bank [0-9]' | sed 's/^/# /'
	codec-bad encode "$CODEC" >/tmp/bad.log 2>&1
	sed 's/^/# /' /tmp/bad.log
	check "codec: one bank: QBUF of an OUTPUT buffer (MMAP, codec-a: the bitstream's bank): EINVAL" \
		grep -qx "QBUF output: errno EINVAL" /tmp/bad.log
	check "codec: one bank: the kernel log names the plane, its address and the bank" \
		sh -c "dmesg | grep -q \"OUTPUT buffer 0 plane 0 (packed picture) at 0x4[ef][0-9a-f]*-0x4[ef][0-9a-f]* refused: in the bitstream's bank 0x40000000-0x4fffffff\""
	# the multi-planar camera's two buffers (region cam: bank 1 too)
	codec-bad zerocopy "$CODEC" "$CAM" NM12 640x480 >/tmp/zc.log 2>&1
	sed 's/^/# /' /tmp/zc.log
	check "codec: one bank: the camera's NM12 (two DMABUFs in the bitstream's bank) refused at QBUF: EINVAL" \
		grep -qx "zerocopy NM12 640x480: codec QBUF of camera buffer 0 (307200 and 153600 bytes): errno EINVAL" /tmp/zc.log
	check "codec: one bank: the kernel log names its luma plane and address" \
		sh -c "dmesg | grep -q \"OUTPUT buffer 0 plane 0 (luma) at 0x4[cd][0-9a-f]*-0x4[cd][0-9a-f]* refused: in the bitstream's bank 0x40000000-0x4fffffff\""
	dmesg | grep "refused" | sed 's/^/# /'
	# an ordinary application: v4l2-ctl ends, reporting the error
	grab YUYV 640 480 2 /tmp/raw
	timeout 60 v4l2-ctl -d "$CODEC" --set-fmt-video-out=width=640,height=480,pixelformat=YUYV \
		--stream-out-mmap --stream-mmap --stream-from=/tmp/raw --stream-to=/tmp/out.mjpeg \
		--stream-count=2 >/tmp/enc.log 2>&1
	rc=$?
	tail -n 3 /tmp/enc.log | sed 's/^/# /'
	check "codec: one bank: a v4l2-ctl encode ends at once (status $rc, not the timeout's 124) with QBUF: Invalid argument" \
		sh -c "[ $rc != 124 ] && grep -q 'VIDIOC_QBUF returned -1 (Invalid argument)' /tmp/enc.log"
	check "codec: one bank: no frame came out" sh -c '! [ -s /tmp/out.mjpeg ]'
	check "codec: one bank: no job reached the device (no device error in the log)" \
		sh -c "! dmesg | grep -q 'windows overlap\|encoding failed'"
	rm -f /tmp/raw /tmp/out.mjpeg
	codec_no_leak "after the refusals"
	;;
basic)
	compliance
	pipeline YUYV 640 480 4
	pipeline NV12 640 480 2
	pipeline NV12 640 480 2 75 1
	pipeline NM12 640 480 2
	codec_placement YUYV 640 480 "a=codec-a b=codec-b"
	codec_no_leak "at the end"
	;;
*)
	not_ok "codec: unknown scenario '$scenario'"
	;;
esac

# Besides the codec's own chunks (codec_no_leak): every CMA region whole again.
cma_nothing_lost "codec: nothing lost in any CMA region at the end"

check "codec: no oops, BUG or warning in the kernel log" \
	sh -c ". /tests/lib.sh; ! part_dmesg | kernel_reports"
exit $T_FAILED
