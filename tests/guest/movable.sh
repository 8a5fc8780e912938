#!/bin/sh
# Movable regions (cma_movable=), from inside the guest
# (tests/suites/44-cma-movable.sh boots Goni and runs it).  Prints TAP lines.
#
#   movable.sh default   the board's defaults: cam, codec-a and codec-b lend
#                        their memory; hog fills memory (anonymous and page
#                        cache), chunks are taken back from under it, the
#                        hog's data is checked, the chunks freed and lent again
#   movable.sh static    cma_movable= (empty): every region static
#   movable.sh all       cma_movable=*: codec-fw (1 MiB) stays static, a note
#   movable.sh bad       cma_movable=nosuch,cam,,@@: three errors, cam movable
#   movable.sh cmdline   cma= on the command line with cma_movable=big: the
#                        unaligned region odd stays static, big serves 12 MiB
#                        from under a hog
set -u
set -f
# shellcheck source=lib.sh
. /tests/lib.sh
# shellcheck source=cma-lib.sh
. /tests/cma-lib.sh

scenario=${1:-default}
T=/tmp/movable
rm -rf "$T" && mkdir -p "$T"
SYS=/sys/kernel/mm/cma
MiB=1048576

meminfo() { sed -n "s/^$1: *\([0-9]*\) kB/\1/p" /proc/meminfo; }
vmstat() { sed -n "s/^$1 //p" /proc/vmstat; }
stat_of() { cat "$SYS/$1/$2"; }
# in_cam ADDR SIZE: whether [ADDR, ADDR+SIZE) lies in region cam.
in_cam() {
	[ -n "$1" ] && [ $(($1)) -ge $(($(stat_of cam base))) ] &&
		[ $(($1 + $2)) -le $(($(stat_of cam base) + $(stat_of cam size))) ]
}
# The regions and whether each is movable: "cam=1 codec-a=1 ..."
movable_flags() {
	# shellcheck disable=SC2045 # (set -f: no glob here; sysfs's names)
	for _r in $(ls "$SYS"); do printf '%s=%s ' "$_r" "$(stat_of "$_r" movable)"; done
}
errors() { klog | grep -c '^cma: error:'; }

# session_start: cma-test reading commands from a fifo on fd 7.
session_start() {
	rm -f "$T/in"
	mkfifo "$T/in"
	: >"$T/s.out"
	: >"$T/s.err"
	cma-test -q <"$T/in" >"$T/s.out" 2>"$T/s.err" &
	S_PID=$!
	exec 7>"$T/in"
}
session_end() {
	exec 7>&-
	wait $S_PID
}

# hog_start [-o OUT] ARGS: a hog holding memory, its output in OUT (default
# $T/hog.out), its pid in H_PID, once it says it holds it all.
hog_start() {
	_out=$T/hog.out
	[ "${1:-}" != -o ] || { _out=$2; shift 2; }
	: >"$_out"
	hog "$@" >"$_out" 2>&1 &
	H_PID=$!
	_t=0
	while ! grep -q '^hog: holding' "$_out" && [ $_t -lt 600 ]; do
		sleep 0.1
		_t=$((_t + 1))
	done
}

# hog_check: the hog's last check line after SIGUSR1.
hog_check() {
	_n=$(grep -c '^hog: checked' "$T/hog.out")
	kill -USR1 $H_PID
	_t=0
	while [ "$(grep -c '^hog: checked' "$T/hog.out")" -le "$_n" ] && [ $_t -lt 600 ]; do
		sleep 0.1
		_t=$((_t + 1))
	done
	grep '^hog: checked' "$T/hog.out" | tail -n 1
}

# The lines cma-test wrote to stderr, less its progress lines.
errs() { grep -vc ': allocating ' "$T/s.err"; }

# wait_output N E: wait (up to 2 minutes: migration and zeroing are slow on
# the debug kernel) until cma-test has printed more than N chunk lines or
# more than E error lines.
wait_output() {
	_t=0
	while [ "$(chunks_of "$T/s.out" | grep -c .)" -le "$1" ] &&
		[ "$(errs)" -le "$2" ] && [ $_t -lt 1200 ]; do
		sleep 0.1
		_t=$((_t + 1))
	done
}

