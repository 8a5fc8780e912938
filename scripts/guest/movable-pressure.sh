#!/bin/sh
# The guest side of scripts/bench-movable.sh --pressure (not a test):
# replay TRACE with drivers/cma-bench (api=cma: __cma_alloc(), or dma:
# dma_alloc_coherent()) while tools/hog holds HOG_MIB MiB of anonymous
# memory and 16 MiB of page cache, checked afterwards.
#
#   sh /usr/lib/s5p/movable-pressure.sh TRACE cma|dma HOG_MIB|auto
#
# auto: MemAvailable less 24 MiB (what the static regions' kernel can hold).
# Prints one line:
# PRESSURE allocs <n> failed <n> first <line|-> alloc-ns <p50> <p99> <max> migrated <pages> hog <n bad pages|-> memavail <kB> hogmib <n>
trace=$1 api=$2 hog_mib=$3
D=/sys/kernel/debug/cma-bench
[ -f "$trace" ] || { echo "movable-pressure: no trace '$trace'" >&2; exit 2; }
modprobe cma-bench api="$api" || { echo "movable-pressure: cma-bench api=$api did not load" >&2; exit 1; }
vm() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }
memavail=$(sed -n 's/^MemAvailable: *\([0-9]*\) kB/\1/p' /proc/meminfo)
# auto: all the memory available less 24 MiB (16 of page cache, 8 spare)
[ "$hog_mib" != auto ] || hog_mib=$((memavail / 1024 - 24))

hog_pid=
if [ "$hog_mib" -gt 0 ]; then
	: >/tmp/hog.out
	hog -a "$hog_mib" -f 16 >/tmp/hog.out 2>&1 &
	hog_pid=$!
	while ! grep -q '^hog: holding' /tmp/hog.out; do
		kill -0 $hog_pid 2>/dev/null || { echo "movable-pressure: hog died: $(cat /tmp/hog.out)" >&2; exit 1; }
		sleep 0.2
	done
fi
m0=$(vm pgmigrate_success)
echo reset >$D/result
cat "$trace" >$D/trace
m1=$(vm pgmigrate_success)
hog=-
if [ -n "$hog_pid" ]; then
	kill -TERM $hog_pid
	wait $hog_pid
	hog=$(sed -n 's/^hog: checked [0-9]* pages, \([0-9]*\) bad$/\1/p' /tmp/hog.out | tail -n 1)
fi
awk -v mig=$((m1 - m0)) -v hog="${hog:-?}" -v ma="$memavail" -v hm="$hog_mib" '
	/^allocations/ { allocs = $2; failed = $4 }
	/^first-failure line/ { first = $3 }
	/^alloc-ns/ { split($0, a, /[ =]+/); ap50 = a[5]; ap99 = a[7]; amax = a[9] }
	END { printf "PRESSURE allocs %d failed %d first %s alloc-ns %s %s %s migrated %d hog %s memavail %s hogmib %s\n",
		allocs, failed, failed ? first : "-", ap50, ap99, amax, mig, hog, ma, hm }' $D/result
echo reset >$D/result
