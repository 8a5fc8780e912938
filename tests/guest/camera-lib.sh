# shellcheck shell=sh
# Helpers for the camera's guest-side tests (busybox sh); source after
# /tests/lib.sh.

# The /dev node of the video device named $1 (default: the camera)
video_node() {
	for d in /sys/class/video4linux/video*; do
		[ "$(cat "$d/name" 2>/dev/null)" = "${1:-s5pv210-camera}" ] &&
			echo "/dev/${d##*/}" && return 0
	done
	return 0
}
cam_node() { video_node s5pv210-camera; }
vivid_node() { video_node vivid-000-vid-cap; }

# "W/H FOURCC" from v4l2-ctl's format printout in file $1
fmt_of() {
	wh=$(awk -F': ' '/Width\/Height/ { print $2; exit }' "$1" | tr -d ' ')
	pf=$(sed -n "s/.*Pixel Format *: '\(....\)'.*/\1/p" "$1" | head -n 1)
	echo "$wh $pf"
}

# Bytes of one frame as v4l2-ctl --stream-to writes it (no line padding)
frame_size() {
	case "$1" in
	YUYV) echo $(($2 * $3 * 2)) ;;
	NV12 | NM12) echo $(($2 * $3 * 3 / 2)) ;;
	esac
}

# capture FOURCC W H FLIP N [PATTERN]: N frames of test pattern PATTERN
# (default 0, the bars) through MMAP, each printed as a FRAME line
# (sequence number from the driver, SHA-256 of the bytes, and the pattern
# if not 0); checks the count and that sequence numbers increase.
capture() {
	fcc=$1 w=$2 h=$3 flip=$4 n=$5 pat=${6:-0} ptag=
	[ "$pat" = 0 ] || ptag=" $pat"
	rm -f /tmp/cap.raw
	v4l2-ctl -d "$CAM" "--set-fmt-video=width=$w,height=$h,pixelformat=$fcc" \
		-c "horizontal_flip=$((flip & 1)),vertical_flip=$((flip >> 1 & 1)),test_pattern=$pat" \
		--stream-mmap "--stream-count=$n" --stream-to=/tmp/cap.raw --verbose \
		>/tmp/cap.log 2>&1
	rc=$?
	size=$(frame_size "$fcc" "$w" "$h")
	got=$(($(stat -c %s /tmp/cap.raw 2>/dev/null || echo 0) / size))
	seqs=$(sed -n 's/.*cap dqbuf: *[0-9]* seq: *\([0-9]*\) .*/\1/p' /tmp/cap.log)
	if [ $rc != 0 ] || [ "$got" != "$n" ] || [ "$(echo "$seqs" | wc -w)" != "$n" ]; then
		# the buffers dequeued apart from the frames written: how many,
		# with the ERROR flag, empty (v4l2-ctl --verbose's dqbuf lines)
		ndq=$(grep -c 'cap dqbuf:' /tmp/cap.log)
		nerr=$(grep 'cap dqbuf:' /tmp/cap.log | grep -c '(.*error.*)$')
		nzero=$(grep -c 'cap dqbuf:.* bytesused: 0 ' /tmp/cap.log)
		not_ok "camera: capture $fcc ${w}x$h: $got of $n frames (status $rc; $ndq buffers dequeued, $nerr of them with the ERROR flag, $nzero empty)"
		# v4l2-ctl's stdout (the format) is written last: show what went
		# wrong first, then where the frames were to go.
		grep -vE 'returned 0 \(Success\)|^	' /tmp/cap.log | tail -n 12 | sed 's/^/# /'
		# and every streaming step it took, successes included (the
		# 0-of-4 capture after fuzzing: docs/testing.md, "Reports seen
		# once"), with the interval and format the camera was left in
		grep -E 'REQBUFS|QUERYBUF|QBUF|STREAM|select|poll|dqbuf|EVENT|error|timeout' /tmp/cap.log |
			head -n 30 | sed 's/^/# v4l2-ctl: /'
		v4l2-ctl -d "$CAM" --get-parm --get-fmt-video --get-priority 2>&1 | sed 's/^/# now: /'
		grep -E 's5pv210|camera' /proc/interrupts | sed 's/^/# irq: /'
		echo "# /tmp/cap.raw: $(ls -l /tmp/cap.raw 2>&1); /tmp: $(df -k /tmp | tail -n 1)"
		echo "# $(grep -E '^(MemFree|MemAvailable):' /proc/meminfo | tr -s ' ' | tr '\n' ' ')"
		# (v4l2-ctl exits 0 after a failed REQBUFS or STREAMON, or a
		# "select timeout": what the driver said, if anything.)
		dmesg | tail -n 8 | sed 's/^/# dmesg: /'
		v4l2-ctl -d "$CAM" -c horizontal_flip=0,vertical_flip=0,test_pattern=0
		return
	fi
	prev=-1 i=0 mono=1
	for s in $seqs; do
		[ "$s" -gt "$prev" ] || mono=0
		prev=$s
		sum=$(dd if=/tmp/cap.raw "bs=$size" skip=$i count=1 2>/dev/null | sha256sum)
		echo "FRAME $fcc $w $h $flip $s ${sum%% *}$ptag"
		i=$((i + 1))
	done
	if [ $mono = 1 ]; then
		# shellcheck disable=SC2086 # (the list's words on one line)
		ok "camera: capture $fcc ${w}x$h flip $flip${ptag:+, pattern$ptag}: $n frames, sequence $(echo $seqs | tr ' ' ,)"
	else
		not_ok "camera: capture $fcc ${w}x$h: sequence numbers do not increase: $seqs"
	fi
	rm -f /tmp/cap.raw
	v4l2-ctl -d "$CAM" -c horizontal_flip=0,vertical_flip=0,test_pattern=0
}