# take REGION DEV SIZE: allocate SIZE for DEV from under the hog (region
# REGION, movable), check the chunk, the statistics and the pages migrated.
take() {
	_r=$1 _dev=$2 _size=$3
	_claims=$(stat_of "$_r" claims)
	_mig=$(vmstat pgmigrate_success)
	_n=$(chunks_of "$T/s.out" | grep -c .)
	_e=$(errs)
	echo "a $_dev $_size" >&7
	wait_output "$_n" "$_e"
	_start=$(chunks_of "$T/s.out" | awk -v s="$(printf '0x%x' "$_size")" '$2 == s { print $3 }' | tail -n 1)
	check "movable: $_size bytes for $_dev from $_r under memory pressure" [ -n "$_start" ]
	check "movable: the chunk lies in $_r" in_region "${_start:-0}" "$_size" "$_r"
	check_eq "movable: $_r took one range back (claims)" $((_claims + 1)) "$(stat_of "$_r" claims)"
	check_eq "movable: $_r lends its size less the chunk" \
		$(($(stat_of "$_r" size) - $(stat_of "$_r" used))) "$(stat_of "$_r" lent)"
	MIGRATED=$(($(vmstat pgmigrate_success) - _mig))
	echo "# $_r: $MIGRATED pages migrated for the chunk, claim_us $(stat_of "$_r" claim_us)"
}

