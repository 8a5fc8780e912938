#!/usr/bin/env bash
# s5p-quiet: on the host only (no boot, no kernel or QEMU build, no timing check), so it may run beside 12-pipeline
# s5p-timeout: 600
# Smoke run of the cma= / cma_map= / cma_movable= fuzzer (scripts/fuzz-cma.sh,
# tests/host/fuzz; docs/fuzzing.md): the kernel's parsers, boot log and map
# matcher of the patched tree under libFuzzer with ASan and UBSan, 20000
# executions of the i386 build (unsigned long 32 bits, as on the boards)
# and 10000 of the x86-64 one, from the seeds every cma= example of the
# project gives, with 0 crashes; the coverage reached; and three bugs planted
# in scratch copies of mm/cma-parse.c (cma_format_rule() leaving out the '/'
# of an empty kind, so "dev/=r" is logged as "dev=r"; '?' matching past the
# end of a device name; cma_movable= forgetting that it named a region) are
# found, their inputs kept and reproducible.  Every run is bounded by time
# as well as by count (--time), so that the suite fits its timeout where
# the i386 build runs under qemu-i386 (about 9 times slower); the planted
# bugs, in the parser's logic and not in its 32-bit arithmetic, are hunted
# on the native x86-64 build; a run stopped by its time bound, or killed,
# leaves no target behind.  The documented long run (10^6) is in
# docs/fuzzing.md.
set -u
. "$(dirname "$0")/../lib/tap.sh"
t_plan 16
. "$S5P_TOP/scripts/lib/kernel.sh"

fuzz=$S5P_TOP/scripts/fuzz-cma.sh
s5p_kernel_source
echo "# kernel tree with the series: $KSRC"
# i386 binaries run natively, or under qemu-i386 where the host's kernel
# has no IA32 emulation (scripts/fuzz-cma.sh, docs/fuzzing.md).
if r=$(s5p_i386_runner) && [ -n "$r" ]; then
	echo "# this host's kernel runs no i386 binary: the i386 targets run under $r"
fi

t_check "fuzz-cma.sh --help says how to run it" \
	bash -c "'$fuzz' --help | grep -q -- '--runs N' && '$fuzz' --help | grep -q -- '--time SECONDS'"
t_check "fuzz-cma.sh refuses an unknown option and a bad count" \
	bash -c "! '$fuzz' --frobnicate 2>/dev/null && ! '$fuzz' --runs 12x 2>/dev/null"

# figures RUNLOG: "EXECS EDGES FEATURES CRASHES" from fuzz-cma.sh's summary.
figures() {
	local e c f n
	e=$(sed -n 's/^fuzz-cma: \([0-9]*\) executions in .*/\1/p' "$1")
	c=$(sed -n 's/^fuzz-cma: coverage: \([0-9]*\) edges, .*/\1/p' "$1")
	f=$(sed -n 's/^fuzz-cma: coverage: [0-9]* edges, \([0-9]*\) features.*/\1/p' "$1")
	n=$(sed -n 's/^fuzz-cma: \([0-9]*\) crashes$/\1/p' "$1")
	echo "${e:-0} ${c:-0} ${f:-0} ${n:-?}"
}

# The i386 build: 20000 executions (at most 150 s: 55 s under qemu-i386
# on a loaded 2-core host), no crash.
"$fuzz" --runs 20000 --time 150 --out "$T_TMP/run32" >"$T_TMP/run32.out" 2>"$T_TMP/run32.err"
rc32=$?
read -r execs edges features crashes < <(figures "$T_TMP/run32.out")
sed -n 's/^fuzz-cma: /# /p' "$T_TMP/run32.out"
nseeds=$(find "$T_TMP/run32/seeds" -type f 2>/dev/null | wc -l)
t_check "seeds: $nseeds inputs from the docs, patches and tests, both boards' defaults among them" \
	bash -c "[ '$nseeds' -ge 100 ] &&
		grep -rqxF 'cma=$(. "$S5P_TOP/boards/goni/board.conf" && echo "$BOARD_CMA")' '$T_TMP/run32/seeds' &&
		grep -rqxF 'cma=$(. "$S5P_TOP/boards/aquila/board.conf" && echo "$BOARD_CMA")' '$T_TMP/run32/seeds' &&
		grep -rqx 'cma_map=foo=r1;foo/quaz=r2;/\*=r3;bar/\*=r1,r2;baz?/a\*,baz?/b\*=r3' '$T_TMP/run32/seeds'"
