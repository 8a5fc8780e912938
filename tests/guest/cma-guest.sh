#!/bin/sh
# CMA checks from inside the guest, after a boot with the kernel arguments
# of one scenario (tests/guest/cma-scenarios.sh); tests/suites/40-cma-guest.sh
# runs it.  Prints TAP lines.
#
#   /tests/cma-guest.sh defaults|override|bad
set -u
set -f	# cma_map= values hold '*' and '?'
# shellcheck source=lib.sh
. /tests/lib.sh
# shellcheck source=cma-lib.sh
. /tests/cma-lib.sh
# shellcheck source=cma-scenarios.sh
. /tests/cma-scenarios.sh

scenario=${1:-defaults}
T=/tmp/cma-test
rm -rf "$T" && mkdir -p "$T"

# The board's defaults (boards/BOARD/board.conf, /etc/s5p/board.conf: what
# the kernel writes from the board's device tree, checked on the host by
# 22-cma-explain): the boot log must show exactly them.  From its cma=: the
# regions as the boot log states them (each has a base: the device tree
# places them all), the total size, and the bank (0, 1, ...) each of cam,
# codec-a and codec-b sits in.
# shellcheck source=../../boards/goni/board.conf
if [ ! -r /etc/s5p/board.conf ] || [ "$(. /etc/s5p/board.conf && echo "$BOARD")" != "$board" ]; then
	not_ok "CMA: no /etc/s5p/board.conf for '$board'"
	exit 1
fi
# shellcheck source=../../boards/goni/board.conf
. /etc/s5p/board.conf
DEF_CMA=$BOARD_CMA DEF_MAP=$BOARD_CMA_MAP DEF_REGIONS='' DEF_TOTAL=0
BANK_CAM='' BANK_A='' BANK_B=''
# bank_of ADDRESS: the index of the bank of BOARD_BANKS holding ADDRESS.
bank_of() {
	# shellcheck disable=SC2086 # (the pairs, split)
	set -- "$1" $BOARD_BANKS
	b=$1 i=0
	shift
	while [ $# -ge 2 ]; do
		[ $((b)) -ge $((0x$1)) ] && [ $((b)) -lt $((0x$1 + 0x$2)) ] && { echo $i; return; }
		i=$((i + 1))
		shift 2
	done
}
for r in $(echo "$BOARD_CMA" | tr ';' ' '); do
	name=${r%%=*} spec=${r#*=}
	size=${spec%%[@/:]*}
	case "$size" in
	*M) kib=$((${size%M} * 1024)) ;;
	*K) kib=${size%K} ;;
	*) kib=$size ;;
	esac
	DEF_TOTAL=$((DEF_TOTAL + kib))
	case "$spec" in *@*) ;; *) continue ;; esac
	base=${spec#*@}
	base=${base%%[/:]*}
	align=4096
	case "$spec" in */*)
		align=${spec#*/}
		align=${align%%:*}
		case "$align" in
		*M) align=$((${align%M} * 1048576)) ;;
		*K) align=$((${align%K} * 1024)) ;;
		esac ;;
	esac
	DEF_REGIONS="$DEF_REGIONS${DEF_REGIONS:+
}$(printf 'cma: region %s: base=0x%08x size=0x%08x align=0x%x allocator=bf' "$name" $((base)) $((kib * 1024)) $((align)))"
	case "$name" in
	cam) BANK_CAM=$(bank_of "$base") ;;
	codec-a) BANK_A=$(bank_of "$base") ;;
	codec-b) BANK_B=$(bank_of "$base") ;;
	esac
done
DEF_RULES="cma: map rule 1: f1700000.video-codec/a,s5p-codec*/a=codec-a
cma: map rule 2: f1700000.video-codec/b,s5p-codec*/b=codec-b
cma: map rule 3: f1700000.video-codec/fw,s5p-codec*/fw=codec-fw
cma: map rule 4: fb200000.camera/*,s5p-cam*/*=cam"

# The kernel arguments of this boot must be the scenario's.
want=$(cma_append "$board" "$scenario")
for arg in $want; do
	grep -qF " $arg" /proc/cmdline || not_ok "CMA: kernel argument $arg missing from /proc/cmdline"
done

