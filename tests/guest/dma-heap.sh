#!/bin/sh
# The dma-buf heaps of the CMA regions (kernel patch "dma-buf: heaps: a
# heap per CMA region", docs/cma.md "dma-buf heaps"), driven by cma-heap
# (tools/heap).  tests/suites/43-dma-heap.sh boots Goni and runs
#   dma-heap.sh main    the board's regions, those it offers (linux,cma-heap)
#                       heaps, not codec-fw: the heaps and their
#                       log, buffers as chunks owned by dma-heap/cma-heap,
#                       a process killed while holding buffers, a camera
#                       frame encoded by the codec from a heap buffer
#                       (V4L2_MEMORY_DMABUF; the JPEG goes to the host),
#                       the buffer's fd closed while the codec holds it, a
#                       buffer outside port A refused, and bad input
#   dma-heap.sh param   cma_heaps=cam,nosuch: only cam is a heap, one
#                       error line for nosuch
#   dma-heap.sh areas   cma=16M: 6.1's default area beside the regions,
#                       which are CMA areas: sysfs, debugfs, trace events
#                       and counters of both, the default area's heap, and
#                       its heap
#   dma-heap.sh selftest cma=40M cma=heap=40M cma_map= cma_heaps=heap: the
#                       camera with no rule captures into the default
#                       area; the kernel's dmabuf-heaps selftest on both
# shellcheck source=lib.sh
set -u
. /tests/lib.sh
# shellcheck source=camera-lib.sh
. /tests/camera-lib.sh
# shellcheck source=codec-lib.sh
. /tests/codec-lib.sh
# shellcheck source=cma-lib.sh
. /tests/cma-lib.sh

scenario=${1:-main}
HEAPS=/dev/dma_heap
# shellcheck disable=SC2012 # (the heaps' names: the regions')
heaps() { ls "$HEAPS" 2>/dev/null | sort | tr '\n' ' ' | sed 's/ $//'; }
heap_chunks() { grep -c ' owner=dma-heap' "$CMA_DEBUGFS/chunks"; }

