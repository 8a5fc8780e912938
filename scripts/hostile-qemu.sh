#!/usr/bin/env bash
# Long runs of the hostile-programming qtest (tests/qtest/s5pv210-hostile-test
# from qemu-patches/) against the sanitizer QEMU: seeded random register
# programming of every S5PV210 device, each sequence followed by a machine
# reset and a known-good job (docs/qemu.md).
#
#   scripts/hostile-qemu.sh [--seqs N] [--seconds S] [--seed N] [--ops N]
#                           [--device NAME] [--plain]
#
#   --seqs N      sequences per device (default 10000)
#   --seconds S   stop each device after S seconds (default: no limit)
#   --seed N      seed of the first sequence (default 1); sequence i uses N+i
#   --ops N       register operations per sequence (default 64)
#   --device D    only D: clk gpio pwm vic uart camera codec
#   --plain       use the plain QEMU build instead of the asan one
#
# Prints, per device, the sequences run and the time taken; a failing
# sequence prints its device and seed and how to replay it.  The exit status
# is non-zero on any failure or sanitizer report.
set -u
. "$(dirname "$0")/lib/common.sh"

seqs=10000 seconds='' seed=1 ops=64 device=''
export S5P_QEMU_FLAVOUR=${S5P_QEMU_FLAVOUR:-asan}
while [ $# -gt 0 ]; do
	case "$1" in
	--seqs) seqs=${2:?}; shift ;;
	--seconds) seconds=${2:?}; shift ;;
	--seed) seed=${2:?}; shift ;;
	--ops) ops=${2:?}; shift ;;
	--device) device=${2:?}; shift ;;
	--plain) S5P_QEMU_FLAVOUR=plain ;;
	-h | --help) sed -n '2,/^[^#]/p' "$0" | sed -n 's/^# \{0,1\}//p'; exit 0 ;;
	*) s5p_die "unknown option '$1' (--help lists them)" ;;
	esac
	shift
done
for v in "$seqs" "$seed" "$ops" ${seconds:+"$seconds"}; do
	[[ $v =~ ^[0-9]+$ ]] || s5p_die "not a number: '$v'"
done
case "$device" in
"" | clk | gpio | pwm | vic | uart | camera | codec) ;;
*) s5p_die "unknown device '$device' (clk gpio pwm vic uart camera codec)" ;;
esac

. "$S5P_TOP/scripts/lib/qemu.sh"
s5p_qemu_build tests >&2
[ -x "$QBUILD/tests/qtest/s5pv210-hostile-test" ] ||
	s5p_die "$QBUILD/tests/qtest/s5pv210-hostile-test was not built (is the series older than the hostile test?)"

s5p_log "hostile runs: ${device:-every device}, $seqs sequences${seconds:+ or $seconds s} per device, $ops operations each, seeds from $seed, $S5P_QEMU_FLAVOUR QEMU"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
cd "$tmp" || exit 1
S5P_HOSTILE_SEQS=$seqs S5P_HOSTILE_SECONDS=$seconds S5P_HOSTILE_SEED=$seed \
	S5P_HOSTILE_OPS=$ops S5P_HOSTILE_DEVICE=$device \
	s5p_qemu_qtest s5pv210-hostile-test $((seconds ? 8 * seconds + 600 : 86400)) | tee "$tmp/out"
rc=${PIPESTATUS[0]}
s5p_log "done in $(($(date +%s) - start)) s:"
grep -E '^# hostile [a-z]+: ' "$tmp/out" | sed 's/^# /    /' >&2
if [ "$rc" != 0 ]; then
	grep -E '^# (hostile: |replay: )' "$tmp/out" | sed 's/^# /    /' >&2
	s5p_die "the hostile run failed (status $rc)"
fi
