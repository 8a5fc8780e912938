#!/usr/bin/env bash
# s5p-qemu: plain (6.1's CMA alone booting; QEMU's devices run under ASan in the device suites and the qtests)
# Linux 6.1's own CMA alone on the boards' kernel, which has it beside the
# regions (CONFIG_CMA, CONFIG_DMA_CMA; kernel patch "mm: cma: regions
# beside CONFIG_CMA"): booted with "cma= cma=24M cma_map=" (no region, a
# 24 MiB default area, no map rule), as scripts/bench-movable.sh's
# mainline-cma row boots it to compare a region with a 6.1 area of the
# same kernel (docs/benchmarks.md, "Movable regions against 6.1's CMA"):
# the area is reserved and counted in CmaTotal, its sysfs directory is the
# only one, /dev/cma has no region to serve, no kernel report.  (Every
# other flavour but "debug", which has its own pass, would be booted here
# once so that it cannot rot unseen; there is none today.)
set -u
. "$(dirname "$0")/../lib/tap.sh"
t_plan 5

log=$T_TMP/mainline-cma.log
# shellcheck disable=SC2016 # (the guest's command, expanded there)
"$S5P_TOP/scripts/boot-goni.sh" --append 'cma= cma=24M cma_map=' --log "$log" --timeout 300 --cmd '
	grep CmaTotal /proc/meminfo
	echo "areas: $(ls /sys/kernel/mm/cma/ 2>/dev/null | tr "\n" " ")"
	echo "regions: $(wc -l </sys/kernel/debug/cma/regions)"
' >"$T_TMP/out" 2>"$T_TMP/err"
rc=$?
sed 's/^/# /' "$T_TMP/out"
t_check "6.1's CMA alone: boots Goni with cma= cma=24M cma_map= (status $rc)" [ "$rc" = 0 ]
[ "$rc" = 0 ] || tail -n 8 "$T_TMP/err" | sed 's/^/#   /'
t_check "6.1's CMA alone: the 24 MiB default area is reserved at boot" \
	grep -qE 'cma: Reserved 24 MiB' "$log"
t_check "6.1's CMA alone: CmaTotal is the area's 24576 kB" \
	grep -qE '^CmaTotal: +24576 kB$' "$T_TMP/out"
t_check "6.1's CMA alone: the default area is the only one in sysfs, and no region is reserved" \
	bash -c "grep -qx 'areas: reserved ' '$T_TMP/out' && grep -qx 'regions: 0' '$T_TMP/out' &&
		grep -q '^\[ *[0-9.]*\] cma: 0 regions reserved' '$log'"
t_no_reports "6.1's CMA alone: no kernel report in the console log" "$log"
t_done
