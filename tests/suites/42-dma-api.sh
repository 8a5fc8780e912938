#!/usr/bin/env bash
# s5p-flavours: default debug
# s5p-debug-scenarios: goni:placed
# The DMA API on CMA regions (kernel patches "mm: cma: the DMA API
# allocates from a device's cma_map= regions", "dma-direct: no fallback
# ...", "ARM: dma-mapping: coherent buffers from CMA regions";
# docs/cma.md, "The DMA API"): vivid, unmodified, on videobuf2-dma-contig,
# placed by cma_map= alone.  Two Goni boots run tests/guest/dma-api.sh;
# on the debug kernel the "placed" one, without v4l2-compliance.
. "$(dirname "$0")/../lib/tap.sh"
t_plan 24 debug=15

for scenario in placed optout; do
	case $scenario in
	placed) map="vivid.0=vivid" ;;
	optout) map="vivid.0=;vivid*=vivid" ;;
	esac
	t_wanted goni "$scenario" || continue
	t_guest_boot goni dma-api.sh "$scenario" "cma=vivid=24M cma_map=$map"
	t_guest_end goni "$scenario"
done
t_done
