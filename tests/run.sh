#!/usr/bin/env bash
# The project's test command (README, .ci/run):  make check
#
#   tests/run.sh [PATTERN...]   run the suites in tests/suites/ (all, or those
#                               whose file name contains a PATTERN)
#
# Installs what is missing (scripts/setup.sh), builds what is stale, then runs
# every suite.  A suite is an executable tests/suites/NN-name.sh that prints
# TAP-style result lines at the start of a line:  "ok - what" / "not ok - what"
# (a number after ok is allowed; indented lines are not counted), declares
# how many it runs ("# s5p-plan N", tests/lib/tap.sh t_plan) and ends with
# "# s5p-done" (t_done).  Each of these is one more failure:
#   - a tests/suites/*.sh file without its run bit;
#   - a suite that exits non-zero without reporting a failure;
#   - a suite that never prints "# s5p-done" (it stopped early);
#   - a suite whose number of checks differs from its plan, or has no plan;
#   - a suite still running after its timeout ("# s5p-timeout: SECONDS" in its
#     header, default 1200; scaled by 4 on the debug kernel).
# Suites whose header says "# s5p-flavours: default debug" run a second time
# on the debug kernel (KASAN, lockdep, kmemleak, UBSAN...: docs/testing.md),
# reported as NAME@debug; S5P_FLAVOURS="default" skips that pass.
# Every guest boot fails on a kernel report in its console (S5P_CHECK_LOG=1).
# The qtests and the default kernel's boots run on the sanitizer QEMU
# (S5P_QEMU_FLAVOUR=asan: ASan + UBSan, docs/qemu.md); a report fails them.
# The debug kernel's boots run on the plain QEMU, 2.4 times faster: that pass
# checks the kernel side, the default pass the models (docs/testing.md).
# S5P_QEMU_FLAVOUR set by the caller applies to every run.
# What the boots need (QEMU, kernels, device trees, initramfs) is built
# before the suites start, so a suite's timeout is its own time.
# A failing suite's logs (console logs of its boots included) are kept in
# $S5P_CACHE/test-logs/NAME.files/, which the summary line names.
# The last line is "N passed, N failed"; the exit status is non-zero on any
# failure.
. "$(dirname "$0")/../scripts/lib/common.sh"

case "${1:-}" in
-h | --help) sed -n '2,/^[^#]/p' "$0" | sed -n 's/^# \{0,1\}//p'; exit 0 ;;
esac

all=()
for s in "$S5P_TOP"/tests/suites/*.sh; do
	if [ $# -gt 0 ]; then
		m=0
		for p in "$@"; do [[ $(basename "$s") == *"$p"* ]] && m=1; done
		[ $m = 1 ] || continue
	fi
	all+=("$s")
done
[ ${#all[@]} -gt 0 ] || s5p_die "no test suite matches '$*' (the suites: $(cd "$S5P_TOP/tests/suites" && ls -- *.sh | tr '\n' ' '))"

"$S5P_TOP/scripts/setup.sh" || s5p_die "setup failed; the tests cannot run"
. "$S5P_TOP/scripts/lib/versions.sh"
versions=$(s5p_versions_line) || s5p_die "cannot tell which Debian versions to use (above)"
printf '# versions: %s\n' "$versions"

logdir=$S5P_CACHE/test-logs
mkdir -p "$logdir"
export S5P_CHECK_LOG=1
flavours=${S5P_FLAVOURS:-default debug}
qemu_forced=${S5P_QEMU_FLAVOUR:-}
# qemu_for KERNEL-FLAVOUR: the QEMU build its boots use.
qemu_for() {
	if [ -n "$qemu_forced" ]; then echo "$qemu_forced"
	elif [ "$1" = default ]; then echo asan
	else echo plain; fi
}
passed=0 failed=0
failures=()

# header FILE KEY: the value of "# s5p-KEY: VALUE" in a suite's header.
header() { sed -n "s/^# s5p-$2: *//p" "$1" | head -n1; }

