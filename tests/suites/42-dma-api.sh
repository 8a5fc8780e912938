#!/usr/bin/env bash
# s5p-flavours: default debug
# s5p-qemu: plain (the kernel's CMA, whose sanitizers are the debug pass's; QEMU's devices run under ASan in the device suites and the qtests)
# s5p-debug-scenarios: goni:placed goni:kinds
# The DMA API on CMA regions (kernel patches "mm: cma: the DMA API
# allocates from a device's cma_map= regions", "dma-direct: no fallback
# ...", "ARM: dma-mapping: coherent buffers from CMA regions";
# docs/cma.md, "The DMA API"): vivid, unmodified, on videobuf2-dma-contig,
# placed by cma_map= alone.  Three Goni boots run tests/guest/dma-api.sh;
# on the debug kernel "placed" (without v4l2-compliance) and "kinds", as two
# parts of one boot.
# "kinds": the camera's per-kind children under a catch-all rule
# (cma_map=fb200000.camera/y=cam;*=cb): kind "y" still goes to cam.
set -u
. "$(dirname "$0")/../lib/tap.sh"
t_plan 33 debug=28

# On the debug kernel "placed" and "kinds" are two parts of one boot
# (tests/lib/shared-boot.sh --append: a debug boot costs about 45 s around
# its command) whose command line holds both scenarios' regions and rules:
# vivid.0's own rule comes before the catch-all, so "placed" sees what it
# sees alone.  The boot's own checks (every part ran, its end, no report
# outside the parts, kmemleak's count) come first.
# (LAVA's job writer records each scenario's boot on its own: S5P_BOOT_RECORD)
if [ "${S5P_FLAVOUR:-default}" != default ] && [ -z "${S5P_BOOT_RECORD:-}" ]; then
	T_PARTS_APPEND="cma=vivid=24M;cam=8M;cb=8M cma_map=vivid.0=vivid;fb200000.camera/y=cam;*=cb"
	export S5P_SHARED_BOOT=$T_TMP/parts
	S5P_TEST_LOGDIR=$T_TMP/shared-boot.files \
		"$S5P_TOP/tests/lib/shared-boot.sh" goni "$S5P_SHARED_BOOT" --append "$T_PARTS_APPEND" \
		42-dma-api:dma-api.sh:placed 42-dma-api:dma-api.sh:kinds >"$T_TMP/shared-boot.out" 2>&1
	# (its checks, not its plan and end lines: this suite's own count)
	t_relay "" < <(sed '/^# s5p-\(plan\|done\)/d' "$T_TMP/shared-boot.out")
fi

for scenario in placed optout kinds; do
	regions="vivid=24M"
	case $scenario in
	placed) map="vivid.0=vivid" ;;
	optout) map="vivid.0=;vivid*=vivid" ;;
	kinds) regions="cam=8M;cb=8M;vivid=8M" map="fb200000.camera/y=cam;*=cb" ;;
	esac
	t_wanted goni "$scenario" || continue
	[ -z "${T_PARTS_APPEND:-}" ] || regions=${T_PARTS_APPEND%% cma_map=*} map=${T_PARTS_APPEND#* cma_map=}
	regions=${regions#cma=}
	t_guest_boot goni dma-api.sh "$scenario" "cma=$regions cma_map=$map"
	t_guest_end goni "$scenario"
done
t_done
