#!/bin/sh
# Per-region statistics, the ff and bitmap allocators and bigphysarea, from
# inside the guest (tests/suites/45-cma-stats.sh boots Goni and runs it).
# Prints TAP lines.
#
#   cma-stats.sh main     after a boot with CMA_STATS_APPEND (below): three
#                         regions, one per allocator, a region refused for
#                         parameters its allocator does not take, and
#                         bigphysarea=256
#   cma-stats.sh badbig   after a boot with bigphysarea=12x
set -u
set -f
# shellcheck source=lib.sh
. /tests/lib.sh
# shellcheck source=cma-lib.sh
. /tests/cma-lib.sh

scenario=${1:-main}
T=/tmp/cma-stats
rm -rf "$T" && mkdir -p "$T"
MiB=1048576

# session_start NAME: cma-test reading commands from the fifo on fd 7; its
# output in $T/NAME.out and $T/NAME.err.
session_start() {
	S=$1
	rm -f "$T/in"
	mkfifo "$T/in"
	cma-test -q <"$T/in" >"$T/$S.out" 2>"$T/$S.err" &
	S_PID=$!
	exec 7>"$T/in"
	S_STATS=0
}
session_end() {
	exec 7>&-
	wait $S_PID
}

# stats_now REGION: ask the session for "stats REGION" and set STATS to its
# line once cma-test has written it (so every command before it is done too).
# Not in a $(...) subshell: it counts the requests in S_STATS.
stats_now() {
	S_STATS=$((S_STATS + 1))
	echo "stats $1" >&7
	_t=0
	while [ "$(grep -c "^$1: " "$T/$S.out")" -lt $S_STATS ] && [ $_t -lt 1200 ]; do
		sleep 0.05
		_t=$((_t + 1))
	done
	STATS=$(grep "^$1: " "$T/$S.out" | sed -n "${S_STATS}p")
}

# fd_at ADDR: the number cma-test gave the chunk at ADDR.
fd_at() { chunks_of "$T/$S.out" | awk -v a="$1" '$3 == a { print $1 }' | tail -n 1; }

# want REGION BASE SIZE ALLOC USED CHUNKS LARGEST OK FAIL: the stats line.
want() {
	echo "$1: base=$2 size=$3 allocator=$4 used=$5 free=$(($3 - $5)) chunks=$6 largest_free=$7 alloc_ok=$8 alloc_fail=$9"
}

# sequence REGION KIND ALLOC BASE: a known allocation and free sequence in a
# 4 MiB region at BASE (2 MiB aligned); after each step the statistics must
# be exactly the expected ones, and the chunks where first fit and best fit
# both put them.
sequence() {
	r=$1 k=$2 a=$3 base=$4 size=$((4 * MiB))
	b1=$(printf '0x%x' $((base + MiB))) b2=$(printf '0x%x' $((base + 2 * MiB)))
	session_start "$r"
	stats_now "$r"
	check_eq "stats [$r, $a]: fresh region" \
		"$(want "$r" "$base" $size "$a" 0 0 $size 0 0)" "$STATS"
	echo "a t/$k 1M" >&7
	echo "a t/$k 1M/2M" >&7
	stats_now "$r"
	check_eq "stats [$r, $a]: 1M and 1M aligned to 2M (slack left free)" \
		"$(want "$r" "$base" $size "$a" $((2 * MiB)) 2 $MiB 2 0)" "$STATS"
	check_eq "stats [$r, $a]: the first chunk at the base" "1" "$(fd_at "$base" | grep -c .)"
	check_eq "stats [$r, $a]: the aligned chunk at base + 2M" "1" "$(fd_at "$b2" | grep -c .)"
	check "stats [$r, $a]: cma-test stats lists the chunk with its owner from debugfs" \
		grep -qx "    $base: size=0x00100000 region=$r refs=1 owner=t/$k" "$T/$S.out"
	echo "a t/$k 3M" >&7
	stats_now "$r"
	check_eq "stats [$r, $a]: 3M does not fit: alloc_fail counts it" \
		"$(want "$r" "$base" $size "$a" $((2 * MiB)) 2 $MiB 2 1)" "$STATS"
	echo "a t/$k 1M" >&7
	stats_now "$r"
	check_eq "stats [$r, $a]: 1M goes into the slack" \
		"$(want "$r" "$base" $size "$a" $((3 * MiB)) 3 $MiB 3 1)" "$STATS"
	check_eq "stats [$r, $a]: the third chunk at base + 1M" "1" "$(fd_at "$b1" | grep -c .)"
	echo "f $(fd_at "$base")" >&7
	stats_now "$r"
	check_eq "stats [$r, $a]: freeing the first chunk" \
		"$(want "$r" "$base" $size "$a" $((2 * MiB)) 2 $MiB 3 1)" "$STATS"
	echo "f $(fd_at "$b1")" >&7
	stats_now "$r"
	check_eq "stats [$r, $a]: freeing the third merges two holes" \
		"$(want "$r" "$base" $size "$a" $MiB 1 $((2 * MiB)) 3 1)" "$STATS"
	echo "f $(fd_at "$b2")" >&7
	stats_now "$r"
	check_eq "stats [$r, $a]: freeing the last leaves one hole" \
		"$(want "$r" "$base" $size "$a" 0 0 $size 3 1)" "$STATS"
	session_end
	check_eq "stats [$r, $a]: cma-test reported only the failed 3M allocation as an error" \
		"a: cma_alloc: Cannot allocate memory (ENOMEM)" "$(grep -v ': allocating \|: freeing ' "$T/$S.err")"
}

