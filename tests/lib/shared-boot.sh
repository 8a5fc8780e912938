#!/usr/bin/env bash
# One boot for several suites' guest scripts (tests/run.sh runs it; docs/
# testing.md, "Shared boots"):
#
#   tests/lib/shared-boot.sh BOARD OUTDIR [--append ARGS] SUITE:SCRIPT:SCENARIO...
#
# A debug-kernel boot costs about 75 s before and after its command (30 s
# to /init, the modules, kmemleak's scans), so the suites whose header says
# "# s5p-shared-boot: FLAVOUR BOARD SCRIPT SCENARIO" (a boot with the
# board's defaults) run their scripts one after the other in one boot of
# BOARD.  A suite may also run several of its own scenarios in one boot
# with ARGS added to the command line (--append: 42-dma-api on the debug
# kernel).  Each part is framed by "S5P-PART-BEGIN SUITE/SCENARIO" and
# "S5P-PART-END SUITE/SCENARIO STATUS" lines, on the output and in the
# kernel log, so that the
# part's output, its stretch of the console log (a kernel report is the
# part's that was running) and its status go to OUTDIR/SUITE.BOARD.SCENARIO
# .out, .log and .rc, where the suite's t_guest_boot reads them
# (S5P_SHARED_BOOT=OUTDIR); the console up to the first part goes to
# OUTDIR/boot.BOARD.log.  The suites judge their parts; this judges the
# boot: it ran every part, it ended as a boot should, nothing was reported
# outside the parts (before the first, between two, and kmemleak's objects
# after the last), and a kernel with kmemleak counted.
# s5p-timeout: 2400
. "$(dirname "$0")/tap.sh"
t_plan 4

board=$1 out=$2 append=
shift 2
if [ "${1:-}" = --append ]; then
	append=$2
	shift 2
fi
rm -rf "$out" && mkdir -p "$out" || exit 1
# Each part is limited in the guest (busybox timeout) to what its own boot
# would get (900 s, times the flavour's timeout scale): a hung part fails
# its suite, and the parts after it still run.
scale=$(sed -n 's/^# s5p-timeout-scale: *\([0-9]*\)$/\1/p' \
	"$S5P_TOP/boards/flavours/${S5P_FLAVOUR:-default}.config" 2>/dev/null | head -n1)
limit=$((900 * ${scale:-1}))
cmd='' n=0
for p in "$@"; do
	IFS=: read -r suite script scenario <<<"$p"
	[[ $suite/$scenario =~ ^[A-Za-z0-9@._-]+/[A-Za-z0-9@._-]+$ ]] || { t_fail "bad part '$p'"; continue; }
	cmd+="echo S5P-PART-BEGIN $suite/$scenario >/dev/kmsg; echo S5P-PART-BEGIN $suite/$scenario; "
	cmd+="timeout $limit /tests/$script $scenario; r=\$?; "
	cmd+="echo S5P-PART-END $suite/$scenario \$r >/dev/kmsg; echo S5P-PART-END $suite/$scenario \$r; "
	n=$((n + 1))
done
cmd+="true"
# shellcheck disable=SC2016 # (quotes shown around the value, which expands)
echo "# $board: $n parts in one boot (${S5P_FLAVOUR:-default} kernel${append:+, --append '$append'}): $*"
log=$T_TMP/console.log
t0=$(date +%s)
"$S5P_TOP/scripts/boot-$board.sh" --cmd "$cmd" --log "$log" --timeout $(((n + 1) * 900)) \
	${append:+--append "$append"} >"$T_TMP/out" 2>"$T_TMP/err"
rc=$?
echo "# boot status $rc in $(($(date +%s) - t0)) s"

# split MODE FILE: cut FILE at the part markers into each part's file:
# "out" (the output: OUTDIR/SUITE.BOARD.SCENARIO.out and .rc, the status on
# the END line) or "log" (the console log, markers kept: .log; what lies
# outside every part goes to $T_TMP/outside.log).
split() {
	awk -v mode="$1" -v dir="$out" -v b="$board" -v outside="$T_TMP/outside.log" '
	{ line = $0; sub(/\r$/, "", line); n = split(line, w, " ") }
	line ~ /S5P-PART-BEGIN / {
		split(w[n], id, "/")
		cur = dir "/" id[1] "." b "." id[2]
		if (mode == "out") printf "" >(cur ".out"); else print >(cur ".log")
		next
	}
	line ~ /S5P-PART-END / {
		if (mode == "out") { print w[n] >(cur ".rc"); close(cur ".out"); close(cur ".rc") }
		else { print >(cur ".log"); close(cur ".log") }
		cur = ""; next
	}
	cur != "" { if (mode == "out") print line >(cur ".out"); else print >(cur ".log"); next }
	mode == "log" { print >outside }' "$2"
}
# each part's seconds, from the kernel log's timestamps on its markers
awk '{ sub(/\r$/, "") } /^\[ *[0-9.]+\] S5P-PART-(BEGIN|END) / {
	t = substr($0, 2, index($0, "]") - 2) + 0
	if ($0 ~ /BEGIN/) { b = t; name = $NF } else printf "# part %s: %.0f s\n", name, t - b }' "$log"
split out "$T_TMP/out"
split log "$log"
# the boot's start, up to the first part (the kernel's own lines, such as
# CMA's "cma: " lines of its first second), for the suites that check it:
# OUTDIR/boot.BOARD.log (t_part's T_PART_START)
sed '/S5P-PART-BEGIN /,$d' "$log" >"$out/boot.$board.log"
ran=$(find "$out" -maxdepth 1 -name '*.rc' | wc -l)
t_check "$board: the shared boot ran every part ($ran of $n)" [ "$ran" = "$n" ]
[ "$ran" = "$n" ] || tail -n 12 "$T_TMP/err" "$log" | sed 's/^/#   /'
# 0, or 3 for a kernel report (the part's suite fails on it; outside the
# parts, the next check does), but not the 3 of a kmemleak that did not count
t_check "$board: the shared boot ended as a boot should (status $rc: 0, or 3 for a report)" \
	bash -c "[ $rc = 0 ] || { [ $rc = 3 ] && ! grep -q 'logged no S5P-KMEMLEAK count' '$T_TMP/err'; }"
t_no_reports "$board: no kernel report outside the parts (before, between, kmemleak's objects after them)" \
	"$T_TMP/outside.log"
# (kmemleak=off never prints "initialized": any trace of kmemleak counts)
if grep -qaE 'kmemleak: |S5P-KMEMLEAK' "$log" || grep -q 'logged no S5P-KMEMLEAK count' "$T_TMP/err"; then
	t_check "$board: kmemleak scanned after the parts (S5P-KMEMLEAK count)" \
		grep -qaE 'S5P-KMEMLEAK [0-9]+ ' "$log"
else
	t_skip "$board: kmemleak scanned after the parts" "no kmemleak in this kernel"
fi
t_done
