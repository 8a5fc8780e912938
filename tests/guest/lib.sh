# shellcheck shell=sh
# Helpers for guest-side test scripts (busybox sh).  Source it:
#   . /tests/lib.sh
# The results are KTAP (the kernel's Documentation/dev-tools/ktap.rst):
# "KTAP version 1" before the first result, then one result line a check,
# "ok N - BOARD: WHAT" or "not ok N - BOARD: WHAT" (numbered from 1 in the
# order printed), "# ..." diagnostic lines with details on failure, and at
# the end, kselftest's way, "# Totals: pass:P fail:F xfail:0 xpass:0 skip:0
# error:0".  No plan line: a script does not know its number of checks in
# advance (the KTAP spec allows leaving it out).  The host (tests/lib/tap.sh,
# t_relay) and a LAVA job's monitor (scripts/lava-jobs.sh) read the same
# lines; the KUnit results the kernel prints on the console are the
# kernel's own KTAP and are left as they are.

board=$(hostname)
T_FAILED=0

# The result count lives in a file, not a variable: a check in a pipeline
# or a subshell still numbers on.  Exported, so a script's children that
# source this file share it; only the script that created it prints the
# totals (at its exit).
if [ -z "${KTAP_COUNT:-}" ]; then
	KTAP_COUNT=/tmp/ktap-count.$$
	KTAP_OWNER=$$
	export KTAP_COUNT
	rm -f "$KTAP_COUNT"
fi
# ktap_result RESULT DESCRIPTION [DIRECTIVE]: print one numbered result
# line (and the version line before the first), with " # DIRECTIVE" after
# it when given ("SKIP why").  KTAP descriptions cannot hold "#".
ktap_result() {
	# (no fork for the usual description: the debug kernel is slow)
	case "$2" in *'#'*) set -- "$1" "$(printf '%s' "$2" | tr '#' '_')" ;; esac
	if [ -f "$KTAP_COUNT" ]; then
		read -r ktap_n ktap_p ktap_f <"$KTAP_COUNT"
	else
		echo "KTAP version 1"
		ktap_n=0 ktap_p=0 ktap_f=0
	fi
	ktap_n=$((ktap_n + 1))
	if [ "$1" = ok ]; then ktap_p=$((ktap_p + 1)); else ktap_f=$((ktap_f + 1)); fi
	echo "$ktap_n $ktap_p $ktap_f" >"$KTAP_COUNT"
	echo "$1 $ktap_n - $2${3:+ # $3}"
	# KTAP_TIME=1 (in the command): the guest's uptime after each result,
	# to see where a script's time goes (docs/testing.md, "Where a suite's
	# time goes")
	if [ -n "${KTAP_TIME:-}" ]; then
		read -r ktap_up _ </proc/uptime
		echo "# at $ktap_up s"
	fi
}
ktap_totals() {
	[ "${KTAP_OWNER:-}" = "$$" ] || return 0
	ktap_n=0 ktap_p=0 ktap_f=0
	[ ! -f "$KTAP_COUNT" ] || read -r ktap_n ktap_p ktap_f <"$KTAP_COUNT"
	echo "# Totals: pass:$ktap_p fail:$ktap_f xfail:0 xpass:0 skip:0 error:0"
	rm -f "$KTAP_COUNT"
}
trap ktap_totals EXIT

ok() { ktap_result ok "$board: $*"; }
# skip WHAT WHY: a check this boot leaves out, counted as skipped
# ("# SKIP WHY", which t_relay keeps), never as passed
skip() { ktap_result ok "$board: $1" "SKIP $(printf '%s' "$2" | tr '#' '_')"; }
not_ok() { ktap_result "not ok" "$board: $*"; T_FAILED=$((T_FAILED + 1)); }

# check WHAT COMMAND...: ok when COMMAND succeeds.
check() {
	what=$1
	shift
	if "$@" >/tmp/check.out 2>&1; then
		ok "$what"
	else
		not_ok "$what"
		sed 's/^/# /' /tmp/check.out | head -n 20
	fi
}

# check_eq WHAT EXPECTED ACTUAL
check_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		echo "# expected: $2"
		echo "# got:      $3"
	fi
}

# debug_kernel: status 0 on the debug flavour (KASAN: boards/flavours/
# debug.config), where code runs several times slower and a guest script
# may sample what the default kernel covers in full.
debug_kernel() {
	zcat /proc/config.gz 2>/dev/null | grep -qx 'CONFIG_KASAN=y'
}

# irq_count NAME: interrupts so far on the line whose action is NAME.
irq_count() {
	awk -v n="$1" '$NF == n { print $2 }' /proc/interrupts
}

# kernel_reports [FILE]: the kernel report lines (BUG, WARNING, Oops, KASAN,
# UBSAN, lockdep, DMA-API, kmemleak...) of FILE or standard input; the
# host's list (tests/guest/kernel-reports.re, scripts/lib/common.sh).
# Status 1 when there are none, like grep.  No allowance here: no guest
# script provokes a report on purpose (a boot that does names it on the
# host: boot.sh --allow-report, docs/testing.md).
kernel_reports() {
	grep -aE -f /tests/kernel-reports.re "$@"
}

# part_dmesg: the kernel log since this script's part of a shared boot
# began ("S5P-PART-BEGIN", tests/lib/shared-boot.sh), or all of it: a
# report from another suite's part is that suite's.
part_dmesg() {
	dmesg | awk '/S5P-PART-BEGIN / { n = 0 } { l[++n] = $0 } END { for (i = 1; i <= n; i++) print l[i] }'
}