# session NAME [OPTION...]: cma-test with commands from stdin; its output
# in $T/NAME.out and $T/NAME.err.
session() {
	name=$1
	shift
	cma-test -q "$@" >"$T/$name.out" 2>"$T/$name.err"
}

# check_err WHAT FILE TEXT: cma-test reported TEXT on stderr.
check_err() {
	if grep -qF "$3" "$2"; then
		ok "$1"
	else
		not_ok "$1"
		echo "# expected '$3' in:"
		sed 's/^/# /' "$2"
	fi
}

# The debugfs views agree with the boot log.
check_debugfs() {
	check "CMA: debugfs cma/ has regions, chunks and map" \
		test -r $CMA_DEBUGFS/regions -a -r $CMA_DEBUGFS/chunks -a -r $CMA_DEBUGFS/map
	for r in $(klog | sed -n 's/^cma: region \([^:]*\): base=.*/\1/p'); do
		l=$(region_line "$r")
		check "CMA: debugfs regions: $r as in the boot log" \
			grep -q "^$r: base=$(field "$l" base) size=$(field "$l" size) align=$(field "$l" align) allocator=$(field "$l" allocator) " \
			$CMA_DEBUGFS/regions
	done
	check_eq "CMA: debugfs map is the boot log's" \
		"$(klog | sed -n 's/^cma: map rule \([0-9]*\): /\1: /p')" "$(cat $CMA_DEBUGFS/map)"
	check "CMA: /dev/cma is a character device" test -c /dev/cma
}