# Camera chunks still allocated (its buffers: videobuf2-dma-contig
# allocates each plane through the DMA API, one CMA chunk owned by
# fb200000.camera/KIND)
cam_chunks() { grep -c "owner=fb200000.camera" /sys/kernel/debug/cma/chunks; }

# no_leak WHEN: every camera chunk is back in its region
no_leak() {
	c=$(cam_chunks)
	if [ "$c" = 0 ]; then
		ok "camera: no CMA chunk left $1"
	else
		not_ok "camera: $c CMA chunks left $1"
		sed 's/^/#   /' /sys/kernel/debug/cma/chunks
	fi
}

# wait_buffers N: until the camera has N chunks (30 s at most: two lanes and the debug kernel slow the guest)
wait_buffers() {
	t=0
	while [ "$(cam_chunks)" -lt "$1" ] && [ $t -lt 300 ]; do sleep 0.1; t=$((t + 1)); done
	sleep 0.3
}

# streaming WHAT PID LOG: before something is done "while streaming", a
# check that it is: the process PID is alive and v4l2-ctl has logged a
# dequeued buffer ('<' capture, '>' output) in LOG (waits up to 20 s).
streaming() {
	t=0
	while [ $t -lt 200 ] && kill -0 "$2" 2>/dev/null && ! grep -q '[<>]' "$3" 2>/dev/null; do
		sleep 0.1
		t=$((t + 1))
	done
	if kill -0 "$2" 2>/dev/null && grep -q '[<>]' "$3" 2>/dev/null; then
		ok "$1: streaming before it (a buffer dequeued)"
	else
		not_ok "$1: not streaming before it (process $(kill -0 "$2" 2>/dev/null && echo alive || echo gone); log: $(tail -c 200 "$3" 2>/dev/null | tr -d '\r<>'))"
	fi
}

# region_bounds NAME: "base end" (hex) of a CMA region
region_bounds() {
	sed -n "s/^$1: base=\(0x[0-9a-f]*\) size=\(0x[0-9a-f]*\) .*/\1 \2/p" \
		/sys/kernel/debug/cma/regions | {
		read -r base size && printf '%d %d\n' "$base" $((base + size))
	}
}

