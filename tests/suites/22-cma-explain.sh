#!/usr/bin/env bash
# s5p-quiet: on the host only (no boot, no kernel or QEMU build, no timing check), so it may run beside 12-pipeline
# The platform engineer's host tools (tools/platform, built from the
# kernel's own CMA sources): cma-explain on both boards' device trees
# (the defaults board.conf records, the command line's precedence, a tree
# with bad nodes, the time it takes) and cma-plan on the project's traces
# (every request served, the regions within 10 % of the peak live bytes).
# The guest side: 40-cma-guest compares cma-explain with every boot's log,
# 44-cma-movable boots a plan and replays its trace.
set -u
. "$(dirname "$0")/../lib/tap.sh"
t_plan 32
. "$S5P_TOP/scripts/lib/kernel.sh"

s5p_kernel_source >/dev/null
bin=$T_TMP/platform
if make -s -C "$S5P_TOP/tools/platform" KSRC="$KSRC" O="$bin" >"$T_TMP/build.log" 2>&1 &&
	! grep -qE 'warning|error' "$T_TMP/build.log"; then
	t_pass "tools/platform builds from the kernel tree without warnings"
else
	t_fail "tools/platform builds from the kernel tree without warnings"
	tail -n 20 "$T_TMP/build.log" | sed 's/^/#   /'
fi
t_check "tools/platform: a cross build (the initramfs's) installs nothing" \
	bash -c "make -s -C '$S5P_TOP/tools/platform' CROSS_COMPILE=arm-linux-gnueabi- DESTDIR='$T_TMP/dest' install &&
		[ -z \"\$(ls -A '$T_TMP/dest' 2>/dev/null)\" ]"

explain=$bin/cma-explain
goni='' aquila=''	# each board's device tree, set by the loop's eval
for board in goni aquila; do
	conf=$S5P_TOP/boards/$board/board.conf
	dtb=$(s5p_dtb "$board" >/dev/null 2>&1 && echo "$DTB")
	eval "$board=\$dtb"
	# shellcheck source=../../boards/goni/board.conf
	banks=$(. "$conf" && echo "$BOARD_BANKS")
	devs=()
	# shellcheck source=../../boards/goni/board.conf
	for d in $(. "$conf" && echo "$BOARD_CMA_DEVICES"); do devs+=(--device "$d"); done
	"$explain" --dtb "$dtb" --banks "$banks" --log >"$T_TMP/$board.log" 2>&1
	rc=$?
	for p in cma:BOARD_CMA cma_map:BOARD_CMA_MAP cma_movable:BOARD_CMA_MOVABLE; do
		# shellcheck source=../../boards/goni/board.conf
		want="cma: ${p%%:*}=$(. "$conf" && eval echo "\"\$${p#*:}\"") (device tree)"
		t_check "$board: the kernel's ${p%%:*}= from the device tree is board.conf's ${p#*:}" \
			grep -qxF "$want" "$T_TMP/$board.log"
	done
	t_check "$board: the tree's regions and rules, no problem (status $rc)" \
		bash -c "[ $rc = 0 ] && grep -qx 'cma: 4 regions reserved (74752 KiB), 4 map rules, 0 problems' '$T_TMP/$board.log'"
	"$explain" --dtb "$dtb" --banks "$banks" "${devs[@]}" >"$T_TMP/$board.out" 2>&1
	t_check "$board: every device and kind of the camera and codec ports has its region" \
		bash -c "grep -qE '^  fb200000.camera/y +rule 4: cam$' '$T_TMP/$board.out' &&
			grep -qE '^  f1700000.video-codec/a +rule 1: codec-a$' '$T_TMP/$board.out' &&
			grep -qE '^  f1700000.video-codec/b +rule 2: codec-b$' '$T_TMP/$board.out' &&
			grep -qE '^  s5p-codec/fw +rule 3: codec-fw$' '$T_TMP/$board.out' &&
			grep -qE '^  f1700000.video-codec +no rule' '$T_TMP/$board.out'"
