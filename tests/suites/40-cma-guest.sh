#!/usr/bin/env bash
# s5p-flavours: default debug
# s5p-shared-boot: debug goni cma-guest.sh defaults early
# The CMA framework in the guest, on both boards: the KUnit tests (KTAP from
# the console log: built in, they run at boot; as the module
# cma-regions-test, the defaults scenario loads it), and /tests/cma-guest.sh
# after three boots per board (tests/guest/cma-scenarios.sh): the board
# defaults, cma= and cma_map= given on the command line, and malformed
# strings; and one Goni boot with a device tree /memreserve/ where a region
# would otherwise go.
. "$(dirname "$0")/../lib/tap.sh"
t_plan 286 debug=103
. "$S5P_TOP/tests/guest/cma-scenarios.sh"

# ktap LOG BOARD: the cma-regions KUnit suite's results in a console log.
ktap() {
	local log=$1 board=$2 line n=0 suite=
	while IFS= read -r line; do
		line=${line%$'\r'}
		line=$(printf '%s' "$line" | sed 's/^\[ *[0-9.]*\] //')
		case "$line" in
		*"# Subtest: cma-regions") suite=1 ;;
		"    ok "*)
			[ -n "$suite" ] || continue
			n=$((n + 1))
			t_pass "$board: KUnit cma-regions: $(printf '%s' "$line" | sed 's/^ *ok [0-9]* //')"
			;;
		"    not ok "*)
			[ -n "$suite" ] || continue
			n=$((n + 1))
			t_fail "$board: KUnit cma-regions: $(printf '%s' "$line" | sed 's/^ *not ok [0-9]* //')"
			;;
		"ok "*" cma-regions") [ -n "$suite" ] && t_pass "$board: KUnit suite cma-regions"; suite= ;;
		"not ok "*" cma-regions") [ -n "$suite" ] && t_fail "$board: KUnit suite cma-regions"; suite= ;;
		esac
	done <"$log"
	[ "$n" -gt 0 ] || t_fail "$board: no KUnit cma-regions results in the console log"
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
		[ "$scenario" != defaults ] || ktap "$log" "$board"
	done
done
! t_wanted goni dtres || dt_reserve

t_done