# run_suite FILE FLAVOUR
run_suite() {
	local s=$1 flavour=$2 name log rc p f plan tmo t0
	name=$(basename "$s" .sh)
	[ "$flavour" = default ] || name=$name@$flavour
	log=$logdir/$name.log
	export S5P_TEST_LOGDIR=$logdir/$name.files
	rm -rf "$S5P_TEST_LOGDIR"
	printf '# suite %s\n' "$name"
	t0=$(date +%s)
	f=0
	if [ ! -x "$s" ]; then
		printf 'not ok - %s: %s is not executable (chmod +x it)\n' "$name" "$s" | tee "$log"
		p=0 f=1
	else
		tmo=$(header "$s" timeout)
		tmo=${tmo:-1200}
		[ "$flavour" = default ] || tmo=$((tmo * 4))
		S5P_FLAVOUR=$flavour S5P_QEMU_FLAVOUR=$(qemu_for "$flavour") \
			timeout -k 30 "$tmo" "$s" 2>&1 </dev/null | tee "$log" |
			while IFS= read -r line; do
				case "$line" in
				'ok'* | 'not ok'* | '# '* | 'Bail out!'*) printf '%s\n' "$line" ;;
				esac
			done
		rc=${PIPESTATUS[0]}
		p=$(grep -cE '^ok\b' "$log" || true)
		f=$(grep -cE '^not ok\b' "$log" || true)
		plan=$(sed -n 's/^# s5p-plan \([0-9]*\)$/\1/p' "$log" | head -n1)
		if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
			printf 'not ok - %s: still running after its timeout of %ss, killed\n' "$name" "$tmo"
			f=$((f + 1))
		elif ! grep -qx '# s5p-done' "$log"; then
			printf 'not ok - %s: stopped early (status %s; no "# s5p-done")\n' "$name" "$rc"
			f=$((f + 1))
		elif [ "$rc" != 0 ] && [ "$f" = 0 ]; then
			printf 'not ok - %s: the suite exited with status %s\n' "$name" "$rc"
			f=1
		fi
		if [ -z "$plan" ]; then
			printf 'not ok - %s: declares no plan (t_plan N)\n' "$name"
			f=$((f + 1))
		elif [ $((p + $(grep -cE '^not ok\b' "$log" || true))) != "$plan" ]; then
			printf 'not ok - %s: ran %s checks, its plan says %s\n' "$name" \
				"$((p + $(grep -cE '^not ok\b' "$log" || true)))" "$plan"
			f=$((f + 1))
		fi
	fi
	[ "$f" = 0 ] || failures+=("$name ($f)")
	passed=$((passed + p))
	failed=$((failed + f))
	local where=$log
	[ ! -d "$S5P_TEST_LOGDIR" ] || where="$log and $S5P_TEST_LOGDIR/"
	printf '# suite %s: %s passed, %s failed in %ss (log: %s)\n' "$name" "$p" "$f" \
		$(($(date +%s) - t0)) "$where"
}

# runs_on FILE FLAVOUR: whether the suite runs on that kernel flavour.
runs_on() {
	[ "$2" = default ] || [[ " $(header "$1" flavours) " == *" $2 "* ]]
}
# boots FILE: whether the suite boots a guest.
boots() { grep -qE 'scripts/(boot|fuzz-guest|stress-cma|bench-[a-z]+)|boot-\$|t_guest_boot' "$1"; }

start=$(date +%s)
for flavour in $flavours; do
	need=0
	for s in "${all[@]}"; do
		runs_on "$s" "$flavour" && boots "$s" && need=1
	done
	[ $need = 1 ] || continue
	q=$(qemu_for "$flavour")
	printf '# building for the boots: both boards, %s kernel, %s QEMU\n' "$flavour" "$q"
	t0=$(date +%s)
	for board in goni aquila; do
		# The build's progress goes to the terminal too (a cold build takes
		# many minutes), as comment lines.
		S5P_QEMU_FLAVOUR=$q "$S5P_TOP/scripts/boot-$board.sh" --build-only --flavour "$flavour" 2>&1 |
			tee "$logdir/build-$flavour-$board.log" | sed -u 's/^/#   /'
		[ "${PIPESTATUS[0]}" != 0 ] || continue
		printf 'not ok - build: %s, %s kernel, %s QEMU (log: %s)\n' "$board" "$flavour" "$q" \
			"$logdir/build-$flavour-$board.log"
		failed=$((failed + 1))
		failures+=("build-$flavour-$board")
	done
	printf '# built in %ss\n' $(($(date +%s) - t0))
done
for flavour in $flavours; do
	for s in "${all[@]}"; do
		runs_on "$s" "$flavour" || continue
		run_suite "$s" "$flavour"
	done
done
printf '# total time %ss\n' $(($(date +%s) - start))
[ ${#failures[@]} = 0 ] || printf '# failing suites: %s\n' "${failures[*]}"
printf '%s passed, %s failed\n' "$passed" "$failed"
[ "$failed" = 0 ]