scenario_default() {
	# shellcheck source=../../boards/goni/board.conf
	check "movable: the board's cma_movable= (board.conf's BOARD_CMA_MOVABLE, the tree's reusable regions) in the boot log" \
		grep -qxF "cma: cma_movable=$(. /etc/s5p/board.conf && echo "$BOARD_CMA_MOVABLE") (device tree)" "$T/klog"
	check_eq "movable: cam, codec-a and codec-b lend, codec-fw stays static" \
		"cam=1 codec-a=1 codec-b=1 codec-fw=0 " "$(movable_flags)"
	# (the board's sizes: cam 24 MiB, codec-a 32 MiB, codec-b 16 MiB)
	lent_kib=$((($(stat_of cam size) + $(stat_of codec-a size) + $(stat_of codec-b size)) / 1024))
	check_eq "movable: CmaTotal is the three regions ($((lent_kib / 1024)) MiB)" "$lent_kib" "$(meminfo CmaTotal)"
	check_eq "movable: no cma: error line" 0 "$(errors)"
	for r in cam codec-a codec-b; do
		check_eq "movable: $r lends all of its $(($(stat_of "$r" size) / MiB)) MiB" "$(stat_of "$r" size)" "$(stat_of "$r" lent)"
	done
	check_eq "movable: codec-fw lends nothing" 0 "$(stat_of codec-fw lent)"
	echo "# MemTotal $(meminfo MemTotal) kB, MemAvailable $(meminfo MemAvailable) kB, CmaFree $(meminfo CmaFree) kB"

	# The page allocator's balance (vm.cma_first_ratio): the board's, from
	# its command line (board.conf's BOARD_KARGS), bad values refused.
	# The migration below is tested under 6.1's rule (50), which lends
	# pageblocks to the hog; ratio_checks, at the end, tests the rule
	# itself.
	R=/proc/sys/vm/cma_first_ratio
	# shellcheck source=../../boards/goni/board.conf
	cfg=$(. /etc/s5p/board.conf && echo "$BOARD_KARGS" | tr ' ' '\n' | sed -n 's/^sysctl\.vm\.cma_first_ratio=//p')
	board_ratio=$(cat $R)
	check_eq "movable: vm.cma_first_ratio is the board's command line's (${cfg:-none})" "${cfg:-none}" "$board_ratio"
	check "movable: vm.cma_first_ratio refuses 101 and -1, and keeps its value" \
		sh -c "! echo 101 2>/dev/null >$R && ! echo -1 2>/dev/null >$R && [ \$(cat $R) = $board_ratio ]"
	echo 50 >$R

	# Fill memory: a big hog first, then a 20 MiB one that takes what is
	# left, lent pageblocks included.  The small one then goes, leaving
	# room for the 14 MiB of chunks below and for the migration's
	# destination pages (with the memory full, taking codec-a back OOMs on
	# the debug kernel: nowhere to move the pages to), while the big one's
	# pages stay in the lent pageblocks where the page allocator put them.
	hog_start -a $(($(meminfo MemAvailable) / 1024 - 48)) -f 16
	check "movable: hog holds MemAvailable less 48 MiB, and 16 MiB of page cache" \
		grep -q '^hog: holding' "$T/hog.out"
	sed 's/^/# /' "$T/hog.out"
	big=$H_PID
	hog_start -o "$T/hog-small.out" -a 20
	small=$H_PID H_PID=$big
	cma_free=$(meminfo CmaFree)
	echo "# under both hogs: CmaFree $cma_free kB, MemFree $(meminfo MemFree) kB"
	check "movable: the hogs' pages use at least 8 MiB of the lent memory (CmaFree $cma_free kB < CmaTotal less 8 MiB)" \
		[ "$cma_free" -lt $((lent_kib - 8192)) ]
	kill -TERM $small
	wait $small
	echo "# the small hog gone: CmaFree $(meminfo CmaFree) kB, MemFree $(meminfo MemFree) kB"

	session_start
	take cam s5p-cam/y $((6 * MiB))
	mig_cam=$MIGRATED
	take codec-a s5p-codec/a $((8 * MiB))
	check "movable: taking the chunks back migrated pages ($mig_cam, $MIGRATED)" \
		[ $((mig_cam + MIGRATED)) -gt 0 ]
	check_eq "movable: codec-a lends only what the 8 MiB chunk leaves" \
		$(($(stat_of codec-a size) - 8 * MiB)) "$(stat_of codec-a lent)"
	# The chunks are zeroed and hold what is written to them.
	fd=$(chunks_of "$T/s.out" | awk '$2 == "0x800000" { print $1 }' | tail -n 1)
	echo "check $fd 0" >&7
	echo "fill $fd 0x5a" >&7
	echo "check $fd 0x5a" >&7
	_t=0
	while [ "$(grep -c "^ *$fd: 0x800000 bytes of\|^ *$fd: mismatch" "$T/s.out")" -lt 2 ] && [ $_t -lt 600 ]; do
		sleep 0.1
		_t=$((_t + 1))
	done
	check "movable: the 8 MiB chunk was handed out zeroed" \
		grep -q "^ *$fd: 0x800000 bytes of 0x00$" "$T/s.out"
	check "movable: the 8 MiB chunk keeps what is written to it" \
		grep -q "^ *$fd: 0x800000 bytes of 0x5a$" "$T/s.out"
	check_eq "movable: the hog's data survived the migration" \
		"hog: checked $(( ($(sed -n 's/^hog: holding \([0-9]*\) KiB anonymous, \([0-9]*\) KiB file.*/\1 + \2/p' "$T/hog.out") ) / 4)) pages, 0 bad" \
		"$(hog_check)"

	# Claims migrating from under the hog hold no lock that others need
	# (issue 23): meanwhile the last cma_kind_put() of a chunk of the same
	# region, another device's 4 KiB dma_alloc_coherent() and a read of the
	# region's sysfs statistics go on (drivers/cma-bench, "contend").  A
	# release from atomic context (interrupts off, a spinlock held) and one
	# from a reclaim context (a shrinker's) neither sleep nor deadlock: the
	# debug kernel (DEBUG_ATOMIC_SLEEP, lockdep) would report it.
	B=/sys/kernel/debug/cma-bench
	modprobe cma-bench
	check "movable: cma-bench: two 4 MiB claims of codec-b under the hog while a free, a 4 KiB dma_alloc_coherent() and a sysfs read go on" \
		sh -c "echo 's5p-codec b $((4 * MiB)) 2' >$B/contend"
	sed 's/^/# contend: /' "$B/contend"
	check "movable: ... both claims succeeded" grep -q '^claims 2 failed 0 ' "$B/contend"
	check "movable: a chunk's last cma_kind_put() with interrupts off and a spinlock held" \
		sh -c "echo 'atomic s5p-codec b' >$B/free"
	check "movable: a chunk's last cma_kind_put() in a reclaim context (a shrinker's)" \
		sh -c "echo 'reclaim s5p-codec b' >$B/free"
	rmmod cma-bench

	# A camera stream from the lent memory while the hog holds the rest.
	if [ -e /dev/video0 ]; then
		check "movable: the camera streams 4 frames from cam under pressure" \
			v4l2-ctl -d /dev/video0 --set-fmt-video=width=320,height=240,pixelformat=YUYV \
			--stream-mmap --stream-count=4 --stream-to="$T/frames"
		check_eq "movable: 4 frames of 320x240 YUYV" $((4 * 320 * 240 * 2)) \
			"$(wc -c <"$T/frames" 2>/dev/null)"
		rm -f "$T/frames"
	fi

	session_end
	sleep 1
	for r in cam codec-a; do
		check_eq "movable: $r's chunks freed, all $(($(stat_of "$r" size) / MiB)) MiB lent again" "$(stat_of "$r" size)" "$(stat_of "$r" lent)"
		check_eq "movable: $r holds no chunk" 0 "$(stat_of "$r" chunks)"
	done
	kill -TERM $H_PID
	wait $H_PID
	check_eq "movable: hog exits with status 0 (every page checked good)" 0 $?
	tail -n 1 "$T/hog.out" | sed 's/^/# /'
	check "movable: CmaFree back near CmaTotal once the hog is gone ($(meminfo CmaFree) kB of $lent_kib)" \
		[ "$(meminfo CmaFree)" -gt $((lent_kib - 8192)) ]
	echo "# busy ranges: cam $(stat_of cam claim_busy), codec-a $(stat_of codec-a claim_busy)"
	ratio_checks "$lent_kib"
	echo "$board_ratio" >$R
}