scenario_defaults() {
	# The KUnit suite, when it is a module (CONFIG_CMA_REGIONS_KUNIT_TEST=m),
	# runs now; its report goes to the console log, which
	# tests/suites/40-cma-guest.sh reads (built in, it ran at boot).
	modprobe -q cma-regions-test 2>/dev/null
	check_eq "CMA boot log: cma= is the device tree's" \
		"cma: cma=$DEF_CMA (device tree)" "$(klog | grep '^cma: cma=')"
	check_eq "CMA boot log: cma_map= is the device tree's" \
		"cma: cma_map=$DEF_MAP (device tree)" "$(klog | grep '^cma: cma_map=')"
	check_eq "CMA boot log: the regions where the device tree puts them" \
		"$DEF_REGIONS" "$(klog | grep -E '^cma: region (cam|codec-a|codec-b|codec-fw): base=')"
	if region codec-fw && [ "$R_SIZE" = $((0x100000)) ] && [ "$R_ALIGN" = $((0x20000)) ] &&
		[ $((R_BASE % 0x20000)) = 0 ] && [ "$(bank "$R_BASE" "$R_SIZE")" != -1 ]; then
		ok "CMA boot log: codec-fw is 1 MiB, 128 KiB aligned, in bank $(bank "$R_BASE" "$R_SIZE")"
	else
		not_ok "CMA boot log: codec-fw"
		region_line codec-fw | sed 's/^/# /'
	fi
	for r in cam codec-a codec-b; do
		region $r
		# shellcheck disable=SC2046 # (one word: A, B or CAM)
		eval want=\$BANK_$(echo $r | sed 's/codec-a/A/; s/codec-b/B/; s/cam/CAM/')
		check_eq "CMA: region $r is in bank $want" "$want" "$(bank "$R_BASE" "$R_SIZE")"
	done
	check_eq "CMA boot log: the map rules" "$DEF_RULES" "$(klog | grep '^cma: map rule')"
	check_eq "CMA boot log: summary" \
		"cma: 4 regions reserved ($DEF_TOTAL KiB), 4 map rules, 0 problems" \
		"$(klog | grep '^cma: [0-9]* regions reserved')"
	check_eq "CMA boot log: no problems" "" "$(errors)"
	check_debugfs

	# Devices and kinds go where the map sends them.  (/dev/cma takes names
	# of up to 16 characters: the codec's device tree name,
	# f1700000.video-codec, cannot be tried from here, but s5p-codec follows
	# the same rules; the host tests match the long names.)
	session route <<EOF
a s5p-codec/a 1M
a s5p-codec/b 1M
a s5p-codec/fw 64K/128K
a s5p-codec.0/b 1M
a s5p-cam 1M
a s5p-cam.0/preview 1M
a fb200000.camera/y 1M
a fb200000.camera/c 1M
a s5p-codec 1M
a other-device 1M
l
EOF
	f=$T/route.out
	check_chunk "CMA: s5p-codec kind a" $f 1 0x100000 codec-a "$BANK_A"
	check_chunk "CMA: s5p-codec kind b" $f 2 0x100000 codec-b "$BANK_B"
	check_chunk "CMA: s5p-codec kind fw" $f 3 0x10000 codec-fw
	s=$(chunk_start $f 3)
	check_eq "CMA: the firmware chunk is 128 KiB aligned" 0 $((s % 0x20000))
	check_chunk "CMA: s5p-codec.0 kind b" $f 4 0x100000 codec-b "$BANK_B"
	check_chunk "CMA: s5p-cam" $f 5 0x100000 cam "$BANK_CAM"
	check_chunk "CMA: s5p-cam.0 kind preview" $f 6 0x100000 cam "$BANK_CAM"
	check_chunk "CMA: the camera's device tree name fb200000.camera, kind y" $f 7 0x100000 cam "$BANK_CAM"
	check_chunk "CMA: fb200000.camera kind c" $f 8 0x100000 cam "$BANK_CAM"
	check_eq "CMA: the codec with no kind and a device no rule names get ENOENT" 2 \
		"$(grep -c 'cma_alloc: No such file or directory (ENOENT)' $T/route.err)"
	# A region's name typed where a device is expected: cma-test says what
	# is wrong and what to type.
	session region-as-device <<EOF
a cam 1M
EOF
	check "CMA: 'a cam 1M' (a region's name as the device): no rule matches \"cam\"; the regions, the usage and the rules are said" \
		sh -c "grep -qx 'a: no cma_map= rule matches device \"cam\": cma_alloc: No such file or directory (ENOENT)' $T/region-as-device.err &&
			grep -q '^a: the regions are cam, codec-a, codec-b, codec-fw ' $T/region-as-device.err &&
			grep -qx 'a: \"cam\" is a region: alloc takes a device, which the cma_map= rules send to a region' $T/region-as-device.err &&
			grep -qF 'a: usage: a <dev>[/<kind>] <size>[/<align>]' $T/region-as-device.err &&
			grep -q '^a:     4: fb200000.camera/\*,s5p-cam\*/\*=cam' $T/region-as-device.err"
	# (each allocation prints its chunk, then "l" lists them again)
	check_eq "CMA: list shows the 8 chunks" 16 "$(chunks_of $f | wc -l)"

	# The codec's kinds do not fall back on each other's bank.
	region codec-a
	session full <<EOF
a s5p-codec/a $R_SIZE
a s5p-codec/a 4K
a s5p-codec/b 4K
EOF
	check_chunk "CMA: kind a can fill codec-a" $T/full.out 1 "$R_SIZE" codec-a
	check_err "CMA: then kind a gets ENOMEM, not memory in codec-b's bank" $T/full.err \
		"cma_alloc: Cannot allocate memory (ENOMEM)"
	check_chunk "CMA: kind b still has codec-b" $T/full.out 2 0x1000 codec-b "$BANK_B"

	# What one mapping writes, another reads back; chunks do not overlap.
	session mmap <<EOF
a s5p-cam 1M
a s5p-cam 1M
fill 3 0xa5
fill 4 0x3c
check 3 0xa5
check 4 0x3c
map 3 0 1M
map 3 1M 4K
EOF
	check "CMA: mmap reads back what was written (chunk 1)" grep -q '^  3: 0x100000 bytes of 0xa5$' $T/mmap.out
	check "CMA: mmap reads back what was written (chunk 2)" grep -q '^  4: 0x100000 bytes of 0x3c$' $T/mmap.out
	check "CMA: mmap of the whole chunk" grep -q '^  3: mmap +0x0/0x100000: ok$' $T/mmap.out
	check "CMA: mmap beyond the chunk: ENOSPC" grep -q '^  3: mmap +0x100000/0x1000: ENOSPC$' $T/mmap.out

	# The same memory handed out again holds zeroes, not what the previous
	# owner wrote there (the session above filled it with 0xa5 and 0x3c).
	session zero <<EOF
a s5p-cam 1M
a s5p-cam 1M
check 3 0x00
check 4 0x00
EOF
	# (the first: placement may put the second where fewer
	# lent pages are in use than where it was)
	check_eq "CMA: the first new chunk is where the first filled one was" \
		"$(chunks_of $T/mmap.out | head -n 1 | cut -d' ' -f3)" \
		"$(chunks_of $T/zero.out | head -n 1 | cut -d' ' -f3)"
	check "CMA: a new chunk is zeroed (chunk 1)" grep -q '^  3: 0x100000 bytes of 0x00$' $T/zero.out
	check "CMA: a new chunk is zeroed (chunk 2)" grep -q '^  4: 0x100000 bytes of 0x00$' $T/zero.out

	# Record a session, then replay it: the same addresses come back.
	session record -r $T/rec <<EOF
a s5p-cam 1M
a s5p-cam 64K/1M
a s5p-codec/b 3M
f 5
a s5p-cam 2M
a s5p-codec/a 100K/64K
a nobody 1M
f
a s5p-codec/fw 4K
EOF
	check "CMA: the record starts with its header" grep -qx '# cma-test record 1' $T/rec
	check_eq "CMA: the record has 7 allocations and 6 frees" "7 6" \
		"$(grep -c '^alloc ' $T/rec) $(grep -c '^free ' $T/rec)"
	check "CMA: a failed allocation is recorded with its errno" \
		grep -q '^alloc [0-9]* nobody - 0x100000 0x0 ENOENT$' $T/rec
	cma-test -p $T/rec >$T/replay.out 2>&1
	rc=$?
	check_eq "CMA: replay reproduces the record (status)" 0 $rc
	check "CMA: replay reports no mismatch" \
		grep -q '^replay: 7 allocations, 6 frees, 0 mismatches$' $T/replay.out
	check_eq "CMA: replay gets the recorded addresses" \
		"$(sed -n 's/^alloc [0-9]* [^ ]* [^ ]* [^ ]* [^ ]* \(0x[0-9a-f]*\)$/\1/p' $T/rec)" \
		"$(chunks_of $T/replay.out | cut -d' ' -f3)"
	# With a chunk held elsewhere, the layout differs and replay says so.
	mkfifo $T/hold
	(cma-test -q <$T/hold >$T/hold.out 2>&1) &
	exec 7>$T/hold
	echo "a s5p-cam 1M" >&7
	sleep 1
	cma-test -p $T/rec >$T/replay2.out 2>&1
	rc=$?
	exec 7>&-
	wait
	check_eq "CMA: replay on a different layout fails (status)" 1 $rc
	check "CMA: replay on a different layout names the mismatch" \
		grep -q '^replay: line [0-9]*: alloc 1: 0x[0-9a-f]*, recorded 0x' $T/replay2.out

	# The ioctl and mmap ABI, every error path.
	cma-abi-test s5p-cam 65536 >$T/abi.out 2>&1
	rc=$?
	while IFS= read -r line; do
		case "$line" in
		"ok - "*) ok "CMA ABI: ${line#ok - }" ;;
		"not ok - "*) not_ok "CMA ABI: ${line#not ok - }" ;;
		"Bail out!"*) not_ok "CMA ABI: ${line#Bail out! }" ;;
		esac
	done <$T/abi.out
	check_eq "CMA ABI: cma-abi-test exit status" 0 $rc

	# Nothing leaks: no chunk left, and each region can be had whole.
	no_leaks "CMA: every chunk is freed when its file is closed"
	session whole <<EOF
