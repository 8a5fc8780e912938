# shellcheck shell=bash
# Helpers for host-side test suites (tests/suites/*.sh).  Source it.
# Results are TAP-style lines that tests/run.sh counts.
#
# A suite declares how many checks it runs (t_plan N, printed as
# "# s5p-plan N") and ends with t_done ("# s5p-done"); tests/run.sh fails a
# suite that ran a different number of checks or never reached t_done.
# Its headers may say "# s5p-timeout: SECONDS" (default 1200) and
# "# s5p-flavours: default debug" (run again on the debug kernel).
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib/common.sh"

T_FAILED=0
T_TMP=$(mktemp -d)
# Where the logs of a failing suite (or of every suite, S5P_KEEP_LOGS=1) are
# kept (tests/run.sh points there).
T_KEEP=${S5P_TEST_LOGDIR:-$S5P_CACHE/test-logs/$(basename "$0" .sh).files}
t_cleanup() {
	if { [ "$T_FAILED" != 0 ] || [ -n "${S5P_KEEP_LOGS:-}" ]; } && [ -d "$T_TMP" ]; then
		rm -rf "$T_KEEP" && mkdir -p "$T_KEEP" &&
			cp -r "$T_TMP"/. "$T_KEEP"/ 2>/dev/null &&
			printf '# logs of this run kept in %s\n' "$T_KEEP"
	fi
	rm -rf "$T_TMP"
}
trap t_cleanup EXIT
# Killed at its timeout (tests/run.sh's timeout sends SIGTERM to the suite's
# process group, its boots included): keep the logs, like a failing suite.
trap 'printf "# killed by SIGTERM (its timeout?): logs kept\n"; T_FAILED=$((T_FAILED + 1)); exit 143' TERM
trap 'T_FAILED=$((T_FAILED + 1)); exit 130' INT

# t_plan N [FLAVOUR=M...]: the number of checks, on the default kernel and
# (when it differs, because fewer scenarios run there) on another flavour.
t_plan() {
	local n=$1 f
	shift
	for f in "$@"; do
		[ "${f%%=*}" != "${S5P_FLAVOUR:-default}" ] || n=${f#*=}
	done
	printf '# s5p-plan %s\n' "$n"
}

# t_wanted BOARD SCENARIO: whether a boot runs on this kernel flavour.  On
# the default kernel every one does; on another, those the suite's header
# names, once each: "# s5p-debug-scenarios: goni:main aquila:basic", and
# the scenario of its shared boot on that flavour ("# s5p-shared-boot: debug
# goni camera.sh main": goni:main); neither header: all of them.  The debug
# kernel is about ten times slower: docs/testing.md says which run there and
# why.
t_wanted() {
	local list f b _s scen
	[ "${S5P_FLAVOUR:-default}" != default ] || return 0
	list=$(sed -n "s/^# s5p-${S5P_FLAVOUR}-scenarios: *//p" "$0" | head -n1)
	read -r f b _s scen _ <<<"$(sed -n 's/^# s5p-shared-boot: *//p' "$0" | head -n1)"
	[ "$f" != "$S5P_FLAVOUR" ] || [ -z "$scen" ] || list+=" $b:$scen"
	[ -n "$list" ] || return 0
	case " $list " in *" $1:$2 "*) return 0 ;; esac
	printf '# %s %s: not run on the %s kernel (docs/testing.md)\n' "$1" "$2" "$S5P_FLAVOUR"
	return 1
}
t_pass() { printf 'ok - %s\n' "$*"; }
# t_skip WHAT WHY: a check that could not run here; counted apart ("N
# skipped" in the summary), never as passed.
t_skip() { printf 'ok - %s # SKIP %s\n' "$1" "$2"; }
t_fail() { printf 'not ok - %s\n' "$*"; T_FAILED=$((T_FAILED + 1)); }

# t_relay [-s STRIP] PREFIX: relay the results on standard input (a guest
# script's KTAP, tests/guest/lib.sh: "ok N - X" / "not ok N - X"; a host
# checker's TAP: "ok - X" / "not ok - X") as "ok - PREFIXX" (STRIP taken
# off the front of X first, when there; a "# SKIP why" directive kept),
# "# " lines as they are; everything else is dropped (KTAP's version line,
# unknown lines, indented subtests).  A relayed failure is the suite's
# (T_FAILED: its logs are kept).  Feed it by redirection, not a pipe, or
# the count is lost in a subshell:  t_relay "main: " <"$T_OUT"
t_relay() {
	local strip='' prefix line x r
	if [ "$1" = -s ]; then strip=$2; shift 2; fi
	prefix=$1
	while IFS= read -r line; do
		# (a console's line ends may hold two: the guest's tty's and a pty's)
		while [[ $line == *$'\r' ]]; do line=${line%$'\r'}; done
		if [[ $line =~ ^(ok|not\ ok)(\ [0-9]+)?(\ -)?\ (.*)$ ]]; then
			r=${BASH_REMATCH[1]} x=${BASH_REMATCH[4]}
			printf '%s - %s%s\n' "$r" "$prefix" "${x#"$strip"}"
			[ "$r" = ok ] || T_FAILED=$((T_FAILED + 1))
		elif [[ $line == '# '* ]]; then
			printf '%s\n' "$line"
		fi
	done
}