case "$scenario" in
main)
	# (the regions whose device tree node says linux,cma-heap: the
	# firmware's is the codec's alone)
	check_eq "heap: the regions the board offers are the heaps in $HEAPS, not codec-fw" \
		"cam codec-a codec-b" "$(heaps)"
	check "heap: the boot log names each heap and the count, from the device tree" \
		sh -c "klog() { dmesg | sed 's/^\[[ 0-9.]*\] //'; }; klog | grep -qx \"cma-heap: region codec-a: /dev/dma_heap/codec-a, \$((\$(cat /sys/kernel/mm/cma/codec-a/size) / 1024)) KiB\" &&
			klog | grep -qx 'cma-heap: 3 heaps (cma_heaps=cam,codec-a,codec-b) (device tree)'"
	cma-heap list >/tmp/list 2>&1
	sed 's/^/# /' /tmp/list
	cam=$(cat /sys/kernel/mm/cma/cam/size)	# (the board's: 24 MiB)
	check "heap: cma-heap list shows each heap with its region" \
		grep -qx "cam: /dev/dma_heap/cam region size=$cam used=0 free=$cam largest_free=$cam" /tmp/list

	# ---- buffers are chunks; a killed holder loses nothing ----
	ok0=$(cma_stat codec-a alloc_ok)
	cma-heap hold codec-a 1M 3 >/tmp/hold 2>&1 &
	pid=$!
	i=0
	while [ $i -lt 300 ] && ! grep -q '^held 3$' /tmp/hold; do sleep 0.1; i=$((i + 1)); done
	grep 'owner=dma-heap' "$CMA_DEBUGFS/chunks" >/tmp/chunks
	sed 's/^/# /' /tmp/chunks
	n=$(grep -c 'size=0x00100000 region=codec-a refs=1 owner=dma-heap/cma-heap$' /tmp/chunks)
	check_eq "heap: 3 buffers of 1 MiB held are 3 chunks of codec-a owned by dma-heap/cma-heap" 3 "$n"
	bad=0
	# shellcheck disable=SC2013 # (one word a line: an address)
	for s in $(sed -n 's/^\(0x[0-9a-f]*\): .*/\1/p' /tmp/chunks); do
		[ $((s % 1048576)) = 0 ] || bad=$((bad + 1))
	done
	check_eq "heap: ... each aligned to 1 MiB" 0 "$bad"
	check_eq "heap: ... counted in codec-a's alloc_ok" $((ok0 + 3)) "$(cma_stat codec-a alloc_ok)"
	kill -KILL $pid
	wait $pid 2>/dev/null
	check_eq "heap: the holder killed, its buffers are back" 0 "$(heap_chunks)"
	cma_nothing_lost "heap: nothing lost after the holder was killed"
	# the kind is the task's name, made one word: "x y+z" -> x_y_z
	cp /usr/bin/cma-heap "/tmp/x y+z"
	"/tmp/x y+z" hold codec-a 4K 1 >/tmp/hold2 2>&1 &
	pid=$!
	i=0
	while [ $i -lt 300 ] && ! grep -q '^held 1$' /tmp/hold2; do sleep 0.1; i=$((i + 1)); done
	n=$(grep -c 'size=0x00001000 region=codec-a refs=1 owner=dma-heap/x_y_z$' "$CMA_DEBUGFS/chunks")
	kill -KILL $pid
	wait $pid 2>/dev/null
	rm -f "/tmp/x y+z"
	check_eq "heap: a buffer of a process named 'x y+z' is owned by dma-heap/x_y_z" 1 "$n"

	# ---- a camera frame, in a heap buffer, encoded by the codec ----
	CAM=$(cam_node)
	CODEC=$(codec_node)
	if grab YUYV 640 480 1 /tmp/raw; then
		cma-heap encode codec-a "$CODEC" YUYV 640 480 /tmp/heap.jpg /tmp/raw >/tmp/enc 2>&1
		rc=$?
		sed 's/^/# /' /tmp/enc
		size=$(stat -c %s /tmp/heap.jpg 2>/dev/null || echo 0)
		check "heap: a camera frame (YUYV 640x480) in a codec-a heap buffer, imported as DMABUF, encoded to one JPEG ($size bytes)" \
			[ $rc = 0 -a "$size" -gt 1000 ]
		check "heap: ... the JPEG runs from SOI to EOI and the buffer went back" \
			grep -q "^encode: YUYV 640x480 from heap codec-a -> $size bytes of JPEG (SOI to EOI)" /tmp/enc
		check "heap: ... read back by the CPU (DMA_BUF_IOCTL_SYNC) while the codec still has it mapped: the same picture" \
			grep -qx 'encode: read back while the codec has the buffer mapped: sync ok, same picture' /tmp/enc
		check "heap: ... no heap chunk held once the codec and the buffer are closed" \
			grep -qx 'encode: codec and buffer closed; heap chunks held: 0' /tmp/enc
		emit MJPEG /tmp/heap.jpg YUYV 640 480 "$SEQS" "$size" 0
	else
		not_ok "heap: capture one YUYV 640x480 camera frame to encode"
		tail -n 5 /tmp/grab.log | sed 's/^/# /'
	fi
	rm -f /tmp/raw /tmp/heap.jpg

	# the buffer's fd closed once queued: the codec's attachment keeps it
	cma-heap encode codec-a "$CODEC" NV12 320 240 /tmp/heap2.jpg --close >/tmp/enc2 2>&1
	rc=$?
	sed 's/^/# /' /tmp/enc2
	check "heap: the test picture (NV12 320x240), its fd closed after QBUF: the chunk stays while the codec holds it, then goes" \
		sh -c "[ $rc = 0 ] && grep -qx 'encode: buffer fd closed after QBUF; heap chunks held: 1' /tmp/enc2 &&
			grep -q '^encode: NV12 320x240 from heap codec-a -> [0-9]* bytes of JPEG (SOI to EOI)' /tmp/enc2 &&
			grep -qx 'encode: codec and buffer closed; heap chunks held: 0' /tmp/enc2"
	rm -f /tmp/heap2.jpg

	# codec-b (bank 2) is outside the 128 MiB window of port A (bank 1)
	cma-heap encode codec-b "$CODEC" YUYV 320 240 /tmp/heap3.jpg >/tmp/enc3 2>&1
	rc=$?
	sed 's/^/# /' /tmp/enc3
	check "heap: a codec-b buffer (outside port A's window) is refused at QBUF with EINVAL" \
		sh -c "[ $rc = 1 ] && grep -q '^cma-heap: encode: QBUF output (the heap buffer): Invalid argument (EINVAL)' /tmp/enc3"
	cma_nothing_lost "heap: nothing lost after the encodes"

	# ---- bad input, on region cam (empty: the camera is not streaming) ----
	free=$(cma_stat cam free) f0=$(cma_stat cam alloc_fail)
	cma-heap bad cam >/tmp/bad 2>&1
	sed 's/^/# /' /tmp/bad
	for l in "zero size: errno EINVAL" \
		"larger than the region: errno ENOMEM" \
		"4 GiB + 1 page: errno EINVAL" \
		"fd_flags O_NONBLOCK: errno EINVAL" \
		"heap_flags 1: errno EINVAL" \
		"fd field not 0: errno EINVAL" \
		"mmap MAP_PRIVATE: errno EINVAL" \
		"mmap 2 pages of a 1-page buffer: errno EINVAL" \
		"mmap at offset 1 page of a 1-page buffer: errno EINVAL" \
		"close while mapped: ok (written and read back: same; heap chunks held: 1)" \
		"unmapped: ok (heap chunks held: 0)" \
		"new buffer: ok (zeroed)" \
		"heap full: $((free / 1048576)) buffers of 1 MiB, then errno ENOMEM" \
		"one page more: errno ENOMEM" \
		"all closed: ok (heap chunks held: 0)"; do
		check "heap: bad input: $l" grep -qxF "$l" /tmp/bad
	done
	check_eq "heap: ... region cam counted the 3 failures (too big, full, one page more)" \
		$((f0 + 3)) "$(cma_stat cam alloc_fail)"
	cma-heap alloc cam 32M >/tmp/a1 2>&1
	rc=$?
	check "heap: cma-heap alloc cam 32M (more than the region) fails (status 1) and says why" \
		sh -c "[ $rc = 1 ] && grep -q 'alloc 33554432 bytes from cam: Cannot allocate memory (ENOMEM): the region has no free block that large' /tmp/a1"
	cma-heap alloc nosuch 1M >/tmp/a2 2>&1
	rc=$?
	check "heap: cma-heap alloc from a heap that does not exist: status 1, ENOENT" \
		sh -c "[ $rc = 1 ] && grep -q 'cannot open /dev/dma_heap/nosuch: No such file or directory (ENOENT)' /tmp/a2"
	cma_nothing_lost "heap: nothing lost after the bad input"
	;;
