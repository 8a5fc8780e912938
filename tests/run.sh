#!/usr/bin/env bash
# The project's test command (README, .ci/run):  make check
#
#   tests/run.sh [PATTERN...]   run the suites in tests/suites/ (all, or those
#                               whose file name contains a PATTERN)
#
# Installs what is missing (scripts/setup.sh), builds what is stale, then runs
# every suite.  A suite is an executable tests/suites/NN-name.sh that prints
# TAP-style result lines at the start of a line:  "ok - what" / "not ok - what"
# (a number after ok is allowed; indented lines are not counted).  A suite that
# exits non-zero without reporting a failure counts as one failure.
# The last line is "N passed, N failed"; the exit status is non-zero on any
# failure.
. "$(dirname "$0")/../scripts/lib/common.sh"

"$S5P_TOP/scripts/setup.sh" || s5p_die "setup failed; the tests cannot run"

logdir=$S5P_CACHE/test-logs
mkdir -p "$logdir"
passed=0 failed=0
failures=()
suites=()
for s in "$S5P_TOP"/tests/suites/*.sh; do
	[ -x "$s" ] || continue
	if [ $# -gt 0 ]; then
		m=0
		for p in "$@"; do [[ $(basename "$s") == *"$p"* ]] && m=1; done
		[ $m = 1 ] || continue
	fi
	suites+=("$s")
done
[ ${#suites[@]} -gt 0 ] || s5p_die "no test suite matches '$*'"

start=$(date +%s)
for s in "${suites[@]}"; do
	name=$(basename "$s" .sh)
	log=$logdir/$name.log
	printf '# suite %s\n' "$name"
	t0=$(date +%s)
	"$s" 2>&1 | tee "$log" | while IFS= read -r line; do
		case "$line" in
		'ok'* | 'not ok'* | '# '* | 'Bail out!'*) printf '%s\n' "$line" ;;
		esac
	done
	rc=${PIPESTATUS[0]}
	p=$(grep -cE '^ok\b' "$log" || true)
	f=$(grep -cE '^not ok\b' "$log" || true)
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		printf 'not ok - %s: the suite exited with status %s (log: %s)\n' "$name" "$rc" "$log"
		f=1
	fi
	if [ "$f" != 0 ]; then
		failures+=("$name ($f)")
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	printf '# suite %s: %s passed, %s failed in %ss (log: %s)\n' "$name" "$p" "$f" $(($(date +%s) - t0)) "$log"
done
printf '# total time %ss\n' $(($(date +%s) - start))
[ ${#failures[@]} = 0 ] || printf '# failing suites: %s\n' "${failures[*]}"
printf '%s passed, %s failed\n' "$passed" "$failed"
[ "$failed" = 0 ]
