#!/usr/bin/env bash
# s5p-flavours: default debug
# s5p-qemu: plain (the kernel's CMA, whose sanitizers are the debug pass's; QEMU's devices run under ASan in the device suites and the qtests)
# s5p-shared-boot: debug goni cma-guest.sh defaults early
# The CMA framework in the guest, on both boards: the KUnit tests (KTAP from
# the console log: built in, they run at boot; as the module
# cma-regions-test, the defaults scenario loads it), and /tests/cma-guest.sh
# after three boots per board (tests/guest/cma-scenarios.sh): the board
# defaults, cma= and cma_map= given on the command line, and malformed
# strings; and one Goni boot with a device tree /memreserve/ where a region
# would otherwise go; one Goni boot with bad regions in its device tree;
# one on cma-plan's proposal for bench/traces/media.trace, replaying it.
# Every boot's cma: lines are the ones cma-explain predicts.
set -u
. "$(dirname "$0")/../lib/tap.sh"
t_plan 312 debug=107
. "$S5P_TOP/tests/guest/cma-scenarios.sh"

# ktap LOG BOARD: the cma-regions KUnit suite's results in a console log,
# a check a case.  The suite's own "ok N cma-regions" line adds no check
# (it sums its cases, so a failing case would count twice); it fails one
# only when it disagrees with them: "not ok" with every case passed (the
# suite's init failed, or a case crashed without its line), or missing.
ktap() {
	local log=$1 board=$2 line n=0 sfail=0 suite=
	while IFS= read -r line; do
		line=${line%$'\r'}
		line=$(printf '%s' "$line" | sed 's/^\[ *[0-9.]*\] //')
		case "$line" in
		*"# Subtest: cma-regions") suite=1 sfail=0 ;;
		"    ok "*)
			[ -n "$suite" ] || continue
			n=$((n + 1))
			t_pass "$board: KUnit cma-regions: $(printf '%s' "$line" | sed 's/^ *ok [0-9]* //')"
			;;
		"    not ok "*)
			[ -n "$suite" ] || continue
			n=$((n + 1)) sfail=$((sfail + 1))
			t_fail "$board: KUnit cma-regions: $(printf '%s' "$line" | sed 's/^ *not ok [0-9]* //')"
			;;
		"ok "*" cma-regions") suite= ;;
		"not ok "*" cma-regions")
			[ -z "$suite" ] || [ "$sfail" != 0 ] ||
				t_fail "$board: KUnit suite cma-regions: not ok, though none of its cases failed"
			suite= ;;
		esac
	done <"$log"
	[ "$n" -gt 0 ] || t_fail "$board: no KUnit cma-regions results in the console log"
	[ -z "$suite" ] || t_fail "$board: KUnit suite cma-regions: no line ends it"
}

