#!/usr/bin/env bash
# s5p-lava: scripts (its own commands test QEMU's end of a boot, poweroff, reboot, an exit status and the boot timeout, which a LAVA job handles its own way)
# The base machine on both boards: boots to userspace, memory banks, VICs,
# console UART, clock rates, the guest's timer (against the host's clock:
# 11-clock, which runs alone), the
# --append path, poweroff and reboot, and the boot script's own contract
# (exit status, timeout, bad options, the kernel-report gate with a boot
# that provokes an OOM kill on purpose: --allow-report oom).
set -u
. "$(dirname "$0")/../lib/tap.sh"
t_plan 60

for board in goni aquila; do
	boot=$S5P_TOP/scripts/boot-$board.sh
	token=s5p.test=append-$board-$$
	log=$T_TMP/$board-console.log
	out=$T_TMP/$board-out.txt

	# One boot runs the guest-side checks; every line of output is
	# stamped with the host's clock on arrival.  Each boot starts without
	# a console log, so no check reads the previous boot's.
	rm -f "$log"
	"$boot" --cmd /tests/base.sh --append "$token" --log "$log" --timeout 180 |
		while IFS= read -r line; do printf '%s %s\n' "$(date +%s.%N)" "$line"; done >"$out"
	rc=${PIPESTATUS[0]}
	t_relay "" < <(cut -d' ' -f2- "$out")
	t_check "$board: guest checks exit with status 0" [ "$rc" = 0 ]

	t_check "$board: kernel started /init" grep -q 'Run /init as init process' "$log"
	t_check "$board: --append argument reaches /proc/cmdline" grep -q "^[0-9.]* CMDLINE: .* $token" "$out"
	t_check "$board: user-space text written to the console tty appears on the console UART" \
		grep -q 'console UART interrupt test line: 1 2 3' "$log"
	t_no_reports "$board: no kernel warning, oops or BUG in the boot log" "$log"

	# poweroff: the PMU's PS_HOLD ends QEMU.
	t0=$(date +%s)
	rm -f "$log"
	"$boot" --cmd 'poweroff -f' --log "$log" --timeout 60 >/dev/null 2>&1
	rc=$?
	t_check "$board: 'poweroff -f' ends QEMU (status $rc, $(($(date +%s) - t0)) s)" \
		bash -c "[ $rc != 124 ] && grep -q 'reboot: Power down' '$log'"
	t_no_reports "$board: no kernel report in the poweroff boot's log" "$log"

	# reboot: SWRESET resets the machine (QEMU runs with -no-reboot).
	rm -f "$log"
	"$boot" --cmd 'reboot -f' --log "$log" --timeout 60 >/dev/null 2>&1
	rc=$?
	t_check "$board: 'reboot -f' resets through SWRESET (status $rc)" \
		bash -c "[ $rc != 124 ] && grep -q 'reboot: Restarting system' '$log'"
	t_no_reports "$board: no kernel report in the reboot boot's log" "$log"
done

# The boot script's contract, once.
boot=$S5P_TOP/scripts/boot-goni.sh
out=$("$boot" --cmd 'echo "a  b"; echo err >&2; exit 7' --log "$T_TMP/status.log" 2>/dev/null)
rc=$?
t_check "--cmd exit status is the command's (7, got $rc)" [ "$rc" = 7 ]
t_check "--cmd prints the command's stdout and stderr exactly" \
	[ "$out" = "$(printf 'a  b\nerr')" ]
# (a failing command keeps its own status: --check-log turns only a 0 into
# 3, so the console is judged here)
t_no_reports "no kernel report in the exit status boot's log" "$T_TMP/status.log"

