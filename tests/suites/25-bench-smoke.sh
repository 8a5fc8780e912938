#!/usr/bin/env bash
# Smoke test of the CMA benchmark tools (docs/benchmarks.md), host only, no
# timing assertions: the shipped traces are what their generator writes;
# bench/host/cma-bench builds from the patched tree with every allocator
# source of its mm/, replays a small trace on each with the expected
# outcome, keeps its chunk maps consistent, refuses bad traces; cma-test's
# trace replay reports unchecked failures and parse errors; plot.py draws.
. "$(dirname "$0")/../lib/tap.sh"
t_plan 40
. "$S5P_TOP/scripts/lib/kernel.sh"

s5p_kernel_source

# The traces are reproducible.
t_check "bench/traces: gen-traces.py writes exactly the committed traces" \
	bash -c "python3 '$S5P_TOP/bench/traces/gen-traces.py' '$T_TMP/gen' >/dev/null &&
		cmp '$T_TMP/gen/media.trace' '$S5P_TOP/bench/traces/media.trace' &&
		cmp '$T_TMP/gen/random.trace' '$S5P_TOP/bench/traces/random.trace'"

build=$T_TMP/bench
if ! make -s -C "$S5P_TOP/bench/host" KSRC="$KSRC" O="$build" >"$T_TMP/build.log" 2>&1; then
	t_fail "bench/host builds against $KSRC"
	sed 's/^/#   /' "$T_TMP/build.log" | tail -n 30
	t_done
	exit
fi
t_pass "bench/host builds against $KSRC"
cb=$build/cma-bench
t_check "bench/host builds without warnings" bash -c "! grep -E 'warning|error' '$T_TMP/build.log'"

# Every allocator source of mm/Makefile is in, by the names the sources give.
allocs=$("$cb" list)
want=$(sed -n 's/^obj-\$(CONFIG_CMA_[A-Z0-9_]*)[[:space:]]*+=[[:space:]]*\(cma-[a-z0-9-]*\)\.o[[:space:]]*$/\1/p' \
	"$KSRC/mm/Makefile" | grep -v -- '-test$' |
	while read -r f; do sed -n 's/^\t\.name[[:space:]]*= "\(.*\)",$/\1/p' "$KSRC/mm/$f.c" | head -n1; done)
t_check "cma-bench list names every allocator of mm/ ($(echo $want))" \
	[ "$(echo $allocs)" = "$(echo $want)" ]
t_check "cma-bench list starts with bf" [ "$(echo "$allocs" | head -n1)" = bf ]

# tiles MAP NREGIONS: in a cma-bench map, each region's chunks and holes
# cover it exactly, without overlap.
tiles() {
	python3 - "$1" "$2" <<'PY'
import sys
regs, cur = [], None
for line in open(sys.argv[1]):
    w = line.split()
    if not w or w[0] == "#":
        continue
    if w[0] == "region":
        cur = [int(w[2], 0), int(w[3], 0), []]
        regs.append(cur)
    elif w[0] in ("chunk", "free"):
        cur[2].append((int(w[1], 0), int(w[2], 0)))
ok = len(regs) == int(sys.argv[2])
for start, size, parts in regs:
    pos = start
    for s, n in sorted(parts):
        ok &= s == pos
        pos = s + n
    ok &= pos == start + size
sys.exit(0 if ok else 1)
PY
}

# A small trace with a known outcome (bench/traces/tiny.trace): a 64 KiB
# region, 16 KiB chunks; the 5th allocation (line 12) cannot fit, whatever
# the allocator.
cp "$S5P_TOP/bench/traces/tiny.trace" "$T_TMP/tiny.trace"
for a in $allocs; do
	"$cb" -a "$a" -d "$T_TMP" trace "$T_TMP/tiny.trace" >"$T_TMP/tiny-$a.out" 2>&1
	rc=$?
	t_check "$a: tiny trace: exit status 0" [ $rc = 0 ]
	t_check "$a: tiny trace: 7 allocations, 2 failed, the first on line 12 (ENOMEM, region at 75%)" \
		grep -q "^$a *allocations 7, failed 2; first failure: line 12: alloc 5 d/x 0x8000/0x0: ENOMEM (r at 75%, largest free 16 KiB)$" "$T_TMP/tiny-$a.out"
	t_check "$a: tiny trace: region r: 64 KiB, peak live 64 KiB, footprint 64 KiB, reached 80/90/95% with no free block" \
		grep -Eq "^$a +r +64 +64 +64 +1\.000 +0 +0 +0$" "$T_TMP/tiny-$a.out"
	t_check "$a: tiny trace: region s (64 KiB aligned) took its one 64 KiB chunk" \
		grep -Eq "^$a +s +64 +64 +64 +1\.000 +0 +0 +0$" "$T_TMP/tiny-$a.out"
	t_check "$a: tiny trace: alloc and free latencies are printed" \
		grep -Eq "^$a +ns: alloc p50 [0-9]+ p99 [0-9]+ max [0-9]+; free p50 [0-9]+ p99 [0-9]+ max [0-9]+$" "$T_TMP/tiny-$a.out"
	# The map at the trace's peak: chunks and holes tile every region exactly.
	t_check "$a: chunk map: chunks and holes tile each region" tiles "$T_TMP/tiny-$a.map" 2
done