# ratio_checks LENT_KIB: vm.cma_first_ratio at 100 keeps lent memory free
# while the rest of memory has room, uses it once the rest is down to its
# high watermark; at 0 a load takes lent memory first.
ratio_checks() {
	echo 100 >$R
	_cf0=$(meminfo CmaFree)
	_rest=$((($(meminfo MemFree) - $(meminfo CmaFree)) / 1024))
	hog_start -a $((_rest - 32))
	_cf=$(meminfo CmaFree)
	echo "# ratio 100, a hog of $((_rest - 32)) MiB (the rest of free memory less 32 MiB): CmaFree $_cf kB, MemFree $(meminfo MemFree) kB"
	check "movable: ratio 100: a hog that fits in the rest of memory leaves the lent memory free (CmaFree $_cf kB, $_cf0 before, of $1)" \
		[ "$_cf" -gt $((_cf0 - 2048)) ]
	_big=$H_PID
	hog_start -o "$T/hog-small.out" -a 48
	_cf=$(meminfo CmaFree)
	echo "# ratio 100, and a hog of 48 MiB: CmaFree $_cf kB, MemFree $(meminfo MemFree) kB"
	check "movable: ratio 100: once the rest is at its high watermark, movable pages use the lent memory (CmaFree $_cf kB < $_cf0 less 12 MiB)" \
		[ "$_cf" -lt $((_cf0 - 12288)) ]
	kill -TERM $H_PID $_big
	wait $H_PID
	_s1=$?
	wait $_big
	check_eq "movable: ratio 100: both hogs exit with status 0" "0 0" "$_s1 $?"
	# The kernel's own allocations, which cannot use lent memory, get the
	# rest back before an OOM kill: a hog leaves 8 MiB of the rest, then a
	# ramfs (whose pages are not movable) takes 24 MiB; the hog's pages
	# move into the lent memory.
	_rest=$((($(meminfo MemFree) - $(meminfo CmaFree)) / 1024))
	hog_start -a $((_rest - 8))
	_cf0=$(meminfo CmaFree)
	_oom=$(vmstat oom_kill)
	mkdir -p "$T/ramfs"
	mount -t ramfs ramfs "$T/ramfs"
	dd if=/dev/zero of="$T/ramfs/f" bs=1M count=24 2>/dev/null
	_cf=$(meminfo CmaFree)
	echo "# ratio 100, a hog of $((_rest - 8)) MiB, then 24 MiB in a ramfs: CmaFree $_cf kB ($_cf0 before), MemFree $(meminfo MemFree) kB, $(($(vmstat oom_kill) - _oom)) OOM kills"
	check_eq "movable: ratio 100: 24 MiB of unmovable memory beside a hog leaving 8 MiB of the rest: no OOM kill" \
		"$_oom" "$(vmstat oom_kill)"
	check_eq "movable: ... the ramfs holds the 24 MiB" $((24 * MiB)) "$(wc -c <"$T/ramfs/f")"
	check "movable: ... the hog's pages moved into the lent memory (CmaFree $_cf kB < $_cf0 less 16 MiB)" \
		[ "$_cf" -lt $((_cf0 - 16384)) ]
	rm -f "$T/ramfs/f"
	umount "$T/ramfs"
	kill -TERM $H_PID
	wait $H_PID
	check_eq "movable: ... the hog exits with status 0 (every page checked good)" 0 $?
	echo 0 >$R
	_cf0=$(meminfo CmaFree)
	hog_start -a 16
	_cf=$(meminfo CmaFree)
	check "movable: ratio 0: a 16 MiB hog takes lent memory first (CmaFree $_cf kB < $_cf0 less 12 MiB)" \
		[ "$_cf" -lt $((_cf0 - 12288)) ]
	kill -TERM $H_PID
	wait $H_PID
}

