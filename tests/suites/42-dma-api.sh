#!/usr/bin/env bash
# s5p-flavours: default debug
# s5p-qemu: plain (the kernel's CMA, whose sanitizers are the debug pass's; QEMU's devices run under ASan in the device suites and the qtests)
# s5p-debug-scenarios: goni:placed goni:kinds
# The DMA API on CMA regions (kernel patches "mm: cma: the DMA API
# allocates from a device's cma_map= regions", "dma-direct: no fallback
# ...", "ARM: dma-mapping: coherent buffers from CMA regions";
# docs/cma.md, "The DMA API"): vivid, unmodified, on videobuf2-dma-contig,
# placed by cma_map= alone.  Three Goni boots run tests/guest/dma-api.sh;
# on the debug kernel "placed" (without v4l2-compliance) and "kinds".
# "kinds": the camera's per-kind children under a catch-all rule
# (cma_map=fb200000.camera/y=cam;*=cb): kind "y" still goes to cam.
. "$(dirname "$0")/../lib/tap.sh"
t_plan 32 debug=23

for scenario in placed optout kinds; do
	regions="vivid=24M"
	case $scenario in
	placed) map="vivid.0=vivid" ;;
	optout) map="vivid.0=;vivid*=vivid" ;;
	kinds) regions="cam=8M;cb=8M;vivid=8M" map="fb200000.camera/y=cam;*=cb" ;;
	esac
	t_wanted goni "$scenario" || continue
	t_guest_boot goni dma-api.sh "$scenario" "cma=$regions cma_map=$map"
	t_guest_end goni "$scenario"
done
t_done