# dt_reserve: the regions are placed after the device tree's reservations.
# The boards' device trees reserve nothing, so Goni boots once with its
# device tree plus "/memreserve/ 0x57f00000 0x100000", the top MiB of its
# highest bank (boot.sh --dtb), where memblock puts a region given no START:
# fw must land below it, and pin, given a START inside it, must be refused.
# The boot is checked like every other: status 0, no kernel report.
below_reserve() { [ -n "$1" ] && [ $(($1 + 0x100000)) -le $((0x57f00000)) ]; }
dt_reserve() {
	local dts=$T_TMP/dtres.dts dtb=$T_TMP/dtres.dtb log=$T_TMP/dtres.log base rc fw
	base=$(
		# shellcheck source=/dev/null # (in a subshell for one value: its globals are not ours)
		. "$S5P_TOP/scripts/lib/kernel.sh" && s5p_kernel_source >/dev/null && s5p_dtb goni && echo "$DTB"
	) 2>"$T_TMP/dtres.err"
	if [ ! -f "$base" ] || ! dtc -q -I dtb -O dts -o "$dts" "$base" ||
		! sed -i '0,/^\/dts-v1\/;/s//&\n\/memreserve\/ 0x57f00000 0x00100000;/' "$dts" ||
		! dtc -q -I dts -O dtb -o "$dtb" "$dts"; then
		t_fail "goni, DT /memreserve/: no device tree to boot (${base:-none})"
		t_fail "goni, DT /memreserve/: a region pinned on it is refused"
		t_fail "goni, DT /memreserve/: the boot ends with status 0"
		t_fail "goni, DT /memreserve/: no kernel report in the console log"
		tail -n 5 "$T_TMP/dtres.err" | sed 's/^/#   /'
		return
	fi
	"$S5P_TOP/scripts/boot-goni.sh" --dtb "$dtb" --log "$log" --timeout 120 \
		--append "cma=fw=1M;pin=512K@0x57f80000 cma_map=" --cmd true >"$T_TMP/dtres.out" 2>&1
	rc=$?
	fw=$(sed -n 's/.*cma: region fw: base=\(0x[0-9a-f]*\) .*/\1/p' "$log")
	t_check "goni, DT /memreserve/ 0x57f00000+1M: region fw is placed below it (at ${fw:-nowhere})" \
		below_reserve "$fw"
	t_check "goni, DT /memreserve/: a region pinned on it is refused" \
		grep -q 'cma: error: region pin: 0x57f80000-0x57ffffff is not free (already reserved); region refused' "$log"
	t_check "goni, DT /memreserve/: the boot ends with status 0 (got $rc)" [ "$rc" = 0 ]
	[ "$rc" = 0 ] || tail -n 8 "$T_TMP/dtres.out" | sed 's/^/#   /'
	t_no_reports "goni, DT /memreserve/: no kernel report in the console log" "$log"
	explain_agrees "goni, DT /memreserve/" "$log" goni "$dtb" "cma=fw=1M;pin=512K@0x57f80000 cma_map="
}

# explain_agrees WHAT LOG BOARD DTB APPEND: the boot's "cma: " lines of its
# first second (cma_regions_allocate()'s) are exactly what cma-explain
# (scripts/cma-explain.sh, the kernel's CMA code on the host) says the
# board with that device tree (DTB, "" for the board's) and those kernel
# arguments prints.
explain_agrees() {
	local what=$1 log=$2 board=$3 dtb=$4 args=() guest host
	read -ra args <<<"$5"
	[ -z "$dtb" ] || args=(--dtb "$dtb" "${args[@]}")
	host=$("$S5P_TOP/scripts/cma-explain.sh" --board "$board" --log "${args[@]}" 2>"$T_TMP/explain.err" | grep '^cma: ')
	guest=$(sed -n 's/\r$//; s/^\[ *0\.0*\] \(cma: \)/\1/p' "$log")
	t_check "$what: cma-explain predicts the boot's $(printf '%s\n' "$guest" | grep -c .) cma: lines exactly" \
		[ -n "$guest" -a "$host" = "$guest" ]
	[ "$host" = "$guest" ] || diff <(printf '%s\n' "$host") <(printf '%s\n' "$guest") | head -n 12 | sed 's/^/#   /'
}

