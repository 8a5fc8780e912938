#!/usr/bin/env bash
# s5p-flavours: default debug
# s5p-qemu: plain (the kernel's CMA, whose sanitizers are the debug pass's; QEMU's devices run under ASan in the device suites and the qtests)
# s5p-timeout: 900
# A short CMA stress run (docs/fuzzing-guest.md): one Goni boot with three
# extra regions, one per allocator (scripts/stress-cma.sh), where cma-stress
# makes random allocations and frees through /dev/cma from 4 processes, 4
# of them killed with SIGKILL midway; at 4 points and at the end the
# statistics (sysfs used and chunks, the debugfs chunk list) must be exactly
# what the processes hold, and 0 once they have all exited
# (tests/guest/stress.sh).  scripts/stress-cma.sh alone is the long run.
#
# S5P_STRESS_SEED=N replays a run (the seed is printed first);
# S5P_STRESS_OPS=N sets the number of operations (default 20000, a tenth of
# it on the debug kernel, S5P_FLAVOUR=debug).
set -u
. "$(dirname "$0")/../lib/tap.sh"
t_plan 13

t_check "tools/fuzz/include/linux/cma.h is tools/cma's copy of the UAPI header" \
	cmp "$S5P_TOP/tools/fuzz/include/linux/cma.h" "$S5P_TOP/tools/cma/include/linux/cma.h"

case ${S5P_FLAVOUR:-default} in
debug) ops=${S5P_STRESS_OPS:-2000} ;;
*) ops=${S5P_STRESS_OPS:-20000} ;;
esac
seed=${S5P_STRESS_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "# seed $seed, $ops operations, ${S5P_FLAVOUR:-default} kernel; replay:" \
	"S5P_STRESS_SEED=$seed S5P_STRESS_OPS=$ops make check SUITES=48-cma-stress"
"$S5P_TOP/scripts/stress-cma.sh" --seed "$seed" --ops "$ops" --procs 4 --kills 4 --checks 4 \
	--timeout 300 --log "$T_TMP/console.log" >"$T_TMP/out" 2>"$T_TMP/err"
rc=$?
t_relay "" <"$T_TMP/out"
t_check "goni: the stress boot ends with status 0 (got $rc; seed $seed)" [ $rc = 0 ]
[ $rc = 0 ] || tail -n 15 "$T_TMP/err" | sed 's/^/#   /'
t_no_reports "goni: no kernel report in the console log after the stress run (seed $seed)" "$T_TMP/console.log"
t_done
