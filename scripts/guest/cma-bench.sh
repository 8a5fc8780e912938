#!/bin/sh
# The guest side of the CMA benchmark (scripts/bench-cma.sh runs it; not a
# test).  Replays the trace TRACE six ways and prints one BENCH line each:
#
#   cma idle     cma-test -q -t -p TRACE        (/dev/cma, the trace's regions)
#   dma idle     TRACE into drivers/cma-bench   (dma_alloc_coherent(), page allocator)
#   cma loaded   the same two while tools/frag holds every other page of
#   dma loaded   nearly all free memory (movable pages: compaction may help)
#   cma pinned   the same with frag -l and vm.compact_unevictable_allowed=0
#   dma pinned   (locked pages that compaction leaves where they are)
#
#   sh /usr/lib/s5p/cma-bench.sh TRACE [cma|dma|both]
#
# FRAG_MIB=N makes frag hold about N MiB instead of nearly all free memory
# (46-cma-bench-guest on the debug kernel, where touching it all takes
# minutes under KASAN).
#
# BENCH <how> <idle|loaded|pinned> allocs <n> failed <n> first <line|-> alloc-ns <p50> <p99> <max> free-ns <p50> <p99> <max>
# plus the buddy allocator's free blocks per order and compaction counters.
set -u
trace=$1
what=${2:-both}
D=/sys/kernel/debug/cma-bench
[ -f "$trace" ] || { echo "cma-bench: no trace '$trace'" >&2; exit 2; }

vm() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }

# cma-test's replay summary -> one BENCH line
run_cma() {
	cma-test -q -t -p "$trace" >/tmp/cma.out 2>/tmp/cma.err
	awk -v load="$1" '
		/^replay: [0-9]+ allocations,/ { allocs = $2 }
		/^replay: [0-9]+ allocations failed, the first at line/ { failed = $2; first = $9; sub(":", "", first) }
		/^replay: alloc ns:/ { split($0, a, /[ =]+/); ap50 = a[7]; ap99 = a[9]; amax = a[11] }
		/^replay: free ns:/ { split($0, a, /[ =]+/); fp50 = a[7]; fp99 = a[9]; fmax = a[11] }
		END { printf "BENCH cma %s allocs %d failed %d first %s alloc-ns %s %s %s free-ns %s %s %s\n",
			load, allocs, failed + 0, failed ? first : "-", ap50, ap99, amax, fp50, fp99, fmax }' /tmp/cma.out
	grep -v '^replay: ' /tmp/cma.err | head -n 5
}

run_dma() {
	s0=$(vm compact_stall) c0=$(vm compact_success)
	echo reset >$D/result
	cat "$trace" >$D/trace
	s1=$(vm compact_stall) c1=$(vm compact_success)
	awk -v load="$1" -v st=$((s1 - s0)) -v cs=$((c1 - c0)) '
		/^allocations/ { allocs = $2; failed = $4 }
		/^first-failure line/ { first = $3 }
		/^alloc-ns/ { split($0, a, /[ =]+/); ap50 = a[5]; ap99 = a[7]; amax = a[9] }
		/^free-ns/ { split($0, a, /[ =]+/); fp50 = a[5]; fp99 = a[7]; fmax = a[9] }
		END { printf "BENCH dma %s allocs %d failed %d first %s alloc-ns %s %s %s free-ns %s %s %s compact-stalls %d compact-successes %d\n",
			load, allocs, failed, first ? first : "-", ap50, ap99, amax, fp50, fp99, fmax, st, cs }' $D/result
	echo reset >$D/result
}

if [ "$what" != cma ]; then
	modprobe cma-bench || { echo "cma-bench: no cma-bench module" >&2; exit 1; }
fi
echo "INFO $(grep -E '^(MemTotal|MemAvailable)' /proc/meminfo | tr -s ' ' | tr '\n' ' ')"
[ "$what" = dma ] || run_cma idle
[ "$what" = cma ] || run_dma idle

# start_frag [-l]: frag in the background, once it holds its memory
start_frag() {
	: >/tmp/frag.out
	frag "$@" ${FRAG_MIB:+"$FRAG_MIB"} </dev/null >/tmp/frag.out 2>&1 &
	fpid=$!
	i=0
	while ! grep -q '^frag: .* holding' /tmp/frag.out && [ $i -lt 600 ]; do
		kill -0 $fpid 2>/dev/null || break
		sleep 1
		i=$((i + 1))
	done
	echo "INFO $(cat /tmp/frag.out)"
	echo "INFO buddyinfo $(awk '{ $1 = $2 = $3 = $4 = ""; print }' /proc/buddyinfo | tr -s ' ' | tr '\n' '|')"
}

stop_frag() {
	kill $fpid 2>/dev/null
	wait $fpid 2>/dev/null
}

# loaded: frag's pages are movable, compaction may make room
start_frag
[ "$what" = dma ] || run_cma loaded
[ "$what" = cma ] || run_dma loaded
stop_frag

# pinned: frag's pages are locked and compaction may not move them
cua=/proc/sys/vm/compact_unevictable_allowed
old=$(cat $cua 2>/dev/null)
echo 0 >$cua 2>/dev/null || echo "INFO no $cua: locked pages stay movable"
start_frag -l
[ "$what" = dma ] || run_cma pinned
[ "$what" = cma ] || run_dma pinned
stop_frag
[ -z "$old" ] || echo "$old" >$cua
exit 0