# dt_errors: regions and rules from the device tree (boards/goni/goni.dts,
# boards/common/s5pv210-cma.dtsi), broken on purpose.  Goni boots once with
# its device tree plus five bad "linux,cma-region" nodes and a camera whose
# memory-region also names one of them: each bad node gets one "cma: error:"
# line, and the board's own regions and rules are set up as always.
dt_errors() {
	local dts=$T_TMP/dterr.dts dtb=$T_TMP/dterr.dtb log=$T_TMP/dterr.log base rc want got
	base=$(
		# shellcheck source=/dev/null # (in a subshell for one value: its globals are not ours)
		. "$S5P_TOP/scripts/lib/kernel.sh" && s5p_kernel_source >/dev/null && s5p_dtb goni && echo "$DTB"
	) 2>"$T_TMP/dterr.err"
	if [ -f "$base" ] && dtc -q -I dtb -O dts -o "$dts" "$base"; then
		cat >>"$dts" <<'EOF'
/ {
	reserved-memory {
		nomap@44000000 { compatible = "linux,cma-region"; reg = <0x44000000 0x100000>; no-map; };
		bad.name@44800000 { compatible = "linux,cma-region"; reg = <0x44800000 0x100000>; };
		badalloc: badalloc@45000000 { compatible = "linux,cma-region"; reg = <0x45000000 0x100000>;
			linux,cma-allocator = "nope"; };
		odd@45800800 { compatible = "linux,cma-region"; reg = <0x45800800 0x1000>; };
		notram@60000000 { compatible = "linux,cma-region"; reg = <0x60000000 0x100000>; };
	};
	soc {
		camera@fb200000 { memory-region = <&{/reserved-memory/cam@4c800000}>, <&badalloc>;
			memory-region-names = "*", "*"; };
	};
};
EOF
	fi
	if [ ! -f "$base" ] || ! dtc -q -I dts -O dtb -o "$dtb" "$dts" 2>"$T_TMP/dterr.dtc"; then
		t_fail "goni, DT errors: no device tree to boot (${base:-none})"
		tail -n 5 "$T_TMP/dterr.err" "$T_TMP/dterr.dtc" 2>/dev/null | sed 's/^/#   /'
		return
	fi
	"$S5P_TOP/scripts/boot-goni.sh" --dtb "$dtb" --log "$log" --timeout 120 --cmd true >"$T_TMP/dterr.out" 2>&1
	rc=$?
	want="cma: error: device tree node nomap@44000000: no-map: the kernel may not map it, so it is never a region; region refused
cma: error: device tree node odd@45800800: base or size is not a whole number of pages; region refused
cma: error: cma=bad.name=1M@0x44800000: '.' is not allowed in a name; region refused
cma: error: cma=badalloc=1M@0x45000000:nope: unknown allocator 'nope'; region refused
cma: error: region notram: 0x60000000-0x600fffff is not RAM; region refused
cma: error: cma_map=fb200000.camera/*,s5p-cam*/*=cam,badalloc: no region badalloc; skipped"
	got=$(sed -n 's/^\[ *[0-9.]*\] //; s/\r$//; /^cma: error: /p' "$log")
	t_check "goni, DT errors: one cma: error: line per bad node or reference, nothing else" [ "$got" = "$want" ]
	[ "$got" = "$want" ] || { echo "# got:"; printf '%s\n' "$got" | sed 's/^/#   /'; }
	t_check "goni, DT errors: the board's four regions and four rules are set up, six problems" \
		grep -q 'cma: 4 regions reserved (74752 KiB), 4 map rules, 6 problems' "$log"
	t_check "goni, DT errors: the camera's rule keeps its good region" \
		grep -q 'cma: map rule 4: fb200000.camera/\*,s5p-cam\*/\*=cam.\?$' "$log"
	t_check "goni, DT errors: the boot ends with status 0 (got $rc)" [ "$rc" = 0 ]
	t_no_reports "goni, DT errors: no kernel report in the console log" "$log"
	explain_agrees "goni, DT errors" "$log" goni "$dtb" ""
}

