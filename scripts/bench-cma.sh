#!/usr/bin/env bash
# CMA benchmarks (not a test; docs/benchmarks.md has the figures and how to
# read them):
#
#   scripts/bench-cma.sh [--host] [--guest] [--out DIR]
#
#   --host   the host runner only: bench/host/cma-bench built from the
#            patched kernel tree's allocators; ns per operation at 100,
#            10,000 and 100,000 live chunks, then every trace of
#            bench/traces/ per allocator; chunk maps and occupancy PNGs
#            (bench/plot.py, needs python3-matplotlib) into DIR
#   --guest  the guest part only: Goni boots replaying the traces through
#            /dev/cma per allocator, and dma_alloc_coherent() after a
#            fragmenting load (drivers/cma-bench, tools/frag)
#   --out DIR  where maps and PNGs go (default $S5P_CACHE/bench-cma)
#
# Without --host or --guest, both.
set -u
. "$(dirname "$0")/lib/common.sh"
. "$S5P_TOP/scripts/lib/kernel.sh"

host=0 guest=0
out=$S5P_CACHE/bench-cma
while [ $# -gt 0 ]; do
	case "$1" in
	--host) host=1 ;;
	--guest) guest=1 ;;
	--out) [ $# -ge 2 ] || s5p_die "--out needs a directory"; out=$2; shift ;;
	-h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) s5p_die "unknown option '$1' (try --help)" ;;
	esac
	shift
done
[ $host = 1 ] || [ $guest = 1 ] || { host=1; guest=1; }
mkdir -p "$out" || s5p_die "cannot create $out"

s5p_log "host: $(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n1), $(date -u '+%Y-%m-%d %H:%M UTC')"

# build_runner: bench/host/cma-bench for the patched tree; sets bench.
build_runner() {
	local build=$S5P_CACHE/host-build/cma-bench
	s5p_kernel_source
	s5p_log "host runner: building bench/host against $KSRC"
	make -s -C "$S5P_TOP/bench/host" KSRC="$KSRC" O="$build" >"$out/host-build.log" 2>&1 ||
		{ tail -n 30 "$out/host-build.log"; s5p_die "bench/host does not build (log: $out/host-build.log)"; }
	bench=$build/cma-bench
}

run_host() {
	local t
	echo "== host: allocators: $("$bench" list | tr '\n' ' ')"
	echo "== host: cma-bench ops 100 10000 100000"
	"$bench" ops 100 10000 100000
	for t in "$S5P_TOP"/bench/traces/*.trace; do
		echo "== host: cma-bench -d $out trace bench/traces/$(basename "$t")"
		"$bench" -d "$out" trace "$t"
	done
	if python3 -c 'import matplotlib' 2>/dev/null || /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
		local py=python3
		python3 -c 'import matplotlib' 2>/dev/null || py=/usr/bin/python3
		"$py" "$S5P_TOP/bench/plot.py" "$out"/*.map
	else
		s5p_log "no python3-matplotlib: no PNGs (scripts/setup.sh installs it)"
	fi
}

# run_guest: per trace, one Goni boot per allocator with the trace's cma=
# (each region given ":<allocator>") and cma_map=; the trace travels in the
# --cmd script.  The dma_alloc_coherent() replay (allocator-independent)
# runs in the first boot only.
run_guest() {
	local t name cma map alloc what allocs status results=$out/guest-bench.txt
	allocs=$("$bench" list) || s5p_die "cma-bench list failed"
	: >"$results"
	for t in "$S5P_TOP"/bench/traces/*.trace; do
		name=$(basename "$t" .trace)
		cma=$(sed -n 's/^cma //p' "$t")
		map=$(sed -n 's/^cma_map //p' "$t")
		what=both
		for alloc in $allocs; do
			echo "== guest: goni, bench/traces/$name.trace, allocator $alloc"
			local script=$out/guest-$name-$alloc.sh
			{
				echo "cat >/tmp/$name.trace <<'S5P_TRACE_END'"
				cat "$t"
				echo "S5P_TRACE_END"
				echo "sh /usr/lib/s5p/cma-bench.sh /tmp/$name.trace $what"
			} >"$script"
			"$S5P_TOP/scripts/boot-goni.sh" --timeout 900 --log "$out/guest-$name-$alloc.log" \
				--append "cma=$(printf '%s' "$cma" | sed "s/;/:$alloc;/g; s/\$/:$alloc/") cma_map=$map" \
				--cmd "$(cat "$script")" | sed "s/^BENCH /BENCH $name $alloc /" | tee -a "$results"
			status=${PIPESTATUS[0]}
			[ "$status" = 0 ] || s5p_log "guest run failed (status $status; console log: $out/guest-$name-$alloc.log)"
			what=cma
		done
	done
	echo "== guest: summary (latencies in microseconds; cma = /dev/cma ioctl and close, dma = dma_alloc_coherent() and dma_free_coherent())"
	awk 'BEGIN { printf "%-7s %-7s %-4s %-7s %6s %6s %7s %6s %8s %8s %8s %8s %8s %8s\n",
			"trace", "alloc", "how", "load", "allocs", "failed", "ok%", "first", "a-p50", "a-p99", "a-max", "f-p50", "f-p99", "f-max" }
	     $1 == "BENCH" { printf "%-7s %-7s %-4s %-7s %6d %6d %7.2f %6s %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f\n",
			$2, ($4 == "dma" ? "-" : $3), $4, $5, $7, $9, 100 * ($7 - $9) / $7, $11,
			$13 / 1000, $14 / 1000, $15 / 1000, $17 / 1000, $18 / 1000, $19 / 1000 }' "$results"
}

build_runner
[ $host = 1 ] && run_host
[ $guest = 1 ] && run_guest
exit 0
