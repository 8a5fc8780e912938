#!/usr/bin/env bash
# Coverage-guided fuzzing of the kernel's cma= / cma_map= parsers, the boot
# log and the map matcher, on the host (libFuzzer, ASan + UBSan; the target
# and its checks: tests/host/fuzz/fuzz-cma.c; docs/fuzzing.md):
#
#   scripts/fuzz-cma.sh [--runs N] [--time SECONDS] [options]
#
#   --runs N        stop after N executions (default 1000000, unless
#                   only --time is given)
#   --time SECONDS  stop after SECONDS; with --runs, whichever comes
#                   first (the summary says which).  The target is killed
#                   if it has not stopped 30 s after that
#   --seed N        libFuzzer's random seed (default 1, so runs repeat)
#   --corpus DIR    keep the corpus in DIR and grow it run after run
#                   (default: a fresh one made from the seeds, each run)
#   --ksrc DIR      fuzz this patched kernel tree (default: the series
#                   applied, or S5P_KERNEL_TREE as for every build)
#   --bits 32|64    i386 build (unsigned long is 32 bits, as on the
#                   boards; the default) or x86-64
#   --out DIR       where the run's log and crash inputs go (default
#                   $S5P_CACHE/fuzz/run-<UTC time>)
#   --coverage      afterwards, measure the corpus with a source-based
#                   coverage build (llvm-cov): line and branch coverage of
#                   mm/cma-parse.c and of the boot functions of
#                   mm/cma-regions.c; annotated source in DIR/coverage.txt
#
# The target is built with clang (-fsanitize=fuzzer,address,undefined)
# from the tree's mm/cma-parse.c and mm/cma-regions.c, cached in
# $S5P_CACHE/fuzz/build-<hash of its inputs>.  The seeds are every cma= /
# cma_map= example of docs/, README.md, kernel-patches/ (cover letters,
# kernel Documentation, board defaults, KUnit tests), tests/,
# bench/traces/ and ../shared/docs/cma-spec.md if present, plus
# tests/host/fuzz/seeds/.  One process, one core; killing this script
# (TERM, INT, HUP) ends the target too.
#
# Prints the executions, the coverage (edges and features), the corpus,
# and each crash with the path of its input; exits 1 on a crash, and when
# the target had to be killed.
set -u
. "$(dirname "$0")/lib/common.sh"

runs='' time='' seed=1 corpus='' ksrc='' bits=32 out='' coverage=0
while [ $# -gt 0 ]; do
	case "$1" in
	--coverage) coverage=1 ;;
	--runs | --time | --seed | --corpus | --ksrc | --bits | --out)
		[[ $# -ge 2 && -n $2 ]] || s5p_die "$1 needs a value (try --help)"
		case "$1" in
		--runs) runs=$2 ;;
		--time) time=$2 ;;
		--seed) seed=$2 ;;
		--corpus) corpus=$2 ;;
		--ksrc) ksrc=$2 ;;
		--bits) bits=$2 ;;
		--out) out=$2 ;;
		esac
		shift ;;
	-h | --help) sed -n '2,/^[^#]/p' "$0" | sed -n 's/^# \{0,1\}//p'; exit 0 ;;
	*) s5p_die "unknown option '$1' (try --help)" ;;
	esac
	shift
