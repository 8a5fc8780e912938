#!/usr/bin/env bash
# s5p-quiet: on the host only (no boot, no kernel or QEMU build, no timing check), so it may run beside 12-pipeline
# Smoke test of the CMA benchmark tools (docs/benchmarks.md), host only, no
# timing assertions: the shipped traces are what their generator writes;
# bench/host/cma-bench builds from the patched tree with every allocator
# source of its mm/, replays a small trace on each with the expected
# outcome, keeps its chunk maps consistent, refuses bad traces; cma-test's
# trace replay reports unchecked failures and parse errors; frag and hog
# find a page changed under them; plot.py and plot-movable.py draw.
set -u
. "$(dirname "$0")/../lib/tap.sh"
t_plan 48
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
# shellcheck disable=SC2016 # (the Makefile's $(...), matched literally)
want=$(sed -n 's/^obj-\$(CONFIG_CMA_[A-Z0-9_]*)[[:space:]]*+=[[:space:]]*\(cma-[a-z0-9-]*\)\.o[[:space:]]*$/\1/p' \
	"$KSRC/mm/Makefile" | grep -v -- '-test$' |
	while read -r f; do sed -n 's/^\t\.name[[:space:]]*= "\(.*\)",$/\1/p' "$KSRC/mm/$f.c" | head -n1; done)
# shellcheck disable=SC2086,SC2116 # (both lists' words on one line, to compare)
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

# The shipped traces replay on every allocator (the allocations' outcome
# printed, not judged; the replay's own status is: a failed allocation is
# an outcome, status 0, like the tiny trace's).
for t in media random; do
	"$cb" trace "$S5P_TOP/bench/traces/$t.trace" >"$T_TMP/$t.out" 2>&1
	rc=$?
	t_check "cma-bench replays bench/traces/$t.trace on every allocator (status $rc)" \
		bash -c "[ $rc = 0 ] && [ \$(grep -Ec '^[a-z0-9_-]+ +allocations [0-9]+, failed [0-9]+; first failure: ' '$T_TMP/$t.out') = $(wc -w <<<"$allocs") ]"
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

# tools/frag and tools/hog check the pages they hold when told to stop
# (docs/benchmarks.md, docs/cma.md): a native build here, one byte of a
# held page flipped through /proc/PID/mem to see the check fail.
t_check "tools/frag and tools/hog build natively" bash -c \
	"make -s -C '$S5P_TOP/tools/frag' O='$T_TMP/frag' && make -s -C '$S5P_TOP/tools/hog' O='$T_TMP/hog'"
# held OUT PATTERN: wait (up to 20 s) until OUT has a line matching PATTERN
held() {
	local i=0
	while ! grep -q "$2" "$1" && [ $i -lt 100 ]; do sleep 0.2; i=$((i + 1)); done
}
# poke PID MIB OFFSET: flip the byte at OFFSET of PID's read-write mapping of MIB MiB
poke() {
	python3 - "$@" <<'PY'
import sys
pid, size, off = int(sys.argv[1]), int(sys.argv[2]) << 20, int(sys.argv[3])
for line in open(f"/proc/{pid}/maps"):
    lo, hi = (int(x, 16) for x in line.split()[0].split("-"))
    if hi - lo == size and line.split()[1].startswith("rw"):
        with open(f"/proc/{pid}/mem", "r+b", buffering=0) as m:
            m.seek(lo + off)
            b = m.read(1)
            m.seek(lo + off)
            m.write(bytes([b[0] ^ 0xff]))
        sys.exit(0)
sys.exit(f"no {size >> 20} MiB mapping in {pid}")
PY
}
# run_held OUT POKE CMD...: CMD in the background until it holds its memory,
# POKE (a poke offset, or -) applied, then SIGTERM; prints the exit status
run_held() {
	local out=$1 off=$2 pid rc
	shift 2
	"$@" >"$out" 2>&1 &
	pid=$!
	held "$out" holding
	[ "$off" = - ] || poke "$pid" 4 "$off" >>"$out" 2>&1
	kill -TERM "$pid"
	wait "$pid"
	rc=$?
	echo "status $rc" >>"$out"
}
fo=$T_TMP/frag.out
run_held "$fo" - "$T_TMP/frag/frag" 4
t_check "frag 4: holds 512 pages, checks them all when stopped, 0 bad, status 0" \
	bash -c "grep -qx 'frag: 1024 pages touched, 512 freed, holding 2048 KiB' '$fo' &&
		grep -qx 'frag: checked 512 pages, 0 bad' '$fo' && grep -qx 'status 0' '$fo'"
