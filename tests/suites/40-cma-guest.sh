#!/usr/bin/env bash
# s5p-flavours: default debug
# The CMA framework in the guest, on both boards: the KUnit tests built into
# the kernel (KTAP from the console log), and /tests/cma-guest.sh after three
# boots per board (tests/guest/cma-scenarios.sh): the board defaults, cma=
# and cma_map= given on the command line, and malformed strings.
. "$(dirname "$0")/../lib/tap.sh"
t_plan 259
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

for board in goni aquila; do
	boot=$S5P_TOP/scripts/boot-$board.sh
	if [ ! -x "$boot" ]; then
		t_fail "$board: $boot is missing"
		continue
	fi
	for scenario in defaults override bad; do
		append=$(cma_append "$board" "$scenario")
		log=$T_TMP/$board-$scenario.log
		args=(--cmd "sh /tests/cma-guest.sh $scenario" --log "$log" --timeout 300)
		[ -z "$append" ] || args+=(--append "$append")
		"$boot" "${args[@]}" >"$T_TMP/out" 2>&1
		rc=$?
		sed -n "s/^\(\(not \)\{0,1\}ok - \)$board: /\1$board [$scenario]: /p; /^# /p" "$T_TMP/out"
		t_check "$board [$scenario]: the CMA guest checks exit with status 0 (got $rc)" [ "$rc" = 0 ]
		if [ "$rc" != 0 ]; then
			grep -vE '^(not )?ok |^# ' "$T_TMP/out" | head -n 20 | sed 's/^/#   /'
		fi
		t_no_reports "$board [$scenario]: no kernel warning, oops, BUG or sanitizer report in the console log" "$log"
		[ "$scenario" != defaults ] || ktap "$log" "$board"
	done
done

t_done
