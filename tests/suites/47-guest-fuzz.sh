#!/usr/bin/env bash
# s5p-flavours: default debug
# s5p-timeout: 900
# s5p-shared-boot: debug goni fuzz.sh shared late
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
#
# On the debug kernel a second boot tests the leak detector itself: it loads
# the kernel's planted leak, samples/kmemleak's kmemleak-test module, and
# the boot must fail (status 3) with the leaked objects on the console.
set -u
. "$(dirname "$0")/../lib/tap.sh"
t_plan 10 debug=14

case ${S5P_FLAVOUR:-default} in
debug) ops=${S5P_FUZZ_OPS:-300} ;;
*) ops=${S5P_FUZZ_OPS:-3000} ;;
esac
seed=${S5P_FUZZ_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
# On the debug kernel, with no seed or count asked for, the fuzzer is a
# part of the shared boot (the header's line; its seed is in its output).
if [ -z "${S5P_FUZZ_SEED:-}${S5P_FUZZ_OPS:-}" ] && t_part goni shared "$T_TMP/out" "$T_TMP/console.log"; then
	rc=$T_RC
	seed=$(sed -n 's/^# seed \([0-9]*\),.*/\1/p' "$T_TMP/out" | head -n 1)
	: >"$T_TMP/err"
else
	echo "# seed $seed, $ops operations, ${S5P_FLAVOUR:-default} kernel; replay:" \
		"S5P_FUZZ_SEED=$seed S5P_FUZZ_OPS=$ops make check SUITES=47-guest-fuzz"
	"$S5P_TOP/scripts/fuzz-guest.sh" --seed "$seed" --ops "$ops" --procs 4 --kills 4 \
		--timeout 300 --log "$T_TMP/console.log" >"$T_TMP/out" 2>"$T_TMP/err"
	rc=$?
fi
t_relay "" <"$T_TMP/out"
t_check "goni: the fuzzing boot ends with status 0 (got $rc; seed $seed)" [ "$rc" = 0 ]
[ "$rc" = 0 ] || tail -n 15 "$T_TMP/err" | sed 's/^/#   /'
t_no_reports "goni: no kernel report in the console log after fuzzing (seed $seed)" "$T_TMP/console.log"

if [ "${S5P_FLAVOUR:-default}" = debug ]; then
	"$S5P_TOP/scripts/boot-goni.sh" --check-log --timeout 200 --log "$T_TMP/leak.log" \
		--cmd 'modprobe kmemleak-test && rmmod kmemleak-test' >"$T_TMP/leak.out" 2>&1
	rc=$?
	t_check "goni: a planted leak (kmemleak-test) fails the boot with status 3 (got $rc)" [ $rc = 3 ]
	n=$(sed -n 's/.*S5P-KMEMLEAK \([0-9]*\) unreferenced.*/\1/p' "$T_TMP/leak.log" | head -n1)
	# (It leaks 24 objects; kmemleak may miss a few, e.g. one whose address
	# is still in a stack or register: 23 and 24 were seen.)
	t_check "goni: /init's scans count the planted leak's objects (at least 20 of its 24, got ${n:-none})" \
		[ "${n:-0}" -ge 20 ]
	t_check "goni: the leaked objects are on the console, allocated while the module loaded" \
		grep -q 'do_init_module' "$T_TMP/leak.log"
	# A debug boot whose kmemleak is off must not pass: no count, status 3.
	"$S5P_TOP/scripts/boot-goni.sh" --check-log --timeout 200 --log "$T_TMP/off.log" \
		--append kmemleak=off --cmd true >"$T_TMP/off.out" 2>&1
	rc=$?
	t_check "goni: a debug boot with kmemleak=off fails (status 3, got $rc), saying it logged no count" \
		bash -c "[ $rc = 3 ] && grep -q 'logged no S5P-KMEMLEAK count' '$T_TMP/off.out'"
fi
t_done