if [ "$rc32" = 0 ] && [ "$crashes" = 0 ]; then
	t_pass "fuzz-cma (i386): $execs executions, 0 crashes"
else
	t_fail "fuzz-cma (i386): exit status $rc32, $crashes crashes (not allow-listed: a parser bug to fix)"
	grep -E '^fuzz-cma: (crash input|PROPERTY|==|reproduce|.*runtime error)' "$T_TMP/run32.out" | head -n 8 | sed 's/^/#   /'
	tail -n 5 "$T_TMP/run32.err" | sed 's/^/#   /'
fi
t_check "fuzz-cma (i386): at least 10^4 executions ($execs)" [ "${execs:-0}" -ge 10000 ]
t_check "fuzz-cma (i386): coverage reported and not collapsed ($edges edges >= 300, $features features >= 1000)" \
	bash -c "[ '${edges:-0}' -ge 300 ] && [ '${features:-0}' -ge 1000 ]"

# The x86-64 build: unsigned long is 64 bits there, other limits apply.
"$fuzz" --bits 64 --runs 10000 --time 60 --out "$T_TMP/run64" >"$T_TMP/run64.out" 2>"$T_TMP/run64.err"
rc64=$?
read -r execs64 _ _ crashes64 < <(figures "$T_TMP/run64.out")
sed -n 's/^fuzz-cma: \(.*executions in.*\)/# x86-64: \1/p' "$T_TMP/run64.out"
t_check "fuzz-cma (x86-64): $execs64 executions, ${crashes64} crashes, exit status $rc64" \
	bash -c "[ '$rc64' = 0 ] && [ '$crashes64' = 0 ] && [ '${execs64:-0}' -ge 10000 ] ||
		{ grep -E '^fuzz-cma: (crash input|PROPERTY)' '$T_TMP/run64.out'; exit 1; }"

t_check "fuzz-cma.sh: a second run reuses the cached build" \
	bash -c "'$fuzz' --runs 100 --time 30 --out '$T_TMP/again' 2>&1 | grep -q 'cached build'"

# The bounds, on the i386 build (where it runs under qemu-i386, the run
# that once hung): --time stops a run long before its count ...
t0=$(date +%s)
"$fuzz" --runs 100000000 --time 5 --out "$T_TMP/bound" >"$T_TMP/bound.out" 2>&1
rcb=$? secs=$(($(date +%s) - t0))
sed -n 's/^fuzz-cma: \(.*executions in.*\|stopped by.*\)/# bound: \1/p' "$T_TMP/bound.out"
t_check "fuzz-cma.sh --runs 10^8 --time 5: stopped by the time bound, exit status 0, in ${secs} s" \
	bash -c "[ '$rcb' = 0 ] && grep -q '^fuzz-cma: stopped by the time bound (5 s) before 100000000 executions' '$T_TMP/bound.out' &&
		[ '$secs' -le 30 ] || { tail -n 5 '$T_TMP/bound.out'; exit 1; }"
# ... and killing fuzz-cma.sh (as tests/run.sh's timeout does) ends its
# target: none is left running with the run's directory in its arguments.
"$fuzz" --runs 100000000 --time 600 --out "$T_TMP/killed" >"$T_TMP/killed.out" 2>&1 &
kpid=$!
for _ in $(seq 120); do
	grep -qa '^#[0-9]' "$T_TMP/killed/fuzz.log" 2>/dev/null && break
	sleep 1