done

# The command line replaces the tree's, and says so.
"$explain" --dtb "$goni" --banks "30000000 05000000 40000000 10000000 50000000 08000000" --log \
	"cma=x=4M@0x4e000000;y=1M" "cma_map=*/*=x,y" >"$T_TMP/cmdline.log" 2>&1
t_check "command line: cma= and cma_map= replace the tree's, and the log says so" \
	bash -c "grep -qx 'cma: cma= of the command line replaces the device tree'\"'\"'s' '$T_TMP/cmdline.log' &&
		grep -qx 'cma: cma_map= of the command line replaces the device tree'\"'\"'s' '$T_TMP/cmdline.log' &&
		grep -qx 'cma: cma=x=4M@0x4e000000;y=1M (command line)' '$T_TMP/cmdline.log'"
t_check "command line: the tree's regions give their memory back first (x fits where codec-a was)" \
	bash -c "[ \$(grep -c '^cma: device tree region .*: cma= of the command line replaces it; memory given back$' '$T_TMP/cmdline.log') = 4 ] &&
		grep -qx 'cma: region x: base=0x4e000000 size=0x00400000 align=0x1000 allocator=bf' '$T_TMP/cmdline.log' &&
		grep -qx 'cma: cma_movable= (none)' '$T_TMP/cmdline.log'"
"$explain" --dtb "$goni" --banks "30000000 05000000 40000000 10000000 50000000 08000000" --log \
	"cma_movable=" >"$T_TMP/movable.log" 2>&1
t_check "command line: an empty cma_movable= replaces the tree's reusable regions" \
	bash -c "grep -qx 'cma: cma_movable= (command line)' '$T_TMP/movable.log' && ! grep -q 'movable: its free' '$T_TMP/movable.log'"

devs=()
for d in $(. "$S5P_TOP/boards/aquila/board.conf" && echo "$BOARD_CMA_DEVICES"); do devs+=(--device "$d"); done
"$explain" --dtb "$aquila" --banks "30000000 05000000 40000000 18000000" "${devs[@]}" \
	'cma_map=*/*=cam;s5p-codec/a=codec-a' >"$T_TMP/shadow.out" 2>&1
t_check "command line: cma_map= rules listed in order, and every device follows the first that matches (*/* shadows s5p-codec/a)" \
	bash -c "grep -qx 'Rules (cma_map= from the command line; tried in order, the first matching pattern decides):' '$T_TMP/shadow.out' &&
		grep -qx '  1: \*/\*=cam' '$T_TMP/shadow.out' && grep -qx '  2: s5p-codec/a=codec-a' '$T_TMP/shadow.out' &&
		grep -qE '^  s5p-codec/a +rule 1: cam$' '$T_TMP/shadow.out'"

# A tree with bad nodes: one error each, the rest set up (40-cma-guest
# boots the same tree).
dts=$T_TMP/bad.dts
dtc -q -I dtb -O dts -o "$dts" "$goni"
cat >>"$dts" <<'EOF'
/ {
	reserved-memory {
		nomap@44000000 { compatible = "linux,cma-region"; reg = <0x44000000 0x100000>; no-map; };
		ranged { compatible = "linux,cma-region"; size = <0x200000>; alignment = <0x100000>;
			alloc-ranges = <0x30000000 0x5000000>; linux,cma-allocator = "ff"; };
		twoal { compatible = "linux,cma-region"; size = <0x100000>; alignment = <0x3000>; };
	};
	soc {
		video-codec@f1700000 { memory-region-names = "a", "b"; };
		camera@fb200000 { /delete-property/ memory-region-names;
			memory-region = <&{/reserved-memory/cam@4c800000}>, <&{/reserved-memory/codec-fw}>; };
	};
};
EOF
dtc -q -I dts -O dtb -o "$T_TMP/bad.dtb" "$dts"
"$explain" --dtb "$T_TMP/bad.dtb" --banks "30000000 05000000 40000000 10000000 50000000 08000000" --log >"$T_TMP/bad.log" 2>&1
rc=$?
t_check "bad tree: no-map refused, with its message (status $rc)" \
	bash -c "[ $rc = 1 ] && grep -qx 'cma: error: device tree node nomap@44000000: no-map: the kernel may not map it, so it is never a region; region refused' '$T_TMP/bad.log'"
