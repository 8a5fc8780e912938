#!/bin/sh
# The seeded ioctl/mmap fuzzer (s5p-fuzz, tools/fuzz) against /dev/cma, the
# camera, the codec and the codec's media node, then: no kernel report, the
# CMA statistics back at their starting values, nothing lost, and the
# camera still captures and the codec still encodes.  8 TAP lines.
# (tests/suites/47-guest-fuzz.sh and scripts/fuzz-guest.sh boot Goni with
# the board's defaults and run it; docs/fuzzing-guest.md.)
#
#   fuzz.sh SEED OPS PROCS KILLS
#   fuzz.sh shared      (a part of the debug kernel's shared boot, tests/lib/
#                       shared-boot.sh: a random seed, 300 operations, 4
#                       processes, 4 killed; the seed is in the output)
# shellcheck source=lib.sh
set -u
. /tests/lib.sh
# shellcheck source=camera-lib.sh
. /tests/camera-lib.sh
# shellcheck source=codec-lib.sh
. /tests/codec-lib.sh
# shellcheck source=cma-lib.sh
. /tests/cma-lib.sh

seed=${1:?seed} ops=${2:-5000} procs=${3:-4} kills=${4:-4}
if [ "$seed" = shared ]; then
	seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ') ops=300 procs=4 kills=4
	echo "# seed $seed, $ops operations, $procs processes, $kills killed (replay:" \
		"S5P_FLAVOURS=debug S5P_FUZZ_SEED=$seed S5P_FUZZ_OPS=$ops make check SUITES=47-guest-fuzz)"
fi
CAM=$(cam_node)
CODEC=$(codec_node)
MEDIA=
for m in /sys/bus/media/devices/media*; do
	[ "$(cat "$m/model" 2>/dev/null)" = s5pv210-codec ] && MEDIA=/dev/${m##*/}
done
if [ -n "$CAM" ] && [ -n "$CODEC" ] && [ -c /dev/cma ]; then
	ok "fuzz: targets: /dev/cma, camera $CAM, codec $CODEC${MEDIA:+, media $MEDIA}"
else
	not_ok "fuzz: targets: /dev/cma $(ls -l /dev/cma 2>&1), camera '$CAM', codec '$CODEC'"
fi

# stats: every region's used chunks free largest_free, one line each
stats() {
	for d in "$CMA_SYSFS"/*; do
		[ -d "$d" ] || continue
		n=${d##*/}
		echo "$n used=$(cma_stat "$n" used) chunks=$(cma_stat "$n" chunks)" \
			"free=$(cma_stat "$n" free) largest_free=$(cma_stat "$n" largest_free)"
	done
}
stats >/tmp/fuzz-stats.before

# The kernel log from here on is the fuzzer's
echo "s5p-fuzz-guest: start seed $seed" >/dev/kmsg
t0=$(cut -d' ' -f1 /proc/uptime)
s5p-fuzz -s "$seed" -n "$ops" -p "$procs" -k "$kills" cma:/dev/cma \
	${CAM:+cap:$CAM} ${CODEC:+m2m:$CODEC} ${MEDIA:+media:$MEDIA} \
	>/tmp/fuzz.out 2>/tmp/fuzz.err
rc=$?
t1=$(cut -d' ' -f1 /proc/uptime)
sed 's/^/# /' /tmp/fuzz.out
# (faults touching a mapping, at most 5 per worker; anything else)
head -n 40 /tmp/fuzz.err | sed 's/^/# stderr: /'
summary=$(sed -n 's/^s5p-fuzz: done: //p' /tmp/fuzz.out)
if [ $rc = 0 ] && [ -n "$summary" ]; then
	ok "fuzz: s5p-fuzz -s $seed -n $ops -p $procs -k $kills: every worker ended as expected" \
		"($(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }") s of guest time)"
else
	not_ok "fuzz: s5p-fuzz -s $seed -n $ops -p $procs -k $kills: exit status $rc" \
		"(replay: s5p-fuzz -s $seed -n $ops -p $procs -k $kills ...)"
fi
# Processes killed in an ioctl or with mappings: every file is released
# before waitpid() returns, so nothing should be pending; give deferred
# work a moment anyway.
sleep 1

# Kernel reports since the start mark (the host also searches the whole
# console log)
dmesg | sed -n '/s5p-fuzz-guest: start/,$p' >/tmp/fuzz.dmesg
reports=$(kernel_reports /tmp/fuzz.dmesg)
if [ -z "$reports" ]; then
	ok "fuzz: no kernel report in the log since the fuzzer started (seed $seed)"
else
	not_ok "fuzz: kernel reports after fuzzing with seed $seed"
	echo "$reports" | head -n 10 | sed 's/^/#   /'
	grep -A25 -m1 -E -f /tests/kernel-reports.re /tmp/fuzz.dmesg |
		sed 's/^/#   /'
fi

stats >/tmp/fuzz-stats.after
if cmp -s /tmp/fuzz-stats.before /tmp/fuzz-stats.after; then
	ok "fuzz: every region's used, chunks, free and largest_free back at their starting values"
else
	not_ok "fuzz: CMA statistics changed (seed $seed)"
	diff /tmp/fuzz-stats.before /tmp/fuzz-stats.after | sed 's/^/#   /'
	sed 's/^/#   chunk: /' "$CMA_DEBUGFS/chunks"
fi
cma_nothing_lost "fuzz: nothing lost after fuzzing (no chunk held, every region one free hole)"

# The devices still work
# (Not in a pipeline: capture's not_ok must count in this shell's T_FAILED.)
capture YUYV 640 480 0 4 >/tmp/cap-after.out
grep -v '^FRAME ' /tmp/cap-after.out | sed 's/: camera: /: fuzz: camera after fuzzing: /'
rm -f /tmp/raw /tmp/out.mjpeg
if grab NV12 320 240 3 /tmp/raw && encode NV12 320 240 3 /tmp/raw /tmp/out.mjpeg; then
	pos=0 n=0 bad=0
	for s in $(echo "$SIZES" | tr , ' '); do
		[ "$(bytes_at /tmp/out.mjpeg $pos)" = ffd8 ] &&
			[ "$(bytes_at /tmp/out.mjpeg $((pos + s - 2)))" = ffd9 ] || bad=$((bad + 1))
		pos=$((pos + s)) n=$((n + 1))
	done
	if [ $n = 3 ] && [ $bad = 0 ]; then
		ok "fuzz: codec after fuzzing: camera -> codec NV12 320x240: 3 frames from SOI to EOI ($SIZES)"
	else
		not_ok "fuzz: codec after fuzzing: $n of 3 frames, $bad without SOI/EOI"
	fi
else
	not_ok "fuzz: codec after fuzzing: camera -> codec NV12 320x240 failed"
	tail -n 5 /tmp/grab.log /tmp/enc.log 2>/dev/null | sed 's/^/# /'
fi
rm -f /tmp/raw /tmp/out.mjpeg
cma_nothing_lost "fuzz: nothing lost after the capture and the encode"
[ "$T_FAILED" = 0 ]
