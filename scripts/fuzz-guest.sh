#!/usr/bin/env bash
# Guest fuzzing run (docs/fuzzing-guest.md): boots Goni with the board's
# defaults and runs the seeded ioctl/mmap fuzzer s5p-fuzz (tools/fuzz) on
# /dev/cma, the camera, the codec and its media node from several
# processes, some killed with SIGKILL; then checks that the kernel log has
# no report, the CMA statistics are back at their starting values, nothing
# is lost, and the camera and the codec still work (tests/guest/fuzz.sh).
#
#   scripts/fuzz-guest.sh [--ops N] [--seed N] [--procs N] [--kills N]
#                         [--flavour NAME] [--timeout S] [--log FILE]
#
#   --ops N       operations in all (default 100000)
#   --seed N      the seed (default: a random one, printed)
#   --procs N     worker processes (default 4)
#   --kills N     workers killed with SIGKILL (default 16)
#   --flavour F   kernel flavour (default $S5P_FLAVOUR or "default")
#   --timeout S   give up after S seconds (default 3600)
#   --log FILE    keep the guest's console log
#
# Prints the guest's TAP lines and the fuzzer's report, then the wall time;
# exits with the guest's status (0: every check passed).
set -u
. "$(dirname "$0")/lib/common.sh"

ops=100000 seed='' procs=4 kills=16 timeout=3600 log=''
num() { [[ $2 =~ ^[0-9]+$ ]] || s5p_die "$1 takes a number, not '$2' (try --help)"; }
while [ $# -gt 0 ]; do
	case "$1" in
	--ops) num "$1" "${2:-}"; ops=$2; shift ;;
	--seed) num "$1" "${2:-}"; seed=$2; shift ;;
	--procs) num "$1" "${2:-}"; procs=$2; shift ;;
	--kills) num "$1" "${2:-}"; kills=$2; shift ;;
	--timeout) num "$1" "${2:-}"; timeout=$2; shift ;;
	--flavour) [ $# -ge 2 ] || s5p_die "--flavour needs a name"; export S5P_FLAVOUR=$2; shift ;;
	--log) [ $# -ge 2 ] || s5p_die "--log needs a file name"; log=$2; shift ;;
	-h | --help) sed -n '2,/^[^#]/p' "$0" | sed -n 's/^# \{0,1\}//p'; exit 0 ;;
	*) s5p_die "unknown option '$1' (try --help)" ;;
	esac
	shift
done
[ -n "$seed" ] || seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
s5p_log "host: $(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n1), $(date -u '+%Y-%m-%d %H:%M UTC')"
s5p_log "s5p-fuzz: seed $seed, $ops operations, $procs processes, $kills killed, ${S5P_FLAVOUR:-default} kernel"
t0=$(date +%s.%N)
"$S5P_TOP/scripts/boot-goni.sh" --timeout "$timeout" ${log:+--log "$log"} \
	--cmd "/tests/fuzz.sh $seed $ops $procs $kills"
rc=$?
s5p_log "wall time $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s, status $rc (replay: $0 --seed $seed --ops $ops --procs $procs --kills $kills)"
exit $rc
