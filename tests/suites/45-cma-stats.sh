#!/usr/bin/env bash
# s5p-flavours: default debug
# s5p-qemu: plain (the kernel's CMA, whose sanitizers are the debug pass's; QEMU's devices run under ASan in the device suites and the qtests)
# s5p-debug-scenarios: goni:main
# Per-region statistics (/sys/kernel/mm/cma, cma-test stats), the ff and
# bitmap allocators and bigphysarea, in the guest: two Goni boots running
# /tests/cma-stats.sh (tests/guest/cma-stats.sh says what each checks).
set -u
. "$(dirname "$0")/../lib/tap.sh"
t_plan 85 debug=76

main_append="cma=ff1=4M@0x44000000:ff;bm=4M@0x44400000:bitmap;bf1=4M@0x44800000;x=1M:bitmap(p)"
main_append+=" cma_map=t/f=ff1;t/m=bm;t/b=bf1;t/x=x bigphysarea=256"

boot=$S5P_TOP/scripts/boot-goni.sh
for scenario in main badbig; do
	case $scenario in
	main) append=$main_append ;;
	badbig) append="bigphysarea=12x" ;;
	esac
	t_wanted goni "$scenario" || continue
	log=$T_TMP/goni-$scenario.log
	"$boot" --cmd "sh /tests/cma-stats.sh $scenario" --append "$append" --log "$log" \
		--timeout 300 >"$T_TMP/out" 2>&1
	rc=$?
	t_relay -s "goni: " "goni [$scenario]: " <"$T_TMP/out"
	t_check "goni [$scenario]: the statistics guest checks exit with status 0 (got $rc)" [ "$rc" = 0 ]
	if [ "$rc" != 0 ]; then
		grep -vE '^(not )?ok |^# ' "$T_TMP/out" | head -n 20 | sed 's/^/#   /'
	fi
	t_no_reports "goni [$scenario]: no kernel warning, oops, BUG or sanitizer report in the console log" "$log"
done
t_done
