#!/usr/bin/env bash
# s5p-flavours: default debug
# s5p-timeout: 900
# The guest fuzzer (docs/fuzzing-guest.md): one Goni boot with the board's
# defaults running the seeded ioctl/mmap fuzzer s5p-fuzz on /dev/cma, the
# camera, the codec and its media node from 4 processes, 4 of them killed
# with SIGKILL midway (scripts/fuzz-guest.sh, tests/guest/fuzz.sh); then
# no kernel report, the CMA statistics back at their starting values,
# nothing lost, a capture and an encode that work.
#
# S5P_FUZZ_SEED=N replays a run (the seed is printed first); S5P_FUZZ_OPS=N
# sets the number of operations (default 3000, a tenth of it on the debug
# kernel, S5P_FLAVOUR=debug).
. "$(dirname "$0")/../lib/tap.sh"
t_plan 10

case ${S5P_FLAVOUR:-default} in
debug) ops=${S5P_FUZZ_OPS:-300} ;;
*) ops=${S5P_FUZZ_OPS:-3000} ;;
esac
seed=${S5P_FUZZ_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "# seed $seed, $ops operations, ${S5P_FLAVOUR:-default} kernel; replay:" \
	"S5P_FUZZ_SEED=$seed S5P_FUZZ_OPS=$ops make check SUITES=47-guest-fuzz"
"$S5P_TOP/scripts/fuzz-guest.sh" --seed "$seed" --ops "$ops" --procs 4 --kills 4 \
	--timeout 300 --log "$T_TMP/console.log" >"$T_TMP/out" 2>"$T_TMP/err"
rc=$?
grep -E '^(not )?ok |^# ' "$T_TMP/out"
# A guest-side failure keeps this run's logs too (t_cleanup).
! grep -q '^not ok' "$T_TMP/out" || T_FAILED=$((T_FAILED + 1))
t_check "goni: the fuzzing boot ends with status 0 (got $rc; seed $seed)" [ $rc = 0 ]
[ $rc = 0 ] || tail -n 15 "$T_TMP/err" | sed 's/^/#   /'
t_no_reports "goni: no kernel report in the console log after fuzzing (seed $seed)" "$T_TMP/console.log"
t_done