done
[ -n "$runs$time" ] || runs=1000000
for v in ${runs:+"--runs $runs"} ${time:+"--time $time"} "--seed $seed"; do
	[[ ${v#* } =~ ^[0-9]+$ ]] || s5p_die "${v% *} takes a number, not '${v#* }'"
done
case "$bits" in 32 | 64) ;; *) s5p_die "--bits is 32 or 64, not '$bits'" ;; esac
s5p_need_cmd clang python3 make
# An i386 target runs natively where the host's kernel can, else under
# qemu-i386 (user mode).  There LeakSanitizer cannot stop the world (it
# needs ptrace on the emulated threads), so leaks are the 64-bit build's.
# And there the target must not start a second thread: qemu-i386 7.2 keeps
# one GDT for all threads, so the TLS segment a new thread sets up is the
# one every thread reloads after a signal handler.  libFuzzer's RSS thread
# (-rss_limit_mb) plus its SIGALRM (-timeout, every 6 s) then leave the
# main thread on the RSS thread's TLS: its own mutex no longer counts as
# held by it, and the target hangs in a futex (a run stopped after 6 s,
# cma_mutex owned by itself) or on its way out.  -malloc_limit_mb keeps a
# limit on single allocations without the thread.
runner=() qflags=()
if [ "$bits" = 32 ]; then
	r=$(s5p_i386_runner) ||
		s5p_die "this host runs no i386 binary: its kernel lacks IA32 emulation and qemu-i386 is missing (scripts/setup.sh installs qemu-user and libc6-dev-i386), or use --bits 64"
	if [ -n "$r" ]; then
		runner=("$r")
		qflags=(-rss_limit_mb=0 -malloc_limit_mb=2048)
		: "${ASAN_OPTIONS:=abort_on_error=1:detect_leaks=0}"
		s5p_info "fuzz-cma: this host's kernel runs no i386 binary; the target runs under $r (no leak checks there)"
	fi
fi

if [ -n "$ksrc" ]; then
	KSRC=$(realpath "$ksrc") || s5p_die "--ksrc $ksrc: no such directory"
else
	. "$S5P_TOP/scripts/lib/kernel.sh"
	s5p_kernel_source
fi
[ -f "$KSRC/mm/cma-parse.c" ] || s5p_die "$KSRC has no mm/cma-parse.c (not a tree with the CMA series)"

# Build, keyed by everything that goes into the binary.
fz=$S5P_TOP/tests/host/fuzz
key=$(s5p_hash -s "bits=$bits" -s "$(clang --version | head -n1)" \
	"$fz/Makefile" "$fz/fuzz-cma.c" "$S5P_TOP/tests/host/cma/shim.c" \
	"$S5P_TOP/tests/host/cma/shim.h" "$S5P_TOP/tests/host/cma/shim" \
	"$KSRC"/mm/cma-parse.c "$KSRC"/mm/cma-regions.[ch] "$KSRC"/mm/cma-best-fit.c \
	"$KSRC"/mm/cma-first-fit.c "$KSRC"/mm/cma-bitmap.c "$KSRC"/include/linux/cma*.h \
	"$KSRC"/tools/lib/{rbtree,ctype,vsprintf,find_bit}.c "$KSRC"/tools/include/linux/rbtree.h)
build=$S5P_CACHE/fuzz/build-$key
bin=$build/fuzz-cma
if [ ! -x "$bin" ]; then
	s5p_log "fuzz-cma: building tests/host/fuzz against $KSRC ($bits-bit) in $build"
	rm -rf "$build"
	mkdir -p "$build"
	if ! make -s -C "$fz" KSRC="$KSRC" O="$build" BITS="$bits" >"$build/build.log" 2>&1; then
		tail -n 30 "$build/build.log" >&2
		rm -f "$bin"
		s5p_die "tests/host/fuzz does not build (log: $build/build.log; clang, libclang-rt-14-dev, and for --bits 32 libc6-dev-i386 and lib32stdc++-12-dev are needed: scripts/setup.sh)"
	fi
else
	s5p_info "fuzz-cma: cached build $bin"
fi

out=${out:-$S5P_CACHE/fuzz/run-$(date -u +%Y%m%d-%H%M%S)}
mkdir -p "$out/crashes" || s5p_die "cannot create $out"
seeds=$out/seeds
rm -rf "$seeds"
# The CMA contract (../shared/docs/cma-spec.md) sits next to the checkout
# when there is one; its examples are also in tests/host/fuzz/seeds/.
spec=()
[ ! -f "$S5P_TOP/../shared/docs/cma-spec.md" ] || spec=("$S5P_TOP/../shared/docs/cma-spec.md")
(cd "$S5P_TOP" && python3 "$fz/seeds.py" "$seeds" README.md docs/*.md \
	kernel-patches/*/*.patch tests/guest/*.sh tests/suites/*.sh tests/host/cma/test-cma.c \
	tests/host/cma/test-parse.c tests/host/cma/test-boot.c tests/host/cma/test-movable.c \
	bench/traces/*.trace "${spec[@]}") >"$out/seeds.log" || s5p_die "seed extraction failed (see $out/seeds.log)"
cp "$fz"/seeds/* "$seeds"/
nseeds=$(find "$seeds" -type f | wc -l)
if [ -z "$corpus" ]; then
	corpus=$out/corpus
	rm -rf "$corpus"
fi
mkdir -p "$corpus" || s5p_die "cannot create $corpus"

pid=''
# stop_target: TERM the target (timeout passes it on and sends KILL 10 s
# later if it is still there) and wait for it.
# shellcheck disable=SC2317 # (the traps' too)
stop_target() {
	[ -n "$pid" ] || return 0
	kill -TERM "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	pid=
}
shm=
trap 'stop_target; [ -z "$shm" ] || rm -rf "$shm"' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
trap 'exit 129' HUP

# Under qemu-i386, the target's 32-bit readdir() fails with EOVERFLOW on
# ext4 (whose directory offsets are 64-bit hashes unless the kernel sees a
# 32-bit task) and libFuzzer would find no input: the directories it reads
# are then copies on a tmpfs, and the corpus is copied back afterwards.
run_corpus=$corpus run_seeds=$seeds
if [ ${#runner[@]} -gt 0 ]; then
	shm=$(mktemp -d "${S5P_SHM:-/dev/shm}/fuzz-cma.XXXXXX") ||
		s5p_die "cannot create a directory in ${S5P_SHM:-/dev/shm} (a tmpfs for the emulated i386 target; set S5P_SHM)"
	mkdir "$shm/corpus" "$shm/seeds"
	{ cp -a "$corpus/." "$shm/corpus/" && cp -a "$seeds/." "$shm/seeds/"; } || s5p_die "cannot copy the inputs to $shm"
	run_corpus=$shm/corpus run_seeds=$shm/seeds
fi

args=(-seed="$seed" -dict="$fz/cma.dict" -max_len=2048 -timeout=10 -rss_limit_mb=2048
	"${qflags[@]}" -print_final_stats=1 -artifact_prefix="$out/crashes/")
[ -z "$time" ] || args+=(-max_total_time="$time")
[ -z "$runs" ] || args+=(-runs="$runs")
# Every run of a target is bounded: killed (TERM, then KILL 10 s later)
# 30 s after its --time, or when this script is killed.  The target
# stays in this script's process group (--foreground), so that whatever
# signals the group (tests/run.sh's timeout) reaches it too.
bound=0
[ -z "$time" ] || bound=$((time + 30))
# run_target LOG COMMAND...: COMMAND, bounded, its output to LOG; status
# 124 (or 137) when it had to be killed.
run_target() {
	local log=$1
	shift
	timeout --foreground -k 10 "$bound" "$@" >"$log" 2>&1 &
	pid=$!
}
s5p_log "fuzz-cma: ${runs:+$runs executions}${runs:+${time:+ or }}${time:+$time s}, seed $seed, $nseeds seeds, corpus $corpus"
s5p_info "log: $out/fuzz.log"
t0=$(date +%s)
ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
	run_target "$out/fuzz.log" "${runner[@]}" "$bin" "${args[@]}" "$run_corpus" "$run_seeds"
# Progress every 20 s, as the other long steps print it.
while kill -0 $pid 2>/dev/null; do
	for _ in $(seq 20); do kill -0 $pid 2>/dev/null && sleep 1; done
	kill -0 $pid 2>/dev/null || break
	line=$(grep -a -E '^#[0-9]+' "$out/fuzz.log" | tail -n1)
	s5p_info "$(( $(date +%s) - t0 ))s: ${line:-starting}"
done
wait $pid
rc=$?
pid=
secs=$(( $(date +%s) - t0 ))

execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/fuzz.log" | tail -n1)
last=$(grep -a -E '^#[0-9]+.*cov: ' "$out/fuzz.log" | tail -n1)
[ -n "$execs" ] || execs=$(printf '%s\n' "$last" | sed -n 's/^#\([0-9]*\).*/\1/p')
cov=$(printf '%s\n' "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
ft=$(printf '%s\n' "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
corp=$(printf '%s\n' "$last" | sed -n 's/.* corp: \([0-9]*\/[0-9]*[a-zA-Z]*\).*/\1/p')
mapfile -t crashes < <(find "$out/crashes" -type f -name 'crash-*' -o -type f -name 'timeout-*' \
	-o -type f -name 'oom-*' -o -type f -name 'leak-*' | sort)

echo "fuzz-cma: ${execs:-?} executions in ${secs} s ($(( ${execs:-0} / (secs > 0 ? secs : 1) ))/s), seed $seed, $bits-bit build"
echo "fuzz-cma: coverage: ${cov:-?} edges, ${ft:-?} features; corpus ${corp:-?} (from $nseeds seeds)"
echo "fuzz-cma: ${#crashes[@]} crashes"
if [ -n "$time" ] && [ -n "$runs" ] && [ "${execs:-0}" -lt "$runs" ] && [ $rc != 124 ] && [ $rc != 137 ]; then
	echo "fuzz-cma: stopped by the time bound ($time s) before $runs executions"
fi
echo "fuzz-cma: target $bin, log $out/fuzz.log"
[ ${#runner[@]} = 0 ] || echo "fuzz-cma: the target runs under ${runner[*]} (this host's kernel runs no i386 binary)"
for c in "${crashes[@]}"; do
	echo "fuzz-cma: crash input: $c"
done
# coverage_report: the corpus through the llvm-cov build.
coverage_report() {
	local prof=$out/coverage.profraw f
	make -s -C "$fz" KSRC="$KSRC" O="$build" BITS="$bits" "$build/fuzz-cma-cov" \
		>>"$build/build.log" 2>&1 || { echo "fuzz-cma: the coverage build failed (log: $build/build.log)"; return 1; }
	rm -f "$prof"
	LLVM_PROFILE_FILE=$prof run_target "$out/coverage-run.log" "${runner[@]}" "$build/fuzz-cma-cov" \
		"${qflags[@]}" -runs=0 "$run_corpus" "$run_seeds"
	wait $pid || { pid=; echo "fuzz-cma: the coverage run failed (log: $out/coverage-run.log)"; return 1; }
	pid=
	llvm-profdata merge -o "$out/coverage.profdata" "$prof" || return 1
	llvm-cov show "$build/fuzz-cma-cov" -instr-profile="$out/coverage.profdata" \
		-show-branches=count "$KSRC/mm/cma-parse.c" "$KSRC/mm/cma-regions.c" >"$out/coverage.txt"
	echo "fuzz-cma: coverage of the corpus and the seeds ($(find "$corpus" "$seeds" -type f | wc -l) inputs), lines and branches:"
	llvm-cov report "$build/fuzz-cma-cov" -instr-profile="$out/coverage.profdata" \
		"$KSRC/mm/cma-parse.c" | awk '$1 ~ /cma-parse\.c$/ {
			printf "fuzz-cma:   mm/cma-parse.c: lines %s (%d of %d), branches %s (%d of %d)\n",
				$10, $8 - $9, $8, $13, $11 - $12, $11 }'
	for f in cma_regions_allocate cma_pick cma_reserve_one cma_region_reserve cma_early_region; do
		llvm-cov report -show-functions "$build/fuzz-cma-cov" -instr-profile="$out/coverage.profdata" \
			"$KSRC/mm/cma-regions.c" | awk -v f="$f" '$1 == f || $1 ~ (":" f "$") {
				printf "fuzz-cma:   mm/cma-regions.c %s(): lines %s, branches %s\n", f, $7, $10 }'
	done
	echo "fuzz-cma: annotated source: $out/coverage.txt"
}
[ $coverage = 0 ] || [ ${#crashes[@]} -gt 0 ] || coverage_report
[ -z "$shm" ] || cp -a "$run_corpus/." "$corpus/" || echo "fuzz-cma: could not copy the corpus back from $run_corpus to $corpus"

if [ $rc = 124 ] || [ $rc = 137 ]; then
	echo "fuzz-cma: the target had not stopped $bound s after it started: killed (a hang; log $out/fuzz.log)"
	exit 1
fi
if [ ${#crashes[@]} -gt 0 ] || [ $rc != 0 ]; then
	grep -a -m3 -E 'PROPERTY FAILED|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:' \
		"$out/fuzz.log" | sed 's/^\(fuzz-cma: \)\{0,1\}/fuzz-cma: /'
	echo "fuzz-cma: reproduce with: ${runner[*]:+${runner[*]} }$bin ${crashes[0]:-<input>}"
	exit 1
fi
exit 0