# The steady-state benchmark runs for every allocator (figures not judged).
"$cb" ops 50 >"$T_TMP/ops.out" 2>&1
t_check "cma-bench ops 50: exit status 0" [ $? = 0 ]
for a in $allocs; do
	t_check "$a: ops row: 50 live, 20000 steps, 6 latencies, no failure" \
		grep -Eq "^$a +50 +20000( +[0-9]+){6} +0$" "$T_TMP/ops.out"
done

# Bad input: a clear message, exit status 2, nothing half-done.
printf 'cma r=1M\ncma_map */*=r\nalloc 1 d - 0 0\n' >"$T_TMP/bad1.trace"
printf 'alloc 1 d - 4K 0\nfree 1\n' >"$T_TMP/bad2.trace"
printf 'cma r=1M;r=2M\ncma_map */*=r\nalloc 1 d - 4K 0\n' >"$T_TMP/bad3.trace"
t_check "cma-bench refuses a trace line it cannot parse, naming it" \
	bash -c "'$cb' trace '$T_TMP/bad1.trace' >/dev/null 2>'$T_TMP/e1'; [ \$? = 2 ] &&
		grep -qx 'cma-bench: $T_TMP/bad1.trace:3: cannot parse: alloc 1 d - 0 0 (bad size)' '$T_TMP/e1'"
t_check "cma-bench refuses a trace without cma/cma_map lines" \
	bash -c "'$cb' trace '$T_TMP/bad2.trace' >/dev/null 2>'$T_TMP/e2'; [ \$? = 2 ] &&
		grep -q 'no .cma. or .cma_map. line' '$T_TMP/e2'"
t_check "cma-bench reports a cma line the kernel's parser refuses" \
	bash -c "'$cb' trace '$T_TMP/bad3.trace' >/dev/null 2>'$T_TMP/e3'; [ \$? = 1 ] &&
		grep -q 'duplicate name' '$T_TMP/e3'"
t_check "cma-bench refuses an unknown allocator" \
	bash -c "'$cb' -a nosuch list >/dev/null 2>'$T_TMP/e4'; [ \$? = 2 ] && grep -q \"no allocator 'nosuch'\" '$T_TMP/e4'"
t_check "cma-bench ops refuses a bad chunk count" \
	bash -c "'$cb' ops 0 >/dev/null 2>&1; [ \$? = 2 ]"

# The shipped traces replay on every allocator (outcome printed, not judged).
for t in media random; do
	"$cb" trace "$S5P_TOP/bench/traces/$t.trace" >"$T_TMP/$t.out" 2>&1
	t_check "cma-bench replays bench/traces/$t.trace on every allocator" \
		bash -c "[ \$(grep -Ec '^[a-z0-9_-]+ +allocations [0-9]+, failed [0-9]+; first failure: ' '$T_TMP/$t.out') = $(echo $allocs | wc -w) ]"
done

# cma-test: unchecked traces count failures; bad lines are named.
# Built outside the checkout (O=), and a build failure is a failure.
ct=$T_TMP/cma-tools/cma-test
t_check "tools/cma builds natively" make -s -C "$S5P_TOP/tools/cma" O="$T_TMP/cma-tools"
t_check "cma-test: an unchecked trace counts its failures and names the first (no mismatch)" \
	bash -c "'$ct' -q -d '$T_TMP/none' -p '$T_TMP/tiny.trace' >'$T_TMP/ct.out' 2>&1; rc=\$?;
		grep -qx 'replay: 7 allocations, 5 frees, 0 mismatches' '$T_TMP/ct.out' &&
		grep -qx 'replay: 7 allocations failed, the first at line 7: alloc 1 d/x 0x4000/0x0: ENOENT' '$T_TMP/ct.out' &&
		[ \$rc = 0 ]"
t_check "cma-test: a trace line that does not parse is named with its reason" \
	bash -c "'$ct' -q -d '$T_TMP/none' -p '$T_TMP/bad1.trace' >'$T_TMP/ct1.out' 2>&1; rc=\$?;
		grep -q 'bad1.trace:3: cannot parse: alloc 1 d - 0 0 (bad size)' '$T_TMP/ct1.out' && [ \$rc = 1 ]"
t_check "cma-test: -t without -p is a usage error" \
	bash -c "'$ct' -t </dev/null >/dev/null 2>&1; [ \$? = 2 ]"

# plot.py draws the maps (when python3-matplotlib is there).
py=python3
python3 -c 'import matplotlib' 2>/dev/null || py=/usr/bin/python3
if "$py" -c 'import matplotlib' 2>/dev/null; then
	t_check "bench/plot.py writes a PNG per chunk map" \
		bash -c "'$py' '$S5P_TOP/bench/plot.py' -o '$T_TMP/png' '$T_TMP'/tiny-*.map >/dev/null &&
			[ \$(ls '$T_TMP'/png/*.png | wc -l) = $(echo $allocs | wc -w) ] &&
			file '$T_TMP'/png/*.png | grep -c 'PNG image' | grep -qx $(echo $allocs | wc -w)"
	printf 'region r 0x0 0x1000\nchunk zz\n' >"$T_TMP/bad.map"
	t_check "bench/plot.py names a map line it cannot parse" \
		bash -c "'$py' '$S5P_TOP/bench/plot.py' '$T_TMP/bad.map' 2>&1 | grep -q 'bad.map:2: cannot parse: chunk zz'"
else
	t_fail "bench/plot.py: python3-matplotlib is missing (scripts/setup.sh installs it)"
fi

t_done
