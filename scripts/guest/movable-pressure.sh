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
# line).  The pages the claims migrate are counted by the mm_migrate_pages
# trace event of reason contig_range (alloc_contig_range(), which every
# kernel's claims use; 6.1's CMA has no per-claim counter), the events
# counted before and after each alloc line: "clean" counts the
# allocations that migrated no page, the same way on every kernel.  What
# else migrates meanwhile (kcompactd's compaction, mostly: the pinned
# load fragments memory) is /proc/vmstat's pgmigrate_success less that:
# "othermig".  Prints one line per load:
# PRESSURE <hog|pinned> allocs <n> failed <n> first <line|-> alloc-ns <p50> <p99> <max> migrated <pages> bad <n bad pages|?> memavail <kB> hogmib <n> clean <allocations that migrated nothing> othermig <pages>
set -u
trace=$1 api=$2 hog_mib=$3
D=/sys/kernel/debug/cma-bench
[ -f "$trace" ] || { echo "movable-pressure: no trace '$trace'" >&2; exit 2; }
modprobe cma-bench api="$api" || { echo "movable-pressure: cma-bench api=$api did not load" >&2; exit 1; }
vm() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }
# The claims' migrations: mm_migrate_pages events of reason contig_range
# (its number from the event's format; 6 in 6.1's enum migrate_reason)
# that moved pages.
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T || { echo "movable-pressure: no tracefs" >&2; exit 1; }
E=$T/events/migrate/mm_migrate_pages
[ -d $E ] || { echo "movable-pressure: no mm_migrate_pages trace event" >&2; exit 1; }
mr=$(sed -n 's/.*{ *\([0-9][0-9]*\), "contig_range" }.*/\1/p' $E/format | head -n 1)
# (6.1's alloc_contig_range() calls migrate_pages() on an empty list too:
# only the events that moved pages count)
echo "reason == ${mr:-6} && succeeded > 0" >$E/filter ||
	{ echo "movable-pressure: cannot filter mm_migrate_pages" >&2; exit 1; }
echo 256 >$T/buffer_size_kb
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
	echo 0 >$T/tracing_on
	echo >$T/trace
	echo 1 >$E/enable
	echo 1 >$T/tracing_on
	clean=$(awk -v T=$D/trace -v S="$(echo $T/per_cpu/cpu*/stats)" '
		# the events recorded so far, over every CPU
		function mig(  l, f, m, n, i, c) {
			n = split(S, c, " ")
			for (i = 1; i <= n; i++) {
				while ((getline l < c[i]) > 0)
					if (split(l, f, " ") == 2 && f[1] == "entries:")
						m += f[2]
				close(c[i])
			}
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
	echo 0 >$E/enable
	claimmig=$(grep -o 'nr_succeeded=[0-9]*' $T/trace | awk -F= '{ n += $2 } END { print n + 0 }')
	overrun=$(cat $T/per_cpu/cpu*/stats | awk '$1 == "overrun:" { n += $2 } END { print n + 0 }')
	[ "$overrun" = 0 ] || { echo "movable-pressure: the trace buffer lost $overrun mm_migrate_pages events" >&2; exit 1; }
	kill -TERM $pid
	wait $pid
	bad=$(sed -n "s/^$prefix: checked [0-9]* pages, \([0-9]*\) bad\$/\1/p" /tmp/load.out | tail -n 1)
	awk -v load="$load" -v mig="$claimmig" -v other=$((m1 - m0 - claimmig)) -v bad="${bad:-?}" \
		-v ma="$memavail" -v hm="$hog_mib" -v clean="$clean" '
		/^allocations/ { allocs = $2; failed = $4 }
		/^first-failure line/ { first = $3 }
		/^alloc-ns/ { split($0, a, /[ =]+/); ap50 = a[5]; ap99 = a[7]; amax = a[9] }
		END { printf "PRESSURE %s allocs %d failed %d first %s alloc-ns %s %s %s migrated %d bad %s memavail %s hogmib %s clean %d othermig %d\n",
			load, allocs, failed, failed ? first : "-", ap50, ap99, amax, mig, bad, ma, hm, clean, other }' $D/result
	echo reset >$D/result
}

replay hog hog hog -a "$hog_mib" -f 16

cua=/proc/sys/vm/compact_unevictable_allowed
old=$(cat $cua 2>/dev/null)
echo 0 >$cua 2>/dev/null || echo "INFO no $cua: locked pages stay movable for compaction"
replay pinned frag frag -l $((hog_mib + 16))
[ -z "$old" ] || echo "$old" >$cua
exit 0