scenario_static() {
	check "movable: cma_movable= (empty) in the boot log" \
		grep -qx 'cma: cma_movable= (command line)' "$T/klog"
	check_eq "movable: every region static" \
		"cam=0 codec-a=0 codec-b=0 codec-fw=0 " "$(movable_flags)"
	check_eq "movable: CmaTotal 0" 0 "$(meminfo CmaTotal)"
	check_eq "movable: no cma: error line" 0 "$(errors)"
	echo "# MemTotal $(meminfo MemTotal) kB, MemAvailable $(meminfo MemAvailable) kB"
	session_start
	echo "a s5p-cam/y 6M" >&7
	wait_output 0 0
	session_end
	# (6 MiB inside cam, wherever the board puts it)
	addr=$(sed -n 's/^ *[0-9]*: 0x600000@\(0x[0-9a-f]*\)$/\1/p' "$T/s.out" | head -n 1)
	check "movable: a static region still serves (6 MiB of cam at ${addr:-nowhere})" \
		in_cam "$addr" $((6 * MiB))
	check_eq "movable: a static region takes nothing back" 0 "$(stat_of cam claims)"
}

scenario_all() {
	check_eq "movable: cam, codec-a, codec-b movable; codec-fw not" \
		"cam=1 codec-a=1 codec-b=1 codec-fw=0 " "$(movable_flags)"
	check "movable: a note says why codec-fw stays static" \
		grep -qx 'cma: region codec-fw: not made of whole 4096 KiB pageblocks; it stays static' "$T/klog"
	check_eq "movable: '*' reports no error" 0 "$(errors)"
}

scenario_bad() {
	check "movable: an unknown region is reported" \
		grep -qx 'cma: error: cma_movable=: no region nosuch; ignored' "$T/klog"
	check "movable: an empty name is reported" \
		grep -qx 'cma: error: cma_movable=: "" is not a region name; ignored' "$T/klog"
	check "movable: garbage is reported" \
		grep -qx 'cma: error: cma_movable=: "@@" is not a region name; ignored' "$T/klog"
	check_eq "movable: three errors" 3 "$(errors)"
	check_eq "movable: the good name still applies" \
		"cam=1 codec-a=0 codec-b=0 codec-fw=0 " "$(movable_flags)"
	check "movable: the regions and the map are the board's" \
		grep -q 'cma: 4 regions reserved (74752 KiB), 4 map rules, 3 problems' "$T/klog"
}

scenario_cmdline() {
	check "movable: an unaligned region named stays static, with an error" \
		grep -qx 'cma: error: region odd: 0x4a000000-0x4a5fffff is not made of whole 4096 KiB pageblocks; it stays static' "$T/klog"
	check_eq "movable: big movable, odd static" "big=1 odd=0 " "$(movable_flags)"
	check_eq "movable: CmaTotal is big's 16 MiB" 16384 "$(meminfo CmaTotal)"
	hog_start
	session_start
	take big t 12582912
	session_end
	line=$(hog_check)
	check_eq "movable: the hog's data survived the migration" "0 bad" "${line##*, }"
	kill -TERM $H_PID
	wait $H_PID
	check_eq "movable: hog exits with status 0" 0 $?
}

klog >"$T/klog"
case $scenario in
default) scenario_default ;;
static) scenario_static ;;
all) scenario_all ;;
bad) scenario_bad ;;
cmdline) scenario_cmdline ;;
*) not_ok "movable: unknown scenario '$scenario'" ;;
esac
[ "$T_FAILED" = 0 ]
