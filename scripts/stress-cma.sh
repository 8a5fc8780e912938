#!/usr/bin/env bash
# CMA stress run (a benchmark-style script; docs/fuzzing-guest.md has the
# figures): boots Goni with three extra regions, one per allocator, and runs
# cma-stress (tools/fuzz) in the guest through /dev/cma: OPS random
# allocations and frees from PROCS processes, KILLS of them killed with
# SIGKILL midway and replaced, the statistics compared with what the
# processes hold CHECKS times and at the end, 0 once every process has
# exited (tests/guest/stress.sh).
#
#   scripts/stress-cma.sh [--ops N] [--seed N] [--procs N] [--kills N]
#                         [--checks N] [--flavour NAME] [--timeout S]
#                         [--log FILE] [-- cma-stress options...]
#
#   --ops N       operations in all (default 1000000)
#   --seed N      the seed (default: a random one, printed)
#   --procs N     worker processes (default 4)
#   --kills N     workers killed with SIGKILL (default 8)
#   --checks N    checks while running, besides the end (default 8)
#   --flavour F   kernel flavour (default $S5P_FLAVOUR or "default")
#   --timeout S   give up after S seconds (default 3600)
#   --log FILE    keep the guest's console log
#
# Prints the guest's TAP lines and cma-stress's report, then the wall time;
# exits with the guest's status (0: every check passed).
set -u
. "$(dirname "$0")/lib/common.sh"

# The board's default regions and map (kernel-patches: ARM: s5pv210: add CMA
# defaults), plus sbf, sff and sbm at fixed places in bank 1, for st/<kind>.
STRESS_CMA="cam=8M@0x4f000000;codec-a=8M@0x4f800000;codec-b=8M@0x57800000;codec-fw=1M/128K"
STRESS_CMA+=";sbf=8M@0x44000000;sff=8M@0x44800000:ff;sbm=8M@0x45000000:bitmap"
STRESS_MAP="f1700000.video-codec/a,s5p-codec*/a=codec-a;f1700000.video-codec/b,s5p-codec*/b=codec-b"
STRESS_MAP+=";f1700000.video-codec/fw,s5p-codec*/fw=codec-fw;fb200000.camera/*,s5p-cam*/*=cam"
STRESS_MAP+=";st/bf=sbf;st/ff=sff;st/bm=sbm;st/any=sbm,sff,sbf"
STRESS_APPEND="cma=$STRESS_CMA cma_map=$STRESS_MAP"

ops=1000000 seed='' procs=4 kills=8 checks=8 timeout=3600 log='' extra=()
num() { [[ $2 =~ ^[0-9]+$ ]] || s5p_die "$1 takes a number, not '$2' (try --help)"; }
while [ $# -gt 0 ]; do
	case "$1" in
	--ops) num "$1" "${2:-}"; ops=$2; shift ;;
	--seed) num "$1" "${2:-}"; seed=$2; shift ;;
	--procs) num "$1" "${2:-}"; procs=$2; shift ;;
	--kills) num "$1" "${2:-}"; kills=$2; shift ;;
	--checks) num "$1" "${2:-}"; checks=$2; shift ;;
	--timeout) num "$1" "${2:-}"; timeout=$2; shift ;;
	--flavour) [ $# -ge 2 ] || s5p_die "--flavour needs a name"; export S5P_FLAVOUR=$2; shift ;;
	--log) [ $# -ge 2 ] || s5p_die "--log needs a file name"; log=$2; shift ;;
	--) shift; extra=("$@"); break ;;
	-h | --help) sed -n '2,/^[^#]/p' "$0" | sed -n 's/^# \{0,1\}//p'; exit 0 ;;
	*) s5p_die "unknown option '$1' (try --help)" ;;
	esac
	shift
done
[ -n "$seed" ] || seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
s5p_log "host: $(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n1), $(date -u '+%Y-%m-%d %H:%M UTC')"
s5p_log "cma-stress: seed $seed, $ops operations, $procs processes, $kills killed, $checks checks, ${S5P_FLAVOUR:-default} kernel"
t0=$(date +%s.%N)
"$S5P_TOP/scripts/boot-goni.sh" --append "$STRESS_APPEND" --timeout "$timeout" ${log:+--log "$log"} \
	--cmd "/tests/stress.sh $seed $ops $procs $kills $checks ${extra[*]}"
rc=$?
s5p_log "wall time $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s, status $rc (replay: $0 --seed $seed --ops $ops --procs $procs --kills $kills --checks $checks)"
exit $rc