# plan_boot: cma-plan's proposal for bench/traces/media.trace (the regions
# and map its host replay found to serve every request), booted on Goni:
# the same trace replays through /dev/cma and no request fails.
plan_boot() {
	local log=$T_TMP/plan.log out=$T_TMP/plan.out share=$T_TMP/plan-share plan cma map kib rc events
	mkdir -p "$share" && cp "$S5P_TOP/bench/traces/media.trace" "$share/"
	plan=$("$S5P_TOP/scripts/cma-plan.sh" --quiet "$share/media.trace" 2>"$T_TMP/plan.err")
	cma=$(sed -n 's/^cma=//p' <<<"$plan")
	map=$(sed -n 's/^cma_map=//p' <<<"$plan")
	kib=$(sed -n 's/^# total: .*, regions \([0-9]*\) KiB.*/\1/p' <<<"$plan")
	if [ -z "$cma" ] || [ -z "$map" ]; then
		t_fail "goni, cma-plan's proposal for media.trace: no proposal"
		sed 's/^/#   /' "$T_TMP/plan.err" | tail -n 5
		return
	fi
	echo "# plan: cma=$cma cma_map=$map"
	# (the replay's allocations and releases captured from the kernel's trace
	# events, docs/cma.md "Tracing", into the share: planned again below)
	# shellcheck disable=SC2016 # (the guest's command, expanded there)
	"$S5P_TOP/scripts/boot-goni.sh" --share "$share" --append "cma=$cma cma_map=$map" --log "$log" \
		--timeout 300 --cmd 'tr=/sys/kernel/tracing
[ -d $tr/events ] || mount -t tracefs nodev $tr
echo 2048 >$tr/buffer_size_kb
echo 1 >$tr/events/cma_regions/cma_regions_alloc_finish/enable
echo 1 >$tr/events/cma_regions/cma_regions_release/enable
cma-test -q -p /host/media.trace; rc=$?
echo 0 >$tr/tracing_on
cat $tr/trace >/host/media.events
exit $rc' >"$out" 2>&1
	rc=$?
	t_check "goni, cma-plan's proposal for media.trace: its regions ($kib KiB) and rules set up without a problem" \
		grep -q "cma: [0-9]* regions reserved ($kib KiB), [0-9]* map rules, 0 problems" "$log"
	t_check "goni, cma-plan's proposal: media.trace replays through /dev/cma, every request served (status $rc)" \
		bash -c "[ $rc = 0 ] && grep -qx 'replay: 1153 allocations, 1153 frees, 0 mismatches' '$out' &&
			! grep -q 'allocations failed' '$out'"
	[ "$rc" = 0 ] || tail -n 5 "$out" | sed 's/^/#   /'
	t_no_reports "goni, cma-plan's proposal: no kernel report in the console log" "$log"
	explain_agrees "goni, cma-plan's proposal" "$log" goni "" "cma=$cma cma_map=$map"
	# The kernel's own record of the replay (its trace events) plans to the
	# same regions and map as the trace it replayed.
	events=$("$S5P_TOP/scripts/cma-plan.sh" --quiet "$share/media.events" 2>"$T_TMP/events.err")
	t_check "goni, cma-plan on the kernel's trace events of the replay ($(grep -c ' cma_regions_' "$share/media.events" 2>/dev/null) events): the same regions and map as on media.trace" \
		[ -n "$events" -a "$(grep '^cma' <<<"$events")" = "$(grep '^cma' <<<"$plan")" ]
	diff <(grep '^cma' <<<"$plan") <(grep '^cma' <<<"$events") | sed 's/^/#   /'
	sed 's/^/#   /' "$T_TMP/events.err" | tail -n 3
}

for board in goni aquila; do
	boot=$S5P_TOP/scripts/boot-$board.sh
	if [ ! -x "$boot" ]; then
		t_fail "$board: $boot is missing"
		continue
	fi
	for scenario in defaults override bad; do
		t_wanted "$board" "$scenario" || continue
		append=$(cma_append "$board" "$scenario")
		log=$T_TMP/$board-$scenario.log
		T_PART_START=
		if [ -n "$append" ] || ! t_part "$board" "$scenario" "$T_TMP/out" "$log"; then
			args=(--cmd "sh /tests/cma-guest.sh $scenario" --log "$log" --timeout 300)
			[ -z "$append" ] || args+=(--append "$append")
			"$boot" "${args[@]}" >"$T_TMP/out" 2>&1
			T_RC=$?
		fi
		rc=$T_RC
		t_relay -s "$board: " "$board [$scenario]: " <"$T_TMP/out"
		t_check "$board [$scenario]: the CMA guest checks exit with status 0 (got $rc)" [ "$rc" = 0 ]
		if [ "$rc" != 0 ]; then
			grep -vE '^(not )?ok |^# ' "$T_TMP/out" | head -n 20 | sed 's/^/#   /'
		fi
		t_no_reports "$board [$scenario]: no kernel warning, oops, BUG or sanitizer report in the console log" "$log"
		# a part of a shared boot: the kernel's start is in the boot's log
		explain_agrees "$board [$scenario]" "${T_PART_START:-$log}" "$board" "" "$append"
		[ "$scenario" != defaults ] || ktap "$log" "$board"
	done
done
! t_wanted goni dtres || dt_reserve
! t_wanted goni dterr || dt_errors
! t_wanted goni plan || plan_boot

t_done
