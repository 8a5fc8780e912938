#!/usr/bin/env bash
# s5p-flavours: default debug
# s5p-qemu: plain (the kernel's CMA, whose sanitizers are the debug pass's; QEMU's devices run under ASan in the device suites and the qtests)
# s5p-shared-boot: debug goni dma-heap.sh main
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
# About 20 s on the default kernel (ASan QEMU).
. "$(dirname "$0")/../lib/tap.sh"
t_plan 46 debug=39

check=$S5P_TOP/scripts/lib/codec_check.py

# The tool itself: warnings are errors here (tools/heap/Makefile builds it
# into the initramfs with the same flags).
cp -a "$S5P_TOP/tools/heap" "$T_TMP/heap" && rm -rf "$T_TMP/heap/build"
t_check "tools/heap (cma-heap) builds natively without warnings" \
	bash -c "make -C '$T_TMP/heap' >'$T_TMP/heap.log' 2>&1 && ! grep -i warning '$T_TMP/heap.log' ||
		{ cat '$T_TMP/heap.log'; false; }"

for scenario in main param; do
	case $scenario in
	main) append= ;;
	param) append="cma_heaps=cam,nosuch" ;;
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