# The gate knows an OOM kill (tests/guest/kernel-reports.re), and a boot
# that provokes one on purpose says so: this hog fills memory until the
# OOM killer stops it (hog -g), on purpose.  Without --allow-report oom
# the boot fails; with it, it passes with the kill in its log; and the
# allowance covers nothing else (a BUG: line written to the kernel log
# beside it still fails the boot, and only it is named).
oom_cmd='hog -g >/tmp/fill.out 2>&1; tail -n 1 /tmp/fill.out'
"$boot" --check-log --cmd "$oom_cmd" --log "$T_TMP/oom.log" >"$T_TMP/oom.out" 2>"$T_TMP/oom.err"
rc=$?
t_check "an OOM kill fails a --check-log boot (status $rc, 3), the report named" \
	bash -c "[ $rc = 3 ] && grep -q 'Out of memory: Killed process [0-9]* (hog)' '$T_TMP/oom.err' &&
		grep -q 'invoked oom-killer:' '$T_TMP/oom.err'"
"$boot" --check-log --allow-report oom --cmd "$oom_cmd" --log "$T_TMP/oom-allowed.log" \
	>"$T_TMP/oom-allowed.out" 2>"$T_TMP/oom-allowed.err"
rc=$?
t_check "... the same boot with --allow-report oom passes (status $rc), the kill in its log and said ($(tail -n 1 "$T_TMP/oom-allowed.out"))" \
	bash -c "[ $rc = 0 ] && grep -q 'Out of memory: Killed process [0-9]* (hog)' '$T_TMP/oom-allowed.log' &&
		grep -q '^note: .* --allow-report oom allows' '$T_TMP/oom-allowed.err'"
t_no_reports "... its log: no report but the allowed OOM kill" "$T_TMP/oom-allowed.log" oom
"$boot" --check-log --allow-report oom --log "$T_TMP/oom-bug.log" \
	--cmd "echo '<2>BUG: planted by 10-boards' >/dev/kmsg; $oom_cmd" >/dev/null 2>"$T_TMP/oom-bug.err"
rc=$?
t_check "... with --allow-report oom, a BUG: line beside the kill still fails it (status $rc), named alone" \
	bash -c "[ $rc = 3 ] && grep -q 'BUG: planted by 10-boards' '$T_TMP/oom-bug.err' &&
		grep -q '^error: the kernel log holds 1 report line' '$T_TMP/oom-bug.err' &&
		grep -q 'Out of memory: Killed process' '$T_TMP/oom-bug.log'"
"$boot" --check-log --allow-report nosuch --cmd true >/dev/null 2>"$T_TMP/allow-bad.err"
rc=$?
t_check "--allow-report with an unknown name: status 2, the known ones named (status $rc)" \
	bash -c "[ $rc = 2 ] && grep -q \"unknown report allowance 'nosuch' (one of: oom alloc-failure irq-storm)\" '$T_TMP/allow-bad.err'"

t0=$(date +%s)
"$boot" --cmd 'sleep 600' --timeout 20 --append "s5p.test=timeout-$$" --log "$T_TMP/timeout.log" \
	>/dev/null 2>"$T_TMP/timeout.err"
rc=$?
t_check "a command that hangs is killed at --timeout (status $rc, $(($(date +%s) - t0)) s)" \
	bash -c "[ $rc = 124 ] && grep -q 'did not finish within 20s' '$T_TMP/timeout.err'"
t_no_reports "no kernel report in the timed-out boot's log" "$T_TMP/timeout.log"
# pgrep: 1 is "no process matched"; 0 a match, 2 and 3 errors, 127 no pgrep.
pgrep -f "[s]5p.test=timeout-$$" >/dev/null
rc=$?
t_check "no QEMU left running after the timeout (pgrep status $rc, 1 = none)" [ "$rc" = 1 ]

"$boot" --bogus >/dev/null 2>"$T_TMP/usage.err"
rc=$?
t_check "an unknown option exits 2 with one line naming it" \
	bash -c "[ $rc = 2 ] && [ \$(wc -l <'$T_TMP/usage.err') = 1 ] && grep -q \"unknown option '--bogus'\" '$T_TMP/usage.err'"

t_done
