#!/bin/sh
# The guest side of scripts/bench-claims.sh (not a test): where the lent
# pages in use are and which claims migrate them.  tools/hog holds
# HOG_MIB MiB of anonymous memory and 16 MiB of page cache; then each
# movable region's pageblock view (debugfs cma/pageblocks/), the TRACE
# replayed through drivers/cma-bench (api=dma) with the
# cma_regions_alloc_finish trace event on, the views again.
#
#   sh movable-claims.sh TRACE HOG_MIB
#
# Prints "PB0 REGION <view line>" (before) and "PB1 ..." (after), "VM0" and
# "VM1" lines (nr_free_pages, nr_free_cma, pgmigrate_success), one "EV"
# line per claim (the event's fields) and cma-bench's result ("RES").
set -u
trace=$1 hog_mib=$2
D=/sys/kernel/debug/cma-bench
T=/sys/kernel/tracing
[ -f "$trace" ] || { echo "movable-claims: no trace '$trace'" >&2; exit 2; }
[ -d $T/events ] || mount -t tracefs nodev $T || exit 1
modprobe cma-bench api=dma || { echo "movable-claims: cma-bench did not load" >&2; exit 1; }
hog -a "$hog_mib" -f 16 </dev/null >/tmp/load.out 2>&1 &
pid=$!
while ! grep -q holding /tmp/load.out; do
	kill -0 $pid 2>/dev/null || { echo "movable-claims: hog died: $(cat /tmp/load.out)" >&2; exit 1; }
	sleep 0.2
done
echo "INFO $(head -n 1 /tmp/load.out)"
views() {
	for f in /sys/kernel/debug/cma/pageblocks/*; do
		sed "s|^|PB$1 ${f##*/} |" "$f"
	done
	grep -E '^(nr_free_pages|nr_free_cma|pgmigrate_success) ' /proc/vmstat | sed "s/^/VM$1 /"
}
views 0
echo 1 >$T/events/cma_regions/cma_regions_alloc_finish/enable
echo 4096 >$T/buffer_size_kb
echo >$T/trace
echo reset >$D/result
awk -v T=$D/trace '{ print > T; fflush(T) } END { close(T) }' "$trace"
views 1
echo 0 >$T/events/cma_regions/cma_regions_alloc_finish/enable
grep -o 'cma_regions_alloc_finish: .*' $T/trace | sed 's/^/EV /'
sed 's/^/RES /' $D/result
kill -TERM $pid
wait $pid
tail -n 1 /tmp/load.out
