#!/usr/bin/env bash
# s5p-flavours: default debug
# s5p-qemu: plain (the kernel's CMA, whose sanitizers are the debug pass's; QEMU's devices run under ASan in the device suites and the qtests)
# The guest side of the CMA benchmark (docs/benchmarks.md), on Goni, one
# boot with two small regions: cma-test replays a small trace with -t
# (failures counted, timings printed), drivers/cma-bench replays it with
# dma_alloc_coherent() (counts, lines split across writes, bad lines,
# reset), tools/frag fragments and holds memory (also locked), and
# /usr/lib/s5p/cma-bench.sh (scripts/guest/) prints its six BENCH lines.  No timing assertions.
set -u
. "$(dirname "$0")/../lib/tap.sh"
t_plan 31

trace=$(cat "$S5P_TOP/bench/traces/tiny.trace")
# On the debug kernel the benchmark's frag holds 4 MiB, not nearly all free
# memory (touching 270 MiB page by page under KASAN, kmemleak and lockdep
# takes many minutes), and the frag checks' own runs map 4 MiB, not 16
# (16 MiB took 63 s of the boot's command there; the same code runs).
fm=16 frag_mib=
[ "${S5P_FLAVOUR:-default}" = default ] || { fm=4 frag_mib='FRAG_MIB=4 '; }
pages=$((fm * 256)) kept=$((fm * 128)) kib=$((fm * 512))

cmd="cat >/tmp/tiny.trace <<'END_TRACE'
$trace
END_TRACE
D=/sys/kernel/debug/cma-bench
echo '== cma-test'
cma-test -q -t -p /tmp/tiny.trace; echo \"status \$?\"
echo '== module'
modprobe cma-bench; echo \"modprobe \$?\"
cat /tmp/tiny.trace >\$D/trace; cat \$D/result
echo reset >\$D/result; cat \$D/result | head -n 1
printf 'alloc 1 d - 4' >\$D/trace; printf 'K 0\\nfree 1\\nbogus\\n' >\$D/trace; cat \$D/result | head -n 2
echo nonsense >\$D/result; echo \"bad reset \$?\"
echo '== frag'
# held FILE: wait (up to 120 s: the debug kernel is slow) until frag says it holds its memory
held() { i=0; while ! grep -q holding \$1 && [ \$i -lt 120 ]; do sleep 1; i=\$((i + 1)); done; cat \$1; }
frag $fm </dev/null >/tmp/f1 2>&1 & p=\$!; held /tmp/f1; grep -q 'frag' /proc/\$p/comm && echo 'frag holds'
kill \$p; wait \$p; echo \"frag status \$?\"; tail -n 1 /tmp/f1
frag x; echo \"frag x \$?\"
frag -l $fm </dev/null >/tmp/f2 2>&1 & p=\$!; held /tmp/f2
kill \$p; wait \$p; echo \"frag -l status \$?\"; tail -n 1 /tmp/f2
echo '== bench'
${frag_mib}sh /usr/lib/s5p/cma-bench.sh /tmp/tiny.trace"

gout=$T_TMP/out
"$S5P_TOP/scripts/boot-goni.sh" --timeout 300 --log "$T_TMP/console.log" \
	--append 'cma=r=64K;s=64K/64K cma_map=d/x=r;d/y=s' --cmd "$cmd" >"$gout" 2>"$T_TMP/err"
rc=$?
t_check "goni: the bench boot ends with status 0" [ $rc = 0 ]
[ $rc = 0 ] || { tail -n 20 "$T_TMP/err" "$gout" | sed 's/^/#   /'; }
t_no_reports "goni: no kernel warning, oops, BUG or sanitizer report in the console log" "$T_TMP/console.log"

has() { grep -qxE "$1" "$gout"; }
t_check "cma-test -p: 7 allocations, 5 frees, no mismatch (results not recorded)" \
	has 'replay: 7 allocations, 5 frees, 0 mismatches'
