# shellcheck shell=sh
# Helpers for the codec's guest-side tests (busybox sh); source after
# /tests/lib.sh and /tests/camera-lib.sh.

CODEC_DEV=f1700000.video-codec
codec_node() { video_node s5pv210-codec; }

# Codec chunks still allocated (its buffers: videobuf2-dma-contig allocates
# each through the DMA API, one CMA chunk owned by f1700000.video-codec/KIND)
codec_chunks() { grep -c "owner=$CODEC_DEV" /sys/kernel/debug/cma/chunks; }

# codec_no_leak WHEN: every codec (and camera) chunk is back in its region
codec_no_leak() {
	c=$(codec_chunks) k=$(cam_chunks)
	if [ "$c" = 0 ] && [ "$k" = 0 ]; then
		ok "codec: no CMA chunk left $1"
	else
		not_ok "codec: $c codec chunks, $k camera chunks left $1"
		sed 's/^/#   /' /sys/kernel/debug/cma/chunks
	fi
}

# codec_wait_buffers N: until the codec has N chunks (5 s at most)
codec_wait_buffers() {
	t=0
	while [ "$(codec_chunks)" -lt "$1" ] && [ $t -lt 300 ]; do sleep 0.1; t=$((t + 1)); done
	sleep 0.3
}

# grab FOURCC W H N FILE [PATTERN]: N camera frames (MMAP) of the test
# pattern PATTERN (default 0, the bars) into FILE; sets SEQS
# (comma-separated sequence numbers); fails if fewer came.
grab() {
	v4l2-ctl -d "$CAM" "--set-fmt-video=width=$2,height=$3,pixelformat=$1" -c "test_pattern=${6:-0}" \
		--stream-mmap "--stream-count=$4" --stream-to="$5" --verbose >/tmp/grab.log 2>&1
	rc=$?
	# the control outlives the file: back to the bars
	[ "${6:-0}" = 0 ] || v4l2-ctl -d "$CAM" -c test_pattern=0
	[ $rc = 0 ] || return 1
	SEQS=$(sed -n 's/.*cap dqbuf: *[0-9]* seq: *\([0-9]*\) .*/\1/p' /tmp/grab.log | tr '\n' , | sed 's/,$//')
	[ "$(echo "$SEQS" | tr , ' ' | wc -w)" = "$4" ] &&
		[ "$(stat -c %s "$5")" = $(($(frame_size "$1" "$2" "$3") * $4)) ]
}

# encode FOURCC W H N IN OUT [QUALITY]: N raw frames of IN through the
# codec (MMAP both queues) into the Motion-JPEG stream OUT; sets SIZES
# (comma-separated bytes of each frame, in order).
encode() {
	v4l2-ctl -d "$CODEC" "--set-fmt-video-out=width=$2,height=$3,pixelformat=$1" \
		${7:+-c compression_quality=$7} \
		--stream-out-mmap --stream-mmap --stream-from="$5" --stream-to="$6" \
		"--stream-count=$4" --verbose >/tmp/enc.log 2>&1 || return 1
	# (an empty buffer flagged LAST may end the drain: no frame)
	SIZES=$(sed -n 's/.*cap dqbuf: *[0-9]* seq: *[0-9]* bytesused: *\([1-9][0-9]*\).*/\1/p' /tmp/enc.log |
		tr '\n' , | sed 's/,$//')
}

# bytes_at FILE OFFSET: the two bytes at OFFSET, as "ffd8"
bytes_at() {
	dd if="$1" bs=1 skip="$2" count=2 2>/dev/null | od -An -tx1 | tr -d ' \n'
}

# emit TAG FILE ARGS...: FILE to the host, base64 between
# "BEGIN-FILE TAG ARGS..." and "END-FILE TAG"
emit() {
	tag=$1 f=$2
	shift 2
	echo "BEGIN-FILE $tag $*"
	base64 "$f"
	echo "END-FILE $tag"
}

# pipeline FOURCC W H N [QUALITY [PATTERN]]: camera -> codec, the camera
# showing test pattern PATTERN (0 bars, the default; 1 gradients and
# noise); checks the stream in the guest (frame count, SOI/EOI, sizes) and
# sends it to the host as "BEGIN-FILE MJPEG FOURCC W H SEQS SIZES PATTERN"
# for decoding and PSNR.
pipeline() {
	fcc=$1 w=$2 h=$3 n=$4 pat=${6:-0}
	rm -f /tmp/raw /tmp/out.mjpeg
	if ! grab "$fcc" "$w" "$h" "$n" /tmp/raw "$pat"; then
		not_ok "codec: capture $n $fcc ${w}x$h frames from the camera"
		tail -n 5 /tmp/grab.log | sed 's/^/# /'
		return
	fi
	if ! encode "$fcc" "$w" "$h" "$n" /tmp/raw /tmp/out.mjpeg "${5:-}"; then
		not_ok "codec: encode $n $fcc ${w}x$h frames (v4l2-ctl failed)"
		tail -n 5 /tmp/enc.log | sed 's/^/# /'
		return
	fi
	# every frame starts with SOI (and the JFIF APP0) and ends with EOI
	pos=0 nsz=0 bad=0
	for s in $(echo "$SIZES" | tr , ' '); do
		[ "$(bytes_at /tmp/out.mjpeg $pos)$(bytes_at /tmp/out.mjpeg $((pos + 2)))" = ffd8ffe0 ] &&
			[ "$(bytes_at /tmp/out.mjpeg $((pos + s - 2)))" = ffd9 ] || bad=$((bad + 1))
		pos=$((pos + s)) nsz=$((nsz + 1))
	done
	size=$(stat -c %s /tmp/out.mjpeg)
	what="$fcc ${w}x$h"
	[ "$pat" = 0 ] || what="$what, test pattern $pat"
	if [ "$nsz" = "$n" ] && [ $bad = 0 ] && [ "$size" = "$pos" ]; then
		ok "codec: $what: $n frames encoded, each from SOI to EOI, $size bytes (frames $SIZES)"
	else
		not_ok "codec: $what: $nsz of $n frames, $bad without SOI/EOI, $size bytes for $pos"
	fi
	emit MJPEG /tmp/out.mjpeg "$fcc" "$w" "$h" "$SEQS" "$SIZES" "$pat"
	rm -f /tmp/raw /tmp/out.mjpeg
}

# stream_start FOURCC W H: endless encode of one camera frame in the
# background (PID in SPID), until 8 codec buffers exist
stream_start() {
	grab "$1" "$2" "$3" 1 /tmp/loop.raw
	v4l2-ctl -d "$CODEC" "--set-fmt-video-out=width=$2,height=$3,pixelformat=$1" \
		--stream-out-mmap=4 --stream-mmap=4 --stream-from=/tmp/loop.raw --stream-loop \
		--stream-count=1000000 >/tmp/stream.log 2>&1 &
	SPID=$!
	codec_wait_buffers 8
}

# codec_placement FOURCC W H "KIND=REGION ...": while streaming, every
# codec buffer of each KIND is a chunk of REGION (debugfs cma/chunks).
codec_placement() {
	fcc=$1 w=$2 h=$3
	stream_start "$fcc" "$w" "$h"
	cp /sys/kernel/debug/cma/chunks /tmp/chunks
	kill $SPID
	wait $SPID 2>/dev/null
	grep "owner=$CODEC_DEV/" /tmp/chunks | sed 's/^/# /'
	buffers_in_regions codec "$CODEC_DEV" "$fcc ${w}x$h" "$4"
}
