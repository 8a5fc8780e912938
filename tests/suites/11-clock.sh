#!/usr/bin/env bash
# s5p-lava: no (it times console lines as they reach the host: a lab's serial line and dispatcher add their own delays)
# s5p-alone: times the guest's 'sleep 2' against the host's clock
# The guest's clock against the host's, on both boards: the guest prints a
# line, sleeps 2 s and prints another; the host stamps each line with its
# own clock as it arrives, and the two stamps must be 2 +- 0.5 s apart (a
# timer, PWM or clock model running at the wrong rate shows here; the
# guest's own view of the same interval is 10-boards' base.sh check).  Its
# own suite, run alone, so that 10-boards' other checks can run beside
# another suite: this one boot a board is all that needs quiet cores.
set -u
. "$(dirname "$0")/../lib/tap.sh"
t_plan 4

for board in goni aquila; do
	out=$T_TMP/$board-out.txt
	"$S5P_TOP/scripts/boot-$board.sh" --cmd 'echo TIMER-START; sleep 2; echo TIMER-END' \
		--log "$T_TMP/$board-console.log" --timeout 120 |
		while IFS= read -r line; do printf '%s %s\n' "$(date +%s.%N)" "$line"; done >"$out"
	rc=${PIPESTATUS[0]}
	t_check "$board: the boot ends with status 0 (got $rc)" [ "$rc" = 0 ]
	[ "$rc" = 0 ] || tail -n 8 "$out" | sed 's/^/#   /'
	start=$(awk '$2 == "TIMER-START" { print $1 }' "$out")
	end=$(awk '$2 == "TIMER-END" { print $1 }' "$out")
	if [ -n "$start" ] && [ -n "$end" ]; then
		d=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
		t_check "$board: guest 'sleep 2' took $d s of host time (2 +- 0.5)" \
			awk -v d="$d" 'BEGIN { exit !(d >= 1.5 && d <= 2.5) }'
	else
		t_fail "$board: timer markers missing from the output"
	fi
done
t_done
