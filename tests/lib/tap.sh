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