a s5p-cam $(region cam; echo "$R_SIZE")
a s5p-codec/a $(region codec-a; echo "$R_SIZE")
a s5p-codec/b $(region codec-b; echo "$R_SIZE")
a s5p-codec/fw $(region codec-fw; echo "$R_SIZE")
EOF
	check_chunk "CMA: region cam can be allocated whole" $T/whole.out 1 "$(region cam; echo "$R_SIZE")" cam
	check_chunk "CMA: region codec-a can be allocated whole" $T/whole.out 2 "$(region codec-a; echo "$R_SIZE")" codec-a
	check_chunk "CMA: region codec-b can be allocated whole" $T/whole.out 3 "$(region codec-b; echo "$R_SIZE")" codec-b
	check_chunk "CMA: region codec-fw can be allocated whole" $T/whole.out 4 "$(region codec-fw; echo "$R_SIZE")" codec-fw
	no_leaks "CMA: nothing leaked at the end"
}

scenario_override() {
	cma=$(echo "$want" | tr ' ' '\n' | sed -n 's/^cma=//p')
	map=$(echo "$want" | tr ' ' '\n' | sed -n 's/^cma_map=//p')
	if [ -n "$cma" ]; then
		check_eq "CMA boot log: cma= from the command line, which says it replaces the device tree's" \
			"cma: cma= of the command line replaces the device tree's
cma: cma=$cma (command line)" "$(klog | grep '^cma: cma=')"
	else
		check_eq "CMA boot log: cma= stays the device tree's" \
			"cma: cma=$DEF_CMA (device tree)" "$(klog | grep '^cma: cma=')"
	fi
	check_eq "CMA boot log: cma_map= from the command line, which says it replaces the device tree's" \
		"cma: cma_map= of the command line replaces the device tree's
cma: cma_map=$map (command line)" "$(klog | grep '^cma: cma_map=')"
	check_eq "CMA boot log: no problems" "" "$(errors)"
	# the dma-buf heaps: the regions the device tree marks linux,cma-heap
	# while they are the ones set up; none when cma= replaces them
	if [ -n "$cma" ]; then hp=; else hp="cam codec-a codec-b"; fi
	none="none, the regions being the command line's"
	# shellcheck disable=SC2012 # (the heaps' names: the regions')
	check_eq "CMA: dma-buf heaps: ${hp:-$none}" "$hp" \
		"$(ls /dev/dma_heap 2>/dev/null | sort | tr '\n' ' ' | sed 's/ $//')"
	check_debugfs
	case "$board" in
	goni)
		check_eq "CMA: region cam moved" \
			"cma: region cam: base=0x44000000 size=0x00800000 align=0x1000 allocator=bf" "$(region_line cam)"
		check_eq "CMA: region codec-b moved to bank 2's start" \
			"cma: region codec-b: base=0x50000000 size=0x01000000 align=0x1000 allocator=bf" "$(region_line codec-b)"
		check_eq "CMA: region codec-fw is gone" "" "$(region_line codec-fw)"
		region extra
		check_eq "CMA: region extra, anywhere, 1 MiB aligned" "0 $((0x400000))" "$((R_BASE % 0x100000)) $R_SIZE"
		session route <<EOF
