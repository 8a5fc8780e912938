# Sourced by scripts/bench-movable.sh and scripts/bench-claims.sh: the
# regions each trace of bench/traces is replayed on, and the rows KERNEL@R.
# shellcheck shell=bash

# The traces' regions rounded up to whole 4 MiB pageblocks (and aligned to
# them), so that each can be movable; the firmware's 1 MiB stays static.
trace_cma() {
	case $1 in
	media) echo "cam=24M/4M;codec-a=12M/4M;codec-b=8M/4M;codec-fw=1M/128K" ;;
	random) echo "r=84M/4M" ;;
	esac
}
# The trace's regions in cma= order, comma-separated (cma-bench's rule).
trace_regions() {
	trace_cma "$1" | tr ';' '\n' | sed 's/=.*//' | paste -sd, -
}
# The same cma= with each region's allocator told "blind".
trace_cma_blind() {
	trace_cma "$1" | sed 's/\(;\|$\)/:bf(blind)\1/g'
}
trace_area_mib() {
	case $1 in
	media) echo 45 ;;
	random) echo 84 ;;
	esac
}
# row_ratio ROW: what a --rows entry KERNEL@R adds to the kernel's command
# line (" sysctl.vm.cma_first_ratio=R", after the board's), nothing for
# KERNEL; dies on an R that is not a percentage (call it outside $(...)
# first for that).
row_ratio() {
	[ "$1" != "${1%@*}" ] || return 0
	[[ ${1#*@} =~ ^([0-9]|[1-9][0-9]|100)$ ]] ||
		s5p_die "--rows: '$1': the ratio after @ is a percentage, 0 to 100"
	printf ' sysctl.vm.cma_first_ratio=%s' "${1#*@}"
}