t_check "bad tree: an alignment that is not a power of two is refused" \
	grep -qx 'cma: error: device tree node twoal: alignment is not a power of two; region refused' "$T_TMP/bad.log"
t_check "bad tree: alloc-ranges places a region in its range, with its allocator" \
	grep -qx 'cma: region ranged: base=0x34e00000 size=0x00200000 align=0x100000 allocator=ff' "$T_TMP/bad.log"
t_check "bad tree: memory-region-names that do not name every region drop the device's rules, the others stay" \
	bash -c "grep -qx 'cma: error: device tree node video-codec@f1700000: memory-region-names does not name each of its 3 memory-region entries; its rules dropped' '$T_TMP/bad.log' &&
		grep -qx 'cma: 5 regions reserved (76800 KiB), 1 map rules, 3 problems' '$T_TMP/bad.log'"
t_check "bad tree: a device without memory-region-names gets one rule with its regions in order, for its own DMA API allocations (the empty kind)" \
	grep -qx 'cma: map rule 1: fb200000.camera,s5p-cam\*=cam,codec-fw' "$T_TMP/bad.log"

# Speed: the answer within 100 ms (the binary; the script adds the build check).
start=$(date +%s%N)
for i in 1 2 3 4 5 6 7 8 9 10; do
	"$explain" --dtb "$goni" --banks "30000000 05000000 40000000 10000000 50000000 08000000" >/dev/null 2>&1
done
ms=$((($(date +%s%N) - start) / 10000000))
t_check "cma-explain answers in under 100 ms (${ms} ms a run, 10 runs)" [ "$ms" -lt 100 ]
# cma-plan on the project's traces: every request served on the proposal
# (its own whole-trace replay), the regions within 10 % of the peak live
# bytes (plus alignment: what rounding each request up to its alignment
# adds), never below the peak, and strings the kernel takes without a word.
plan=$bin/cma-plan
for t in media random; do
	start=$(date +%s%N)
	"$plan" "$S5P_TOP/bench/traces/$t.trace" >"$T_TMP/plan-$t.out" 2>"$T_TMP/plan-$t.err"
	rc=$? ms=$((($(date +%s%N) - start) / 1000000))
	read -r peak aligned total < <(sed -n 's/^# total: peak live \([0-9]*\) KiB.*; \([0-9]*\) KiB with each.*regions \([0-9]*\) KiB.*/\1 \2 \3/p' "$T_TMP/plan-$t.out")
	t_check "cma-plan $t.trace: every request served on the proposal (status $rc, $ms ms)" \
		bash -c "[ $rc = 0 ] && grep -qx '# the whole trace replayed on these regions and map: every request served' '$T_TMP/plan-$t.out'"
	t_check "cma-plan $t.trace: ${total:-?} KiB of regions, within 10 % of the peak ${peak:-?} KiB plus alignment (${aligned:-?} KiB aligned)" \
		bash -c "[ -n '$total' ] && [ '$total' -ge '$peak' ] &&
			[ \$((10 * $total)) -le \$((11 * $peak + 10 * ($aligned - $peak))) ]"
	cma=$(sed -n 's/^cma=//p' "$T_TMP/plan-$t.out")
	map=$(sed -n 's/^cma_map=//p' "$T_TMP/plan-$t.out")
	t_check "cma-plan $t.trace: cma-explain boots its cma= and cma_map= on Goni without a problem" \
		"$explain" --dtb "$goni" --banks "30000000 05000000 40000000 10000000 50000000 08000000" --log \
		"cma=$cma" "cma_map=$map"
	sed -n '/^\/ {/,/^};/p' "$T_TMP/plan-$t.out" | sed '1i /dts-v1/;' >"$T_TMP/plan-$t.dts"
	t_check "cma-plan $t.trace: its device tree fragment compiles" dtc -q -I dts -O dtb -o /dev/null "$T_TMP/plan-$t.dts"
