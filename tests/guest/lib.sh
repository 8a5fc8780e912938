# Helpers for guest-side test scripts (busybox sh).  Source it:
#   . /tests/lib.sh
# Each check prints one TAP line: "ok - WHAT" or "not ok - WHAT", and a
# "# ..." line with details on failure.  The host counts them.

board=$(hostname)
T_FAILED=0

ok() { echo "ok - $board: $*"; }
not_ok() { echo "not ok - $board: $*"; T_FAILED=$((T_FAILED + 1)); }

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

# irq_count NAME: interrupts so far on the line whose action is NAME.
irq_count() {
	awk -v n="$1" '$NF == n { print $2 }' /proc/interrupts
}

# kernel_reports [FILE]: the kernel report lines (BUG, WARNING, Oops, KASAN,
# UBSAN, lockdep, DMA-API, kmemleak...) of FILE or standard input; the
# host's list (tests/guest/kernel-reports.re, scripts/lib/common.sh).
# Status 1 when there are none, like grep.
kernel_reports() {
	grep -aE -f /tests/kernel-reports.re "$@"
}

# part_dmesg: the kernel log since this script's part of a shared boot
# began ("S5P-PART-BEGIN", tests/lib/shared-boot.sh), or all of it: a
# report from another suite's part is that suite's.
part_dmesg() {
	dmesg | awk '/S5P-PART-BEGIN / { n = 0 } { l[++n] = $0 } END { for (i = 1; i <= n; i++) print l[i] }'
}
