#!/usr/bin/env bash
# s5p-qemu: plain (another kernel's CMA booting; QEMU's devices run under ASan in the device suites and the qtests)
# The kernel flavours no other suite boots (boards/flavours/*.config but
# "debug", which has its own pass): each builds (cached by its inputs' hash
# like the others, so this costs a build only when they change) and boots
# Goni once, so that it cannot rot unseen.  Today: "mainline-cma", Linux
# 6.1's own CMA with a 24 MiB global area instead of the series' regions
# (the anchor of docs/benchmarks.md, "Movable regions against 6.1's CMA"):
# the area is reserved and counted in CmaTotal, its sysfs statistics are
# there, the series' /dev/cma and regions are not, no kernel report.
# s5p-prebuild: goni mainline-cma
. "$(dirname "$0")/../lib/tap.sh"
t_plan 5

log=$T_TMP/mainline-cma.log
# shellcheck disable=SC2016 # (the guest's command, expanded there)
"$S5P_TOP/scripts/boot-goni.sh" --flavour mainline-cma --log "$log" --timeout 300 --cmd '
	grep CmaTotal /proc/meminfo
	echo "areas: $(ls /sys/kernel/mm/cma/ 2>/dev/null | tr "\n" " ")"
	[ -e /dev/cma ] && echo "dev-cma: yes" || echo "dev-cma: no"
	[ -e /sys/kernel/debug/cma/regions ] && echo "regions: yes" || echo "regions: no"
' >"$T_TMP/out" 2>"$T_TMP/err"
rc=$?
sed 's/^/# /' "$T_TMP/out"
t_check "mainline-cma: builds and boots Goni (status $rc)" [ "$rc" = 0 ]
[ "$rc" = 0 ] || tail -n 8 "$T_TMP/err" | sed 's/^/#   /'
t_check "mainline-cma: 6.1's CMA reserves its 24 MiB global area at boot" \
	grep -qE 'cma: Reserved 24 MiB' "$log"
t_check "mainline-cma: CmaTotal is the area's 24576 kB" \
	grep -qE '^CmaTotal: +24576 kB$' "$T_TMP/out"
t_check "mainline-cma: 6.1's CMA statistics in sysfs, no /dev/cma, no series regions" \
	bash -c "grep -qE '^areas: [^ ]+ \$' '$T_TMP/out' && grep -qx 'dev-cma: no' '$T_TMP/out' &&
		grep -qx 'regions: no' '$T_TMP/out'"
t_no_reports "mainline-cma: no kernel report in the console log" "$log"
t_done