done
kill -TERM $kpid
wait $kpid
rck=$?
sleep 1
# shellcheck disable=SC2009 # (what is left, with its whole command line)
left=$(ps -eo pid=,args= | grep -F -- "$T_TMP/killed/" | grep -v -e grep -e ' ps ')
t_check "fuzz-cma.sh killed while fuzzing (status $rck): no target left running" \
	bash -c "grep -qa '^#[0-9]' '$T_TMP/killed/fuzz.log' && [ -z '$left' ] ||
		{ echo 'left: $left'; tail -n 3 '$T_TMP/killed/fuzz.log'; exit 1; }"

# Planted bugs, each in a scratch copy of the tree's CMA sources: the
# fuzzer must find them, keep the input, and the input must fail again on
# the planted build (and pass on the tree's build when that ran clean, so
# that the plant is the cause).  They are bugs of the parser's logic, found
# the same way by either build (docs/fuzzing.md): the native x86-64 one.
bin64=$(sed -n 's/^fuzz-cma: target \([^ ]*\), .*/\1/p' "$T_TMP/run64.out")
# plant NAME WHAT SED-EXPRESSION: two checks.
plant() {
	local name=$1 what=$2 expr=$3 scratch=$T_TMP/ksrc-$1 rcp crash binp
	mkdir -p "$scratch/mm"
	ln -s "$KSRC/include" "$scratch/include"
	ln -s "$KSRC/tools" "$scratch/tools"
	# cma-regions.c includes internal.h (the host shims define its guard)
	# and cma.h (struct cma, the areas' range calls)
	cp "$KSRC"/mm/cma-* "$KSRC"/mm/cma.h "$KSRC"/mm/internal.h "$scratch/mm/"
	sed -i "$expr" "$scratch/mm/cma-parse.c"
	if cmp -s "$KSRC/mm/cma-parse.c" "$scratch/mm/cma-parse.c"; then
		t_fail "planted bug ($what): mm/cma-parse.c no longer has the line to plant it in (update this suite)"
		t_fail "planted bug ($what): its input fails again"
		return
	fi
	"$fuzz" --ksrc "$scratch" --bits 64 --runs 200000 --time 60 --out "$T_TMP/planted-$name" \
		>"$T_TMP/planted-$name.out" 2>"$T_TMP/planted-$name.err"
	rcp=$?
	crash=$(sed -n 's/^fuzz-cma: crash input: //p' "$T_TMP/planted-$name.out" | head -n1)
	binp=$(sed -n 's/^fuzz-cma: target \([^ ]*\), .*/\1/p' "$T_TMP/planted-$name.out")
	sed -n "s/^fuzz-cma: \(.*executions in.*\|PROPERTY.*\|.*ERROR: AddressSanitizer.*\)/# planted $name: \1/p" \
		"$T_TMP/planted-$name.out" | cut -c1-200
	t_check "planted bug ($what) found: exit status 1, its input kept" \
		bash -c "[ '$rcp' = 1 ] && [ -s '$crash' ]"
	t_check "planted bug ($what): its input fails again, and passes on the tree's build if that ran clean" \
		bash -c "[ -x '$binp' ] && [ -s '$crash' ] && ! '$binp' '$crash' >/dev/null 2>&1 &&
			{ [ '$rc64' != 0 ] || '$bin64' '$crash' >/dev/null 2>&1; }"
}
# The round trip: "dev/=r" logged as "dev=r" reads back as a rule for the
# empty kind only (no kind), not for the kind "".
plant kind "cma_format_rule() leaves out the '/' of an empty kind" \
	's/pat->kind ? "\/" : ""/pat->kind \&\& *pat->kind ? "\/" : ""/'
# The matcher: '?' also matches the end of the device name, and the match
# reads past it (ASan), which only a mutated request shows (a few thousand
# executions: the seeds do not).
plant glob "cma_match_pattern()'s '?' matches past the end of the name" \
	"s/if (!\*str || (\*pattern != '?' \&\& \*pattern != \*str))/if ((!*str \&\& *pattern != '?') || (*pattern != '?' \&\& *pattern != *str))/"
# cma_movable=: a region it names but that is not whole pageblocks must
# say so with an error; with the name not remembered it gets "*"'s note.
plant movable "cma_parse_movable() forgets that a region was named" \
	's/^\t\treg->movable_named = 1;$//'

t_done