a s5p-codec/a 1M
a s5p-codec/b 1M
a s5p-cam/x 1M
a test/y 1M
a test 1M
a s5p-codec/fw 4K
a s5p-codec 4K
a test/z 2M
a test/z 1M
EOF
		check_chunk "CMA: s5p-codec kind a" $T/route.out 1 0x100000 codec-a 1
		check_chunk "CMA: s5p-codec kind b" $T/route.out 2 0x100000 codec-b 2
		check_chunk "CMA: s5p-cam kind x" $T/route.out 3 0x100000 cam 1
		check_chunk "CMA: test kind y, a new device and region" $T/route.out 4 0x100000 extra
		check_chunk "CMA: test with no kind (test/* matches it)" $T/route.out 5 0x100000 extra
		check_eq "CMA: s5p-codec kind fw and no kind have no rule any more (2 ENOENT)" 2 \
			"$(grep -c 'cma_alloc: No such file or directory (ENOENT)' $T/route.err)"
		check_chunk "CMA: test/z fills the rest of extra" $T/route.out 6 0x200000 extra
		check_chunk "CMA: then test/z spills into cam, the rule's next region" $T/route.out 7 0x100000 cam 1
		;;
	aquila)
		check_eq "CMA boot log: the default regions" \
			"$DEF_REGIONS" "$(klog | grep -E '^cma: region (cam|codec-a|codec-b|codec-fw): base=')"
		session route <<EOF
a s5p-codec/a 1M
a s5p-codec/b 1M
a anything/at-all 1M
a s5p-cam 1M
EOF
		check_chunk "CMA: */* sends s5p-codec kind a to cam (first rule wins)" $T/route.out 1 0x100000 cam 1
		check_chunk "CMA: s5p-codec kind b to cam" $T/route.out 2 0x100000 cam 1
		check_chunk "CMA: any device and kind to cam" $T/route.out 3 0x100000 cam 1
		check_chunk "CMA: */* matches the empty kind too" $T/route.out 4 0x100000 cam 1
		;;
	esac
	no_leaks "CMA: nothing leaked"
}