# t_relay_cmd PREFIX COMMAND...: run a host checker and relay its TAP lines
# (t_relay); its failing exit status is the suite's failure too.
t_relay_cmd() {
	local prefix=$1 rc=0
	shift
	"$@" >"$T_TMP/relay.out" 2>&1 || rc=$?
	t_relay "$prefix" <"$T_TMP/relay.out"
	[ "$rc" = 0 ] || { T_FAILED=$((T_FAILED + 1)); printf '# %s exited with status %s\n' "$1" "$rc"; }
	return "$rc"
}

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

# t_no_reports WHAT LOG: ok when the console log LOG exists, is not empty
# and holds no kernel report (s5p_kernel_reports: BUG, WARNING, Oops,
# KASAN, UBSAN, lockdep, DMA-API, kmemleak...); the reports otherwise.
t_no_reports() {
	local what=$1 log=$2
	if [ ! -s "$log" ]; then
		t_fail "$what (no console log at $log)"
	elif s5p_kernel_reports "$log" >"$T_TMP/reports"; then
		t_fail "$what"
		head -n 12 "$T_TMP/reports" | sed 's/^/#   /'
	else
		t_pass "$what"
	fi
}

# End of a suite: its exit status says whether anything failed.
t_done() { printf '# s5p-done\n'; [ "$T_FAILED" = 0 ]; }

# t_guest_boot BOARD SCRIPT SCENARIO [APPEND]: boot BOARD (with --append
# APPEND if given) and run "/tests/SCRIPT SCENARIO" in the guest; relay
# its TAP and '#' lines, prefixed with SCENARIO, and check its exit
# status.  Sets T_OUT (its output), T_LOG (the console log) and T_RC.
# A part of a shared boot (S5P_SHARED_BOOT, tests/lib/shared-boot.sh: one
# debug-kernel boot runs several suites' scripts) is not booted again: its
# output, its stretch of the console log and its status are read from
# there.
t_guest_boot() {
	local board=$1 script=$2 scenario=$3 append=${4:-}
	local how="the board's default cma= and cma_map="
	T_OUT=$T_TMP/$board-$scenario.out T_LOG=$T_TMP/$board-$scenario.log
	rm -f "$T_LOG"
	[ -z "$append" ] || how="--append '$append'"
	# (a part of a shared boot: run.sh's, with the board's defaults, or the
	# suite's own, whose command line T_PARTS_APPEND names)
	if [ "$append" = "${T_PARTS_APPEND:-}" ] && t_part "$board" "$scenario" "$T_OUT" "$T_LOG"; then
		: >"$T_TMP/err"
	else
		echo "# $board, $scenario: $how (${S5P_FLAVOUR:-default} kernel)"
		"$S5P_TOP/scripts/boot-$board.sh" --cmd "/tests/$script $scenario" \
			${append:+--append "$append"} --log "$T_LOG" --timeout 900 >"$T_OUT" 2>"$T_TMP/err"
		T_RC=$?
	fi
	t_relay "$scenario: " <"$T_OUT"
	t_check "$board $scenario: guest checks exit with status 0 (got $T_RC)" [ "$T_RC" = 0 ]
}

# t_part BOARD SCENARIO OUT LOG: when this run's shared boot ran this suite's
# BOARD SCENARIO part (tests/lib/shared-boot.sh, S5P_SHARED_BOOT), copy its
# output to OUT and its stretch of the console log to LOG, set T_RC to its
# status, T_PART_START to the boot's console up to its first part (the
# kernel's start, which LOG lacks) and return 0; otherwise return 1 (the
# caller boots on its own).
t_part() {
	local part how
	T_PART_START=
	[ -n "${S5P_SHARED_BOOT:-}" ] || return 1
	part=$S5P_SHARED_BOOT/$(basename "$0" .sh).$1.$2
	if [ ! -f "$part.rc" ]; then
		echo "# $1, $2: the shared boot did not run this part; booting on its own"
		return 1
	fi
	how="the board's default cma= and cma_map="
	[ -z "${T_PARTS_APPEND:-}" ] || how="--append '$T_PARTS_APPEND'"
	echo "# $1, $2: $how (${S5P_FLAVOUR:-default} kernel), a part of the shared boot $S5P_SHARED_BOOT"
	cp "$part.out" "$3" && cp "$part.log" "$4" || return 1
	T_RC=$(cat "$part.rc")
	# shellcheck disable=SC2034 # (the suite's: t_part's result)
	T_PART_START=$S5P_SHARED_BOOT/boot.$1.log
}

# t_guest_end BOARD SCENARIO: after t_guest_boot, no kernel report on the
# console (t_no_reports); on failure the end of the logs.
t_guest_end() {
	t_no_reports "$1 $2: no oops, BUG, warning or sanitizer report on the console" "$T_LOG"
	[ "$T_RC" = 0 ] || tail -n 15 "$T_TMP/err" "$T_LOG" | sed 's/^/#   /'
}
