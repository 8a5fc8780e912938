#!/bin/sh
# The guest side of scripts/bench-movable.sh --pressure (not a test):
# replay TRACE with drivers/cma-bench (api=cma: __cma_alloc(), or dma:
# dma_alloc_coherent()) under two loads, one after the other:
#
#   hog     tools/hog holds HOG_MIB MiB of anonymous memory and 16 MiB of
#           page cache, all movable, checked afterwards;
#   pinned  tools/frag -l maps HOG_MIB + 16 MiB, gives back every other
#           page and mlock()s the rest, with vm.compact_unevictable_allowed=0
#           (compaction leaves them alone; alloc_contig_range() may still
#           migrate them), checked afterwards.
#
#   sh /usr/lib/s5p/movable-pressure.sh TRACE cma|dma HOG_MIB|auto
#
# auto: MemAvailable less 24 MiB (what the static regions' kernel can hold).
# The trace is written a line at a time (one awk process, no fork per
# line), and /proc/vmstat's pgmigrate_success read before and after each
# alloc line: "clean" counts the allocations that migrated no page, the
# same way on every kernel (6.1's CMA has no per-claim counter).
# Prints one line per load:
# PRESSURE <hog|pinned> allocs <n> failed <n> first <line|-> alloc-ns <p50> <p99> <max> migrated <pages> bad <n bad pages|?> memavail <kB> hogmib <n> clean <allocations that migrated nothing>
trace=$1 api=$2 hog_mib=$3
D=/sys/kernel/debug/cma-bench
[ -f "$trace" ] || { echo "movable-pressure: no trace '$trace'" >&2; exit 2; }
modprobe cma-bench api="$api" || { echo "movable-pressure: cma-bench api=$api did not load" >&2; exit 1; }
vm() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }
memavail=$(sed -n 's/^MemAvailable: *\([0-9]*\) kB/\1/p' /proc/meminfo)
# auto: all the memory available less 24 MiB (16 of page cache, 8 spare)
[ "$hog_mib" != auto ] || hog_mib=$((memavail / 1024 - 24))
[ "$hog_mib" -gt 0 ] || { echo "movable-pressure: nothing to hold ($hog_mib MiB)" >&2; exit 1; }

# replay LOAD CHECKED_LINE_PREFIX CMD...: CMD in the background until it
# says it holds its memory, the trace replayed, CMD stopped (SIGTERM: it
# checks its pages), one PRESSURE line
replay() {
	load=$1 prefix=$2
	shift 2
	: >/tmp/load.out
	"$@" </dev/null >/tmp/load.out 2>&1 &
	pid=$!
	while ! grep -q 'holding' /tmp/load.out; do
		kill -0 $pid 2>/dev/null || { echo "movable-pressure: $1 died: $(cat /tmp/load.out)" >&2; exit 1; }
		sleep 0.2
	done
	echo "INFO $load: $(head -n 1 /tmp/load.out)"
	m0=$(vm pgmigrate_success)
	echo reset >$D/result
	clean=$(awk -v T=$D/trace -v V=/proc/vmstat '
		function mig(  l, f, m) {
			while ((getline l < V) > 0)
				if (split(l, f, " ") == 2 && f[1] == "pgmigrate_success")
					m = f[2]
			close(V)
			return m
		}
		{
			a = $1 == "alloc" || $1 == "a"
			if (a)
				before = mig()
			print > T
			fflush(T)
			if (a && mig() == before)
				clean++
		}
		END { close(T); print clean + 0 }' "$trace")
	m1=$(vm pgmigrate_success)
	kill -TERM $pid
	wait $pid
	bad=$(sed -n "s/^$prefix: checked [0-9]* pages, \([0-9]*\) bad\$/\1/p" /tmp/load.out | tail -n 1)
	awk -v load="$load" -v mig=$((m1 - m0)) -v bad="${bad:-?}" -v ma="$memavail" -v hm="$hog_mib" \
		-v clean="$clean" '
		/^allocations/ { allocs = $2; failed = $4 }
		/^first-failure line/ { first = $3 }
		/^alloc-ns/ { split($0, a, /[ =]+/); ap50 = a[5]; ap99 = a[7]; amax = a[9] }
		END { printf "PRESSURE %s allocs %d failed %d first %s alloc-ns %s %s %s migrated %d bad %s memavail %s hogmib %s clean %d\n",
			load, allocs, failed, failed ? first : "-", ap50, ap99, amax, mig, bad, ma, hm, clean }' $D/result
	echo reset >$D/result
}

replay hog hog hog -a "$hog_mib" -f 16

cua=/proc/sys/vm/compact_unevictable_allowed
old=$(cat $cua 2>/dev/null)
echo 0 >$cua 2>/dev/null || echo "INFO no $cua: locked pages stay movable for compaction"
replay pinned frag frag -l $((hog_mib + 16))
[ -z "$old" ] || echo "$old" >$cua
exit 0