done
grep '^# ' "$T_TMP/plan-media.out" | sed 's/^/# media: /'

# cma-plan on a capture of the kernel's trace events (tracefs's own header,
# events of other kinds, a refused request): cam's peak is its two 1 MiB
# chunks live at once, or the 2 MiB one after them; codec's one 128 KiB
# chunk aligned to 128 KiB.  40-cma-guest plans a real capture.
cat >"$T_TMP/cap.events" <<'EOF'
# tracer: nop
#
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |
        cma-test-93      [000] .....    40.100000: cma_regions_alloc_start: region=- owner=fb200000.camera/ size=0x100000 align=0x1000
        cma-test-93      [000] .....    40.100100: cma_regions_alloc_finish: region=cam owner=fb200000.camera/ size=0x100000 align=0x1000 addr=0x4e000000 err=0 tries=1 ns=5000 migrated=0
        cma-test-93      [000] .....    40.100200: cma_regions_alloc_finish: region=cam owner=fb200000.camera/y size=0x100000 align=0x1000 addr=0x4e100000 err=0 tries=1 ns=5000 migrated=3
        cma-test-93      [000] .....    40.100300: cma_regions_alloc_finish: region=codec-a owner=s5p-codec/a size=0x20000 align=0x20000 addr=0x4f800000 err=0 tries=1 ns=5000 migrated=0
        cma-test-93      [000] .....    40.100400: cma_regions_alloc_finish: region=cam owner=fb200000.camera/ size=0x4000000 align=0x1000 addr=0x0 err=-12 tries=1 ns=5000 migrated=0
        cma-test-93      [000] .....    40.100500: cma_regions_release: region=cam owner=fb200000.camera/ addr=0x4e000000 size=0x100000
        cma-test-93      [000] .....    40.100600: cma_regions_claim_busy: region=cam pfn=0x4e000 count=256 busy_pfn=0x4e010 err=-16
        cma-test-93      [000] .....    40.100700: cma_regions_release: region=cam owner=fb200000.camera/y addr=0x4e100000 size=0x100000
        cma-test-93      [000] .....    40.100800: cma_regions_alloc_finish: region=cam owner=fb200000.camera/ size=0x200000 align=0x1000 addr=0x4e000000 err=0 tries=1 ns=5000 migrated=0
EOF
"$plan" --quiet "$T_TMP/cap.events" >"$T_TMP/cap.out" 2>&1
t_check "cma-plan on trace events: cam=2M for fb200000.camera and its kind y, codec-a=128K/128K; the refused request left out" \
	bash -c "grep -qx 'cma=cam=2M;codec-a=128K/128K' '$T_TMP/cap.out' &&
		grep -qx 'cma_map=fb200000.camera,fb200000.camera/y=cam;s5p-codec/a=codec-a' '$T_TMP/cap.out' &&
		grep -q '(7 of them).*; 1 requests the kernel refused left out' '$T_TMP/cap.out'"
sed 's/^/#   /' "$T_TMP/cap.out" | grep -v '^#   $'
sed 's/addr=0x4e100000 size=0x100000$/addr=0x4e180000 size=0x100000/' "$T_TMP/cap.events" >"$T_TMP/bad.events"
"$plan" --quiet "$T_TMP/bad.events" >"$T_TMP/bad.out" 2>&1
rc=$?
t_check "cma-plan on trace events: a release of an address never allocated is refused with its line (status $rc)" \
	bash -c "[ $rc = 2 ] && grep -q 'bad.events:12: cannot parse: .*(a release of an address the capture did not allocate)' '$T_TMP/bad.out'"

t_done
