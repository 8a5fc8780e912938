#!/usr/bin/env bash
# Boot-to-shell time of each board: wall time of 'scripts/boot-BOARD.sh
# --cmd true' (QEMU start, kernel boot, /init, the command, power-off), five
# runs each, median printed.  Builds first so that no run includes a build.
#
#   scripts/bench-boot.sh [RUNS]      (default 5)
set -u
. "$(dirname "$0")/lib/common.sh"
case ${1:-} in -h | --help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
runs=${1:-5}
[[ $runs =~ ^[1-9][0-9]*$ ]] || s5p_die "RUNS must be a positive number"
for board in goni aquila; do
	"$S5P_TOP/scripts/boot-$board.sh" --build-only >/dev/null 2>&1 ||
		s5p_die "building for $board failed; run scripts/boot-$board.sh --build-only to see why"
	times=()
	for _ in $(seq "$runs"); do
		t0=$(date +%s.%N)
		"$S5P_TOP/scripts/boot-$board.sh" --cmd true >/dev/null 2>&1 ||
			s5p_die "boot of $board failed"
		times+=("$(echo "$(date +%s.%N) - $t0" | bc)")
	done
	median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
	printf '%-7s median %.2f s over %d runs (%s)\n' "$board" "$median" "$runs" \
		"$(printf '%.2f ' "${times[@]}")"
done
