#!/bin/sh
# The guest side of scripts/bench-movable.sh --pipes (not a test): how much
# room the kernel's own allocations have once movable pages fill the
# memory outside the lent memory.  tools/hog holds, as anonymous memory,
# MemAvailable less CmaFree less LEAVE_MIB (default 16); then
# "head -c 65536 /dev/zero | sleep 3600 &" is repeated (a full pipe and two
# processes each: pipe buffers, page tables, kernel stacks, all unmovable)
# until the first OOM kill (/proc/vmstat oom_kill), or 2000 of them.
#
#   sh /usr/lib/s5p/movable-pipes.sh [HOG_MIB|auto]
#
# Prints
# PIPES <n before the first OOM kill> hogmib <n> cmafree0 <kB> cmafreeoom <kB|?> migrated <pages> compact <stall> <migrate_scanned> <free_scanned> <success> <fail> oomorder <order|?>
hog_mib=${1:-auto}
m() { sed -n "s/^$1: *\([0-9]*\) kB/\1/p" /proc/meminfo; }
vm() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }
cma0=$(m CmaFree)
[ "$hog_mib" != auto ] || hog_mib=$((($(m MemAvailable) - ${cma0:-0}) / 1024 - 16))
[ "$hog_mib" -gt 0 ] || { echo "movable-pipes: nothing to hold ($hog_mib MiB)" >&2; exit 1; }
hog -a "$hog_mib" </dev/null >/tmp/pipes-hog.out 2>&1 &
hog=$!
while ! grep -q holding /tmp/pipes-hog.out; do
	kill -0 $hog 2>/dev/null || { echo "movable-pipes: the hog died: $(cat /tmp/pipes-hog.out)" >&2; exit 1; }
	sleep 0.2
done
echo "# hog: $(cat /tmp/pipes-hog.out); MemFree $(m MemFree) kB, CmaFree $(m CmaFree) kB"
oom0=$(vm oom_kill)
K="compact_stall compact_migrate_scanned compact_free_scanned compact_success compact_fail"
cp /proc/vmstat /tmp/pipes-vm0
n=0
while [ $n -lt 2000 ] && [ "$(vm oom_kill)" = "$oom0" ]; do
	# (sleep reads nothing: the pipe stays full, its writer blocked)
	# shellcheck disable=SC2216
	{ head -c 65536 /dev/zero | sleep 3600; } 2>/dev/null &
	n=$((n + 1))
done
# The first kill's report: the free lent memory then, the request's order
oomcma=$(dmesg | sed -n 's/.* free_cma:\([0-9]*\).*/\1/p' | head -n 1)
order=$(dmesg | sed -n 's/.*invoked oom-killer: .*order=\([0-9]*\).*/\1/p' | head -n 1)
# The counters' deltas since the hog settled
d() { awk -v k="$1" '$1 == k { v[FILENAME] = $2 } END { print v["/proc/vmstat"] - v["/tmp/pipes-vm0"] }' /tmp/pipes-vm0 /proc/vmstat; }
c=
for k in $K; do c="$c $(d "$k")"; done
echo "PIPES $n hogmib $hog_mib cmafree0 $cma0 cmafreeoom $([ -n "$oomcma" ] && echo $((oomcma * 4)) || echo '?') migrated $(d pgmigrate_success) compact$c oomorder ${order:-?}"