run_held "$fo" $((4096 + 100)) "$T_TMP/frag/frag" 4
t_check "frag: a kept page with one byte changed is bad (status 1)" \
	bash -c "grep -qx 'frag: checked 512 pages, 1 bad' '$fo' && grep -qx 'status 1' '$fo'"
run_held "$fo" - "$T_TMP/frag/frag" -l 4
t_check "frag -l 4: the pages locked, checked when stopped, 0 bad" \
	bash -c "grep -qx 'frag: 1024 pages touched, 512 freed, holding 2048 KiB, locked' '$fo' &&
		grep -qx 'frag: checked 512 pages, 0 bad' '$fo' && grep -qx 'status 0' '$fo'"
ho=$T_TMP/hog.out
mkdir -p "$T_TMP/hogdir"
run_held "$ho" - "$T_TMP/hog/hog" -a 4 -f 1 -d "$T_TMP/hogdir"
t_check "hog -a 4 -f 1: checks its 1280 pages when stopped, 0 bad, removes its file" \
	bash -c "grep -q '^hog: holding 4096 KiB anonymous, 1024 KiB file' '$ho' &&
		grep -qx 'hog: checked 1280 pages, 0 bad' '$ho' && grep -qx 'status 0' '$ho' &&
		[ -z \"\$(ls '$T_TMP/hogdir')\" ]"
run_held "$ho" $((8192 * 3 + 8)) "$T_TMP/hog/hog" -a 4 -d "$T_TMP/hogdir"
t_check "hog: an anonymous page with one byte changed is bad (status 1)" \
	bash -c "grep -qx 'hog: checked 1024 pages, 1 bad' '$ho' && grep -qx 'status 1' '$ho'"

# plot.py draws the maps (when python3-matplotlib is there).
py=python3
python3 -c 'import matplotlib' 2>/dev/null || py=/usr/bin/python3
if "$py" -c 'import matplotlib' 2>/dev/null; then
	t_check "bench/plot.py writes a PNG per chunk map" \
		bash -c "'$py' '$S5P_TOP/bench/plot.py' -o '$T_TMP/png' '$T_TMP'/tiny-*.map >/dev/null &&
			[ \$(ls '$T_TMP'/png/*.png | wc -l) = $(wc -w <<<"$allocs") ] &&
			file '$T_TMP'/png/*.png | grep -c 'PNG image' | grep -qx $(wc -w <<<"$allocs")"
	printf 'region r 0x0 0x1000\nchunk zz\n' >"$T_TMP/bad.map"
	t_check "bench/plot.py names a map line it cannot parse" \
		bash -c "'$py' '$S5P_TOP/bench/plot.py' '$T_TMP/bad.map' 2>&1 | grep -q 'bad.map:2: cannot parse: chunk zz'"
	printf 'MEMORY none 461732 424652 0 415\nMEMORY movable 460708 423416 24576 413\n' >"$T_TMP/memory.txt"
	printf 'PRESSURE media %s hog allocs 10 failed %s first - alloc-ns 44000 5369400 10306400 migrated 0 bad 0 memavail 1 hogmib 2\n' \
		static 0 movable 0 page-alloc 3 >"$T_TMP/pressure.txt"
	t_check "bench/plot-movable.py draws bench-movable.sh's memory and pressure results" \
		bash -c "'$py' '$S5P_TOP/bench/plot-movable.py' -o '$T_TMP/mv' '$T_TMP/memory.txt' '$T_TMP/pressure.txt' >/dev/null &&
			file '$T_TMP/mv/movable-memory.png' '$T_TMP/mv/movable-pressure.png' | grep -c 'PNG image' | grep -qx 2"
	echo 'PRESSURE media static hog allocs x' >"$T_TMP/bad.txt"
	t_check "bench/plot-movable.py names a line it cannot parse" \
		bash -c "! '$py' '$S5P_TOP/bench/plot-movable.py' -o '$T_TMP/mv' '$T_TMP/bad.txt' >'$T_TMP/pm.out' 2>&1 &&
			grep -q 'bad.txt:1: cannot parse: PRESSURE media static hog allocs x' '$T_TMP/pm.out'"
else
	for what in "writes a PNG per chunk map" "names a map line it cannot parse" \
		"plot-movable.py draws" "plot-movable.py names a line it cannot parse"; do
		t_fail "bench/plot.py $what: python3-matplotlib is missing (scripts/setup.sh installs it)"
	done
fi

t_done