# The /proc/bigphysarea table for an area of SIZE kB with the free and used
# lists given as "blocks largest total" (kB).
bigphys_table() {
	echo "Big physical area, size $1 kB"
	echo "                       free list:             used list:"
	printf 'number of blocks:      %8d               %8d\n' "$2" "$5"
	printf 'size of largest block: %8d kB            %8d kB\n' "$3" "$6"
	printf 'total:                 %8d kB            %8d kB\n' "$4" "$7"
}

scenario_main() {
	# The regions and their allocators, in sysfs and the boot log.
	# shellcheck disable=SC2012 # (the regions' names)
	check_eq "stats: one sysfs directory per region" \
		"bf1 bigphysarea bm ff1" "$(ls "$CMA_SYSFS" | tr '\n' ' ' | sed 's/ $//')"
	check_eq "stats: ff1 uses ff" ff "$(cma_stat ff1 allocator)"
	check_eq "stats: bm uses bitmap" bitmap "$(cma_stat bm allocator)"
	check_eq "stats: bf1 uses bf" bf "$(cma_stat bf1 allocator)"
	check_eq "stats: the boot log names the allocators" \
		"cma: region ff1: base=0x44000000 size=0x00400000 align=0x1000 allocator=ff
cma: region bm: base=0x44400000 size=0x00400000 align=0x1000 allocator=bitmap
cma: region bf1: base=0x44800000 size=0x00400000 align=0x1000 allocator=bf" \
		"$(klog | grep -E '^cma: region (ff1|bm|bf1): ')"

	# An allocator given parameters it does not take: refused when cma= is
	# parsed, so nothing is reserved for it and its map rule has no region.
	check_eq "stats: bitmap(p) is refused when parsed, one message, and its rule loses it" \
		"cma: error: cma=x=1M:bitmap(p): allocator bitmap takes only \"blind\"; region refused
cma: error: cma_map=t/x=x: no region x; skipped" \
		"$(klog | grep -E '^cma: error: cma(=x=|_map=t/x=)')"
	check "stats: no region x, so no sysfs directory for it" test ! -e "$CMA_SYSFS/x"
	check "stats: no allocator failed to start" sh -c "! dmesg | grep -q 'failed to start'"
	session_start unused
	echo "a t/x 4K" >&7
	session_end
	check "stats: an allocation routed to the refused region fails with ENOMEM" \
		grep -qx "a: cma_alloc: Cannot allocate memory (ENOMEM)" "$T/unused.err"

	# The same sequence on each allocator.
	sequence ff1 f ff 0x44000000
	sequence bm m bitmap 0x44400000
	sequence bf1 b bf 0x44800000
	cma_nothing_lost "stats: nothing lost after the sequences"

	# The cma_regions trace events, /proc/vmstat's counters and the
	# pageblock view, as docs/cma.md "Tracing" uses them.
	tr=/sys/kernel/tracing
	[ -d "$tr/events" ] || mount -t tracefs nodev "$tr" 2>/dev/null
	check "trace: the cma_regions events are in tracefs" test -d "$tr/events/cma_regions"
	echo 1 >"$tr/events/cma_regions/enable"
	echo >"$tr/trace"
	ok0=$(awk '$1 == "cma_alloc_success" { print $2 }' /proc/vmstat)
	fail0=$(awk '$1 == "cma_alloc_fail" { print $2 }' /proc/vmstat)
	session_start trace
	echo "a t/f 1M" >&7
	echo "a t/f 8M" >&7
	stats_now ff1
	check "pageblocks: ff1's one pageblock holds the 1 MiB chunk" \
		grep -Eqx '0x44000000 chunk +pages=1024 chunk=256 movable=0 unmovable=0' \
		"$CMA_DEBUGFS/pageblocks/ff1"
	echo "f $(fd_at 0x44000000)" >&7
	stats_now ff1
	session_end
	echo 0 >"$tr/events/cma_regions/enable"
	cat "$tr/trace" >"$T/trace"
	grep cma_regions "$T/trace" | sed 's/^/# /'
	check_eq "vmstat: one cma_alloc_success and one cma_alloc_fail more" \
		"$((ok0 + 1)) $((fail0 + 1))" \
		"$(awk '$1 == "cma_alloc_success" { s = $2 } $1 == "cma_alloc_fail" { f = $2 } END { print s, f }' /proc/vmstat)"
	check "trace: cma_regions_alloc_start for the rule of t/f" \
		grep -q 'cma_regions_alloc_start: region=- owner=t/f size=0x100000 align=0x1000$' "$T/trace"
	check "trace: cma_regions_alloc_finish with the region, address and no claim" \
		grep -Eq 'cma_regions_alloc_finish: region=ff1 owner=t/f size=0x100000 align=0x1000 addr=0x44000000 err=0 tries=0 ns=[0-9]+ migrated=0$' "$T/trace"
	check "trace: the 8 MiB request finishes with -ENOMEM" \
		grep -Eq 'cma_regions_alloc_finish: region=ff1 owner=t/f size=0x800000 align=0x1000 addr=0x0 err=-12 tries=0 ' "$T/trace"
	check "trace: cma_regions_release of the chunk" \
		grep -q 'cma_regions_release: region=ff1 owner=t/f addr=0x44000000 size=0x100000$' "$T/trace"
	check "pageblocks: free again" \
		grep -Eqx '0x44000000 free +pages=1024 chunk=0 movable=0 unmovable=0' \
		"$CMA_DEBUGFS/pageblocks/ff1"

	# bigphysarea=256: a 1 MiB region with ff, the 2004 table, a 2004 driver.
	base=$(cma_stat bigphysarea base)
	check_eq "bigphysarea: region bigphysarea, 256 pages, first fit" \
		"1048576 ff" "$(cma_stat bigphysarea size) $(cma_stat bigphysarea allocator)"
	check "bigphysarea: announced at boot" \
		sh -c "dmesg | grep -q 'bigphysarea: Allocated 256 pages at $base (region bigphysarea)\.\$'"
	empty=$(bigphys_table 1024 1 1024 1024 0 0 0)
	check_eq "bigphysarea: /proc/bigphysarea before: all free" "$empty" "$(cat /proc/bigphysarea)"
	dmesg -c >/dev/null
	check "bigphysarea: bigphys-test loads (allocates, writes, reads back, frees)" modprobe bigphys-test
	dmesg >"$T/bigphys.log"
	sed 's/^/# /' "$T/bigphys.log"
	check "bigphysarea: the frame: 16 pages, 4-page aligned, pattern read back" \
		grep -q "bigphys-test: frame: 16 pages at $base, aligned to 0x4000, pattern ok" "$T/bigphys.log"
	check "bigphysarea: bigphysarea_alloc(10000): pattern read back" \
		grep -q "bigphys-test: small: 10000 bytes at 0x[0-9a-f]*, pattern ok" "$T/bigphys.log"
	check_eq "bigphysarea: each bogus free gives exactly one warning line" 2 \
		"$(grep -c 'bigphysarea: bigphysarea_free_pages(.*): not allocated!$' "$T/bigphys.log")"
	check "bigphysarea: no backtrace for them" \
		sh -c ". /tests/lib.sh; ! kernel_reports '$T/bigphys.log' && ! grep -q 'Call trace' '$T/bigphys.log'"
	check_eq "bigphysarea: /proc/bigphysarea while the frame is held" \
		"$(bigphys_table 1024 1 960 960 1 64 64)" "$(cat /proc/bigphysarea)"
	check_eq "bigphysarea: sysfs while the frame is held" "65536 1 2" \
		"$(cma_stat bigphysarea used) $(cma_stat bigphysarea chunks) $(cma_stat bigphysarea alloc_ok)"
	check "bigphysarea: the chunk is bigphysarea's in debugfs" \
		grep -qx "$base: size=0x00010000 region=bigphysarea refs=1 owner=bigphysarea" "$CMA_DEBUGFS/chunks"
	check "bigphysarea: bigphys-test unloads (frees the frame)" rmmod bigphys-test
	check "bigphysarea: unload logged" sh -c "dmesg | grep -q 'bigphys-test: frame freed, unloaded'"
	# Bad requests: refused, nothing taken.
	check "bigphysarea: 1048577 pages (more bytes than 32 bits hold) are refused" \
		sh -c "! modprobe bigphys-test pages=1048577 2>/dev/null"
	check "bigphysarea: ... and the driver says so" \
		sh -c "dmesg | grep -q 'bigphys-test: bigphysarea_alloc_pages(1048577, 4) failed'"
	check "bigphysarea: an alignment of 3 pages is refused" \
		sh -c "! modprobe bigphys-test align=3 2>/dev/null"
	# (busybox modprobe falls back on init_module() when finit_module()
	# fails, so the module's init may run twice: one line per call.)
	calls=$(dmesg | grep -c 'bigphys-test: bigphysarea_alloc_pages(16, 3) failed')
	check_eq "bigphysarea: ... with one warning line per call ($calls)" "$calls" \
		"$(dmesg | grep -c 'bigphysarea: bigphysarea_alloc_pages(16, 3): alignment not a power of two$')"
	check "bigphysarea: ... at least one call" [ "$calls" -ge 1 ]
	check_eq "bigphysarea: /proc/bigphysarea after: all free again" "$empty" "$(cat /proc/bigphysarea)"
	cma_nothing_lost "stats: nothing lost at the end"
}

