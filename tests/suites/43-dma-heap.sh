#!/usr/bin/env bash
# s5p-flavours: default debug
# s5p-qemu: plain (the kernel's CMA, whose sanitizers are the debug pass's; QEMU's devices run under ASan in the device suites and the qtests)
# s5p-shared-boot: debug goni dma-heap.sh main
# s5p-debug-scenarios: goni:areas goni:selftest
# The dma-buf heaps of the CMA regions (kernel patch "dma-buf: heaps: a
# heap per CMA region"; docs/cma.md "dma-buf heaps"), through cma-heap
# (tools/heap).  Two Goni boots run tests/guest/dma-heap.sh:
#   main    the board's regions, those it offers (linux,cma-heap) heaps,
#           not codec-fw: buffers as chunks,
#           a killed holder, a camera frame encoded by the codec from a
#           heap buffer (V4L2_MEMORY_DMABUF), close while imported, a
#           buffer outside the codec's port refused, bad input; the JPEG
#           comes back and is decoded here and compared with the camera's
#           pattern (codec_check.py, PSNR >= 30 dB)
#   param   cma_heaps=cam,nosuch (not on the debug kernel: a boot
#           parameter's parsing, no buffer path)
#   areas   cma=16M: Linux 6.1's default CMA area beside the board's
#           regions, which are CMA areas too (kernel patches "mm: cma:
#           regions beside CONFIG_CMA" and after): both in sysfs, debugfs
#           and the areas' trace events, a capture counted in cam's
#           alloc_pages_success, the default area's heap
#   selftest cma=40M cma=heap=40M cma_map= cma_heaps=heap: the camera,
#           with no rule, captures into the default area as without
#           regions; the kernel's own tools/testing/selftests/dmabuf-heaps
#           passes on the default area's heap and the region's
# About 20 s on the default kernel (ASan QEMU).
set -u
. "$(dirname "$0")/../lib/tap.sh"
t_plan 63 debug=56

check=$S5P_TOP/scripts/lib/codec_check.py

# The tool itself: warnings are errors here (tools/heap/Makefile builds it
# into the initramfs with the same flags).
cp -a "$S5P_TOP/tools/heap" "$T_TMP/heap" && rm -rf "$T_TMP/heap/build"
t_check "tools/heap (cma-heap) builds natively without warnings" \
	bash -c "make -C '$T_TMP/heap' >'$T_TMP/heap.log' 2>&1 && ! grep -i warning '$T_TMP/heap.log' ||
		{ cat '$T_TMP/heap.log'; false; }"

for scenario in main param areas selftest; do
	case $scenario in
	main) append= ;;
	param) append="cma_heaps=cam,nosuch" ;;
	areas) append="cma=16M" ;;
	selftest) append="cma=40M cma=heap=40M cma_map= cma_heaps=heap" ;;
	esac
	t_wanted goni "$scenario" || continue
	t_guest_boot goni dma-heap.sh "$scenario" "$append"
	if [ "$scenario" = main ]; then
		if grep -q '^BEGIN-FILE MJPEG ' "$T_OUT"; then
			t_relay_cmd "goni main: heap buffer encode: " python3 "$check" check <"$T_OUT"
		else
			t_fail "goni main: no JPEG came back from the heap buffer encode"
		fi
	fi
	t_guest_end goni "$scenario"
done
t_done
