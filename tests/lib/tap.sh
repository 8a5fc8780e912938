# shellcheck shell=bash
# Helpers for host-side test suites (tests/suites/*.sh).  Source it.
# Results are TAP-style lines that tests/run.sh counts.
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib/common.sh"

T_FAILED=0
T_TMP=$(mktemp -d)
trap 'rm -rf "$T_TMP"' EXIT

t_pass() { printf 'ok - %s\n' "$*"; }
t_fail() { printf 'not ok - %s\n' "$*"; T_FAILED=$((T_FAILED + 1)); }

# t_check WHAT COMMAND...: ok when COMMAND succeeds; shows its output if not.
t_check() {
	local what=$1 out
	shift
	if out=$("$@" 2>&1); then
		t_pass "$what"
	else
		t_fail "$what"
		[ -z "$out" ] || printf '%s\n' "$out" | head -n 20 | sed 's/^/#   /'
	fi
}

# End of a suite: its exit status says whether anything failed.
t_done() { [ "$T_FAILED" = 0 ]; }

# t_guest_boot BOARD SCRIPT SCENARIO [APPEND]: boot BOARD (with --append
# APPEND if given) and run "/tests/SCRIPT SCENARIO" in the guest; relay
# its TAP and '#' lines, prefixed with SCENARIO, and check its exit
# status.  Sets T_OUT (its output), T_LOG (the console log) and T_RC.
t_guest_boot() {
	local board=$1 script=$2 scenario=$3 append=${4:-}
	local how="the board's default cma= and cma_map="
	T_OUT=$T_TMP/$board-$scenario.out T_LOG=$T_TMP/$board-$scenario.log
	[ -z "$append" ] || how="--append '$append'"
	echo "# $board, $scenario: $how"
	"$S5P_TOP/scripts/boot-$board.sh" --cmd "/tests/$script $scenario" \
		${append:+--append "$append"} --log "$T_LOG" --timeout 900 >"$T_OUT" 2>"$T_TMP/err"
	T_RC=$?
	grep -E '^(not )?ok |^# ' "$T_OUT" | sed "s/^\(\(not \)\{0,1\}ok - \)/\1$scenario: /"
	t_check "$board $scenario: guest checks exit with status 0 (got $T_RC)" [ "$T_RC" = 0 ]
}

# t_guest_end BOARD SCENARIO: after t_guest_boot, no oops, BUG or warning
# on the console; on failure the end of the logs.
t_guest_end() {
	t_check "$1 $2: no oops, BUG or warning on the console" \
		bash -c "! grep -aE 'WARNING:|BUG:|Oops|Unable to handle' '$T_LOG'"
	[ "$T_RC" = 0 ] || tail -n 15 "$T_TMP/err" "$T_LOG" | sed 's/^/#   /'
}