# buffers_in_regions WHO DEV WHAT "KIND=REGION ...": every buffer of DEV's
# KIND (a chunk owned by DEV/KIND in /tmp/chunks, a copy of debugfs
# cma/chunks) is a chunk of REGION and lies inside it; at least 4 per
# kind.  WHO and WHAT label the TAP lines.
buffers_in_regions() {
	who=$1 dev=$2 what=$3
	for kr in $4; do
		kind=${kr%%=*} reg=${kr#*=}
		# shellcheck disable=SC2046 # (its two words: base and end)
		set -- $(region_bounds "$reg")
		lo=$1 hi=$2
		if [ -z "$lo" ]; then
			not_ok "$who: no region $reg"
			continue
		fi
		n=0 bad=0
		while read -r dma size region refs owner; do
			[ "$owner" = "owner=$dev/$kind" ] || continue
			dma=${dma%:} size=${size#size=}
			a=$(printf '%d' "$dma") s=$(printf '%d' "$size")
			n=$((n + 1))
			if [ "$a" -lt "$lo" ] || [ $((a + s)) -gt "$hi" ]; then
				bad=$((bad + 1))
				echo "# $dma (+$size) is outside region $reg"
			fi
			{ [ "$region" = "region=$reg" ] && [ "$refs" = refs=1 ]; } ||
				{ bad=$((bad + 1)); echo "# $dma: ${region#region=} ${refs}, not a chunk of region $reg held once"; }
		done </tmp/chunks
		if [ $n -ge 4 ] && [ $bad = 0 ]; then
			ok "$who: $what: all $n kind \"$kind\" buffers lie in region $reg ($(printf '%#x-%#x' "$lo" "$hi"))"
		else
			not_ok "$who: $what: kind \"$kind\": $n buffers, $bad outside region $reg"
		fi
	done
}

# placement FOURCC W H "KIND=REGION ...": while streaming, every buffer
# of each KIND is a chunk of REGION (debugfs cma/chunks).
placement() {
	fcc=$1 w=$2 h=$3
	v4l2-ctl -d "$CAM" "--set-fmt-video=width=$w,height=$h,pixelformat=$fcc" \
		--stream-mmap=4 --stream-count=100000 >/dev/null 2>&1 &
	pid=$!
	wait_buffers 4
	cp /sys/kernel/debug/cma/chunks /tmp/chunks
	kill $pid
	wait $pid 2>/dev/null
	grep 'owner=fb200000.camera/' /tmp/chunks | sed 's/^/# /'
	buffers_in_regions camera fb200000.camera "$fcc ${w}x$h" "$4"
}

# v4l2_compliance LOG ARGS...: v4l2-compliance ARGS, its output in LOG.
# (v4l-utils 1.30, Debian 13's: its TIME32/64 test allows 500 ms between
# the two steps it times, where 1.22's allowed 10 ms, which a TCG guest on
# the debug kernel with a busy host could exceed: no rerun any more.)
v4l2_compliance() {
	log=$1
	shift
	v4l2-compliance "$@" >"$log" 2>&1
}

# compliance_verdict WHAT LOG LINE...: v4l2-compliance passed every test
# (nothing is allow-listed: 0 failed, no "fail:" line), and each LINE is in
# its log.
compliance_verdict() {
	what=$1 log=$2
	shift 2
	total=$(grep '^Total for' "$log")
	nfail=$(echo "$total" | sed -n 's/.*Failed: \([0-9]*\).*/\1/p')
	missing=
	for l in "$@"; do grep -qF "$l" "$log" || missing="$missing '$l'"; done
	if [ -n "$total" ] && [ "${nfail:-1}" = 0 ] && ! grep -q 'fail:' "$log" && [ -z "$missing" ]; then
		ok "${COMP_WHAT:-camera}: $what: ${total#*: }"
		# (warnings do not fail; they are shown, as seen on a loaded host)
		grep 'warn:' "$log" | sed 's/^/#   /' | head -n 5
	else
		not_ok "${COMP_WHAT:-camera}: $what: ${total:-no totals}"
		[ -z "$missing" ] || echo "# missing:$missing"
		grep -B1 'fail:\|FAIL' "$log" | sed 's/^/#   /' | head -n 30
	fi
}