t_check "cma-test -p: 2 failed, the first at line 12 with ENOMEM" \
	has 'replay: 2 allocations failed, the first at line 12: alloc 5 d/x 0x8000/0x0: ENOMEM'
t_check "cma-test -p -t: 7 ioctls timed" has 'replay: alloc ns: n=7 p50=[0-9]+ p99=[0-9]+ max=[0-9]+'
t_check "cma-test -p -t: 5 frees timed" has 'replay: free ns: n=5 p50=[0-9]+ p99=[0-9]+ max=[0-9]+'
t_check "cma-test -p: status 0 (failures of an unchecked trace are no mismatch)" has 'status 0'
t_check "modprobe cma-bench" has 'modprobe 0'
t_check "cma-bench: every allocation succeeds with dma_alloc_coherent(), 2 still held" \
	has 'allocations 7 failed 0 frees 5 held 2 bad-lines 0'
t_check "cma-bench: no failure" has 'first-failure none'
t_check "cma-bench: the sizes as written (K suffix, hex, decimal): 164 KiB allocated" \
	has 'bytes-allocated 167936'
t_check "cma-bench: 7 allocations and 5 frees timed" \
	bash -c "grep -qxE 'alloc-ns n=7 p50=[0-9]+ p99=[0-9]+ max=[0-9]+' '$gout' &&
		grep -qxE 'free-ns n=5 p50=[0-9]+ p99=[0-9]+ max=[0-9]+' '$gout'"
t_check "cma-bench: reset frees what is held and clears the figures" \
	has 'allocations 0 failed 0 frees 0 held 0 bad-lines 0'
t_check "cma-bench: a line split across writes is one line; a bad line is counted" \
	has 'allocations 1 failed 0 frees 1 held 0 bad-lines 1'
t_check "cma-bench: the split line's size is 4K" has 'bytes-allocated 4096'
t_check "cma-bench: result refuses anything but reset" has 'bad reset 1'
t_check "cma-bench: the bad line is logged" grep -q 'cma-bench: line 3: cannot parse' "$T_TMP/console.log"
t_check "frag $fm: touches $pages pages, frees every other one" \
	has "frag: $pages pages touched, $kept freed, holding $kib KiB"
t_check "frag holds its memory until killed" has 'frag holds'
t_check "frag checks its $kept pages when stopped: 0 bad, status 0" \
	bash -c "grep -qx 'frag: checked $kept pages, 0 bad' '$gout' && grep -qx 'frag status 0' '$gout'"
t_check "frag -l checks its $kept locked pages when stopped: 0 bad, status 0" \
	bash -c "[ \$(grep -cx 'frag: checked $kept pages, 0 bad' '$gout') = 2 ] && grep -qx 'frag -l status 0' '$gout'"
t_check "frag -l $fm: the same, the pages kept locked" \
	has "frag: $pages pages touched, $kept freed, holding $kib KiB, locked"
t_check "cma-bench.sh: the pinned load had frag -l" \
	has 'INFO frag: [0-9]+ pages touched, [0-9]+ freed, holding [0-9]+ KiB, locked'
t_check "frag refuses a bad size" \
	bash -c "grep -qx \"frag: 'x' is not a number of MiB\" '$gout' && grep -qx 'frag x 2' '$gout'"
for how in cma dma; do
	for load in idle loaded pinned; do
		if [ $how = cma ]; then want='allocs 7 failed 2 first 12'; else want='allocs 7 failed 0 first -'; fi
		t_check "cma-bench.sh: BENCH $how $load: $want, latencies" \
			has "BENCH $how $load $want alloc-ns( [0-9]+){3} free-ns( [0-9]+){3}.*"
	done
done
t_check "cma-bench.sh: frag ran under the loaded replays" has 'INFO frag: [0-9]+ pages touched, [0-9]+ freed, holding [0-9]+ KiB'

t_done
