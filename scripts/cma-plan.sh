#!/usr/bin/env bash
# The smallest regions and map serving every request of a recorded
# allocation trace (cma-test -r, bench/traces/), found by replaying it on
# the host through the kernel's own allocator code (tools/platform's
# cma-plan; docs/cma.md, "From a trace to a board's regions"):
#
#   scripts/cma-plan.sh [--allocator NAME] [--per-kind] [--quiet] TRACE
#
# Prints the peak live bytes of each region's requests (the lower bound),
# the region sizes and their overhead, the cma= and cma_map= strings to
# boot with (scripts/boot-goni.sh --append "cma=... cma_map=...") and the
# same as a device tree fragment.  Built like scripts/cma-explain.sh.
set -u
. "$(dirname "$0")/lib/common.sh"
. "$S5P_TOP/scripts/lib/kernel.sh"

case "${1:-}" in -h | --help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
s5p_kernel_source >/dev/null
# One build directory per checkout and kernel tree (as scripts/cma-explain.sh).
bin=$S5P_CACHE/host-build/platform-$(printf '%s' "$S5P_TOP:$KSRC" | sha256sum | cut -c1-12)
mkdir -p "$bin"
make -s -C "$S5P_TOP/tools/platform" KSRC="$KSRC" O="$bin" >"$bin.log" 2>&1 ||
	{ tail -n 20 "$bin.log" >&2; s5p_die "building tools/platform failed"; }
exec "$bin/cma-plan" "$@"