scenario_bad() {
	case "$board" in
	goni)
		expect="cma: error: cma=bad1=0: size is 0; region refused
cma: error: cma=bad2=1M/3: alignment 0x3 is not a power of two; region refused
cma: error: cma=bad3=1M:nope: unknown allocator 'nope'; region refused
cma: error: cma=bad.5=1M: '.' is not allowed in a name; region refused
cma: error: cma=ok=2M: duplicate name; region refused
cma: error: cma=bad6=1M:bf(x: unclosed '('; region refused
cma: error: cma=ovl2=1M@0x44100000: 0x44100000-0x441fffff overlaps region ovl; region refused
cma: error: cma=r64=64M:ff(x): allocator ff takes only \"blind\"; region refused
cma: error: cma=bad7=1M:bf(: unclosed '('; region refused
cma: error: region bad4: 0x60000000-0x600fffff is not RAM; region refused
cma: error: cma_map=nope: no '='; rule dropped
cma: error: cma_map=x=missing,ok: no region missing; skipped
cma: error: cma_map=a*b=ok: '*' must end a pattern; rule dropped"
		check_eq "CMA: one message per problem, nothing else" "$expect" "$(errors)"
		check_eq "CMA boot log: summary" \
			"cma: 3 regions reserved (4096 KiB), 2 map rules, 13 problems" \
			"$(klog | grep '^cma: [0-9]* regions reserved')"
		check_eq "CMA: the good region ovl is where asked" \
			"cma: region ovl: base=0x44000000 size=0x00200000 align=0x1000 allocator=bf" "$(region_line ovl)"
		check_eq "CMA: the region after an unclosed '(' is parsed" \
			"ff" "$(field "$(region_line ovl3)" allocator)"
		check_eq "CMA: nothing is reserved for r64=64M:ff(x)" "" "$(region_line r64)"
		session route <<EOF
a s5p-cam 4K
a x 4K
a s5p-cam 2M
EOF
		check_chunk "CMA: the good rule s5p-cam=ok works" $T/route.out 1 0x1000 ok
		check_chunk "CMA: the rule x=ok keeps its known region" $T/route.out 2 0x1000 ok
		check_err "CMA: region ok is 1 MiB" $T/route.err "(ENOMEM)"
		;;
	aquila)
		len=$(echo "$want" | tr ' ' '\n' | sed -n 's/^cma=//p' | tr -d '\n' | wc -c)
		expect="cma: error: cma= is $len characters long, more than 512; ignored
cma: error: cma_map=s5p-codec/a,,b=codec-a: empty pattern; rule dropped
cma: error: cma_map=q=codec-a,zz: no region zz; skipped"
		check_eq "CMA: one message per problem, nothing else" "$expect" "$(errors)"
		check_eq "CMA boot log: the too long cma= falls back on the default" \
			"cma: cma=$DEF_CMA (device tree)" "$(klog | grep '^cma: cma=')"
		check_eq "CMA boot log: summary" \
			"cma: 4 regions reserved ($DEF_TOTAL KiB), 3 map rules, 3 problems" \
			"$(klog | grep '^cma: [0-9]* regions reserved')"
		session route <<EOF
a s5p-cam.1/y 1M
a q 1M
a s5p-codec/x 1M
EOF
		check_chunk "CMA: s5p-cam*/* still goes to cam" $T/route.out 1 0x100000 cam 1
		check_chunk "CMA: q=codec-a,zz keeps codec-a" $T/route.out 2 0x100000 codec-a 1
		check_err "CMA: /x matches no device of its own (ENOENT)" $T/route.err \
			"cma_alloc: No such file or directory (ENOENT)"
		;;
	esac
	check_debugfs
	no_leaks "CMA: nothing leaked"
}

case "$scenario" in
defaults) scenario_defaults ;;
override) scenario_override ;;
bad) scenario_bad ;;
*) not_ok "CMA: unknown scenario '$scenario'" ;;
esac
[ "$T_FAILED" = 0 ]
