#!/bin/sh
# Random allocations and frees through /dev/cma from several processes, some
# killed with SIGKILL (cma-stress, tools/fuzz), with the statistics checked
# against what the processes hold at CHECKS points and at the end, every
# new chunk read back as zeroes (-Z); then nothing lost and no kernel
# report.  CHECKS + 6 TAP lines.
# (tests/suites/48-cma-stress.sh and scripts/stress-cma.sh boot Goni with
# STRESS_APPEND of scripts/stress-cma.sh: regions sbf, sff and sbm, one per
# allocator, for st/bf, st/ff, st/bm, and st/any trying all three;
# docs/fuzzing-guest.md.)
#
#   stress.sh SEED OPS PROCS KILLS CHECKS [cma-stress options...]
# shellcheck source=lib.sh
set -u
. /tests/lib.sh
# shellcheck source=cma-lib.sh
. /tests/cma-lib.sh

seed=${1:?seed} ops=${2:-100000} procs=${3:-4} kills=${4:-4} checks=${5:-4}
shift 5 2>/dev/null || shift $#
regions=sbf,sff,sbm
for r in sbf sff sbm; do
	[ -d "$CMA_SYSFS/$r" ] || echo "# no region $r: boot with scripts/stress-cma.sh's cma= and cma_map="
done

echo "s5p-stress-guest: start seed $seed" >/dev/kmsg
cma-stress -Z -s "$seed" -n "$ops" -p "$procs" -k "$kills" -c "$checks" -r "$regions" "$@" \
	st/bf st/ff st/bm st/any >/tmp/stress.out 2>&1
rc=$?
# One KTAP result per check cma-stress reports, the rest as comments
# (numbered by ok/not_ok, which count the failures: not in a pipeline)
sed -n 's/^cma-stress: \(check [0-9]* at .*\|end, .*\|alloc_ok grew .*\): ok$/ok \1/p
	t
	s/^cma-stress: \(check [0-9]* at .*\|end, .*\|alloc_ok grew .*\): FAIL$/not_ok \1 (seed '"$seed"')/p
	t
	s/^/# /p' /tmp/stress.out >/tmp/stress.ktap
while IFS= read -r line; do
	case "$line" in
	"ok "*) ok "stress: ${line#ok }" ;;
	"not_ok "*) not_ok "stress: ${line#not_ok }" ;;
	*) echo "$line" ;;
	esac
done </tmp/stress.ktap
if [ $rc = 0 ] && grep -q '^cma-stress: done: ' /tmp/stress.out; then
	ok "stress: cma-stress -s $seed -n $ops -p $procs -k $kills exits with status 0"
else
	not_ok "stress: cma-stress -s $seed -n $ops -p $procs -k $kills: exit status $rc"
fi

cma_nothing_lost "stress: nothing lost once every process has exited"
dmesg | sed -n '/s5p-stress-guest: start/,$p' >/tmp/stress.dmesg
reports=$(kernel_reports /tmp/stress.dmesg; grep -E 'cma: .*no chunk starts there' /tmp/stress.dmesg)
if [ -z "$reports" ]; then
	ok "stress: no kernel report in the log since cma-stress started"
else
	not_ok "stress: kernel reports during cma-stress (seed $seed)"
	echo "$reports" | head -n 10 | sed 's/^/#   /'
fi
[ "$T_FAILED" = 0 ]