scenario_badbig() {
	check_eq "bigphysarea=12x: one clear message" \
		"bigphysarea: error: bigphysarea=12x is not a number of pages (1 or more); no area" \
		"$(klog | grep '^bigphysarea: ')"
	check_eq "bigphysarea=12x: no region, the board's four are there" \
		"cma: 4 regions reserved (74752 KiB), 4 map rules, 0 problems" \
		"$(klog | grep '^cma: [0-9]* regions reserved')"
	check "bigphysarea=12x: no sysfs directory for it" test ! -e "$CMA_SYSFS/bigphysarea"
	check_eq "bigphysarea=12x: /proc/bigphysarea says so" \
		"No big physical area allocated!" "$(cat /proc/bigphysarea)"
	check "bigphysarea=12x: bigphys-test cannot load" sh -c "! modprobe bigphys-test 2>/dev/null"
	check "bigphysarea=12x: and says why" \
		sh -c "dmesg | grep -q 'bigphys-test: bigphysarea_alloc_pages(16, 4) failed'"
	cma_nothing_lost "stats: nothing lost"
}

case "$scenario" in
main) scenario_main ;;
badbig) scenario_badbig ;;
*) not_ok "stats: unknown scenario '$scenario'" ;;
esac
[ "$T_FAILED" = 0 ]