param)
	check_eq "heap: cma_heaps=cam,nosuch: only cam is a heap" "cam" "$(heaps)"
	check "heap: ... one error line for nosuch, and the count" \
		sh -c "klog() { dmesg | sed 's/^\[[ 0-9.]*\] //'; }; klog | grep -qx 'cma-heap: error: cma_heaps=cam,nosuch: no region nosuch serves requests; skipped' &&
			klog | grep -qx 'cma-heap: 1 heaps (cma_heaps=cam,nosuch)' && [ \$(klog | grep -c '^cma-heap: error:') = 1 ]"
	cma-heap alloc codec-a 1M >/tmp/a 2>&1
	check "heap: ... codec-a, not named, has no heap (ENOENT)" grep -q 'ENOENT' /tmp/a
	check "heap: ... cam allocates" cma-heap alloc cam 1M
	cma_nothing_lost "heap: nothing lost (cma_heaps=)"
	;;
areas)
	# cma=16M beside the board's regions: Linux 6.1's default CMA area
	# and the regions, which are CMA areas too, in one kernel.
	klog() { dmesg | sed 's/^\[[ 0-9.]*\] //'; }
	check "areas: cma=16M reserves the default area" \
		sh -c "dmesg | grep -q 'cma: Reserved 16 MiB at '"
	check_eq "areas: /sys/kernel/mm/cma lists the default area and every region" \
		"cam codec-a codec-b codec-fw reserved" \
		"$(cd "$CMA_SYSFS" && echo *)"
	check "areas: each region's directory has the areas' counters beside its statistics" \
		sh -c "for r in cam codec-a codec-b codec-fw; do
			for f in alloc_pages_success alloc_pages_fail used chunks alloc_ok movable; do
				[ -r $CMA_SYSFS/\$r/\$f ] || { echo \"# no \$r/\$f\"; exit 1; }
			done
		done"
	check "areas: /sys/kernel/debug/cma has each area's directory and the regions' views" \
		sh -c "for d in reserved cam codec-a codec-b codec-fw; do [ -r $CMA_DEBUGFS/\$d/used ] || exit 1; done &&
			[ -r $CMA_DEBUGFS/chunks ] && [ -r $CMA_DEBUGFS/map ]"
	check_eq "areas: the heaps are the default area's and the regions the board offers" \
		"cam codec-a codec-b reserved" "$(heaps)"

	# A capture's buffers come from cam, as cma_alloc() on its area would
	# count them; the areas' trace events name the region.
	tr=/sys/kernel/tracing
	[ -d "$tr/events" ] || mount -t tracefs nodev "$tr" 2>/dev/null
	echo 1 >"$tr/events/cma/enable"
	echo >"$tr/trace"
	s0=$(cma_stat cam alloc_pages_success)
	CAM=$(cam_node)
	v4l2-ctl -d "$CAM" --set-fmt-video=width=640,height=480 \
		--stream-mmap --stream-count=2 --stream-to=/dev/null >/tmp/cap 2>&1
	s1=$(cma_stat cam alloc_pages_success)
	echo 0 >"$tr/events/cma/enable"
	cat "$tr/trace" >/tmp/trace
	grep 'cma_' /tmp/trace | head -n 6 | sed 's/^/# /'
	check "areas: a camera capture raises cam's alloc_pages_success ($s0 -> $s1)" \
		[ "${s1:-0}" -gt "${s0:-0}" ]
	check "areas: ... with the areas' cma_alloc_start, cma_alloc_finish and cma_release events for cam" \
		sh -c "grep -q 'cma_alloc_start: name=cam ' /tmp/trace &&
			grep -q 'cma_alloc_finish: name=cam pfn=0x' /tmp/trace &&
			grep -q 'cma_release: name=cam pfn=0x' /tmp/trace"

	# The default area serves what no cma_map= rule names: its heap
	check "areas: the default area's heap hands out a buffer" \
		sh -c "s0=\$(cat $CMA_SYSFS/reserved/alloc_pages_success) && cma-heap alloc reserved 1M &&
			[ \$(cat $CMA_SYSFS/reserved/alloc_pages_success) -gt \$s0 ]"

	cma_nothing_lost "areas: nothing lost"
	;;
selftest)
	# cma=40M cma=heap=40M cma_map= cma_heaps=heap: a default area and a
	# region big enough for the kernel's dmabuf-heaps selftest (32
	# buffers of 1 MiB a heap), and no map rule.
	check_eq "selftest: the heaps are the default area's and region heap's" \
		"heap reserved" "$(heaps)"
	s0=$(cma_stat reserved alloc_pages_success)
	h0=$(cma_stat heap alloc_pages_success)
	CAM=$(cam_node)
	v4l2-ctl -d "$CAM" --set-fmt-video=width=640,height=480 \
		--stream-mmap --stream-count=2 --stream-to=/dev/null >/tmp/cap 2>&1
	s1=$(cma_stat reserved alloc_pages_success)
	check "selftest: the camera, which no cma_map= rule names, captures into the default area ($s0 -> $s1), as without regions" \
		sh -c "[ ${s1:-0} -gt ${s0:-0} ] && [ '$(cma_stat heap alloc_pages_success)' = '$h0' ]"
	/usr/lib/s5p/selftests/dmabuf-heap >/tmp/st 2>&1
	rc=$?
	sed 's/^/# /' /tmp/st
	check "selftest: tools/testing/selftests/dmabuf-heaps passes on the default area's heap and the region's" \
		sh -c "[ $rc = 0 ] && grep -q 'Testing heap: reserved' /tmp/st && grep -q 'Testing heap: heap' /tmp/st &&
			! grep -q 'FAIL' /tmp/st"
	cma_nothing_lost "selftest: nothing lost"
	;;
*) not_ok "heap: unknown scenario '$scenario'" ;;
esac
[ "$T_FAILED" = 0 ]
