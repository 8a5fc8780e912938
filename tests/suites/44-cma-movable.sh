#!/usr/bin/env bash
# s5p-flavours: default debug
# s5p-qemu: plain (the kernel's CMA, whose sanitizers are the debug pass's; QEMU's devices run under ASan in the device suites and the qtests)
# s5p-shared-boot: debug goni movable.sh default early
# Movable regions (cma_movable=, docs/cma.md "Movable regions"): Goni boots
# running /tests/movable.sh (tests/guest/movable.sh says what each checks):
# the board's defaults under memory pressure with the user's data checked,
# every region static, '*', bad input, and regions from the command line.
# The host compares MemTotal with the regions movable and static.
set -u
. "$(dirname "$0")/../lib/tap.sh"
t_plan 80 debug=47

declare -A memtotal
for scenario in default static all bad cmdline; do
	case $scenario in
	default) append= ;;
	static) append="cma_movable=" ;;
	all) append="cma_movable=*" ;;
	bad) append="cma_movable=nosuch,cam,,@@" ;;
	cmdline) append="cma=big=16M@0x48000000;odd=6M@0x4a000000 cma_map=t=big;u=odd cma_movable=big,odd" ;;
	esac
	t_wanted goni "$scenario" || continue
	t_guest_boot goni movable.sh "$scenario" "$append"
	memtotal[$scenario]=$(sed -n 's/^# MemTotal \([0-9]*\) kB.*/\1/p' "$T_OUT" | head -n 1)
	t_guest_end goni "$scenario"
done
if [ -n "${memtotal[default]:-}" ] && [ -n "${memtotal[static]:-}" ]; then
	# (the lent regions' size, as the default boot's guest checks found it)
	lent=$(sed -n 's/.*CmaTotal is the three regions (\([0-9]*\) MiB).*/\1/p' "$T_TMP/goni-default.out" | head -n 1)
	# (one command for t_check: a "&&" here would end its arguments, and
	# the comparison's status would be thrown away)
	# shellcheck disable=SC2016 # (the arguments are expanded by bash -c)
	t_check "goni: movable regions add their ${lent:-?} MiB to MemTotal (${memtotal[default]} kB movable, ${memtotal[static]} kB static)" \
		bash -c '[ -n "$1" ] && [ "$2" = "$(($1 * 1024))" ]' _ "$lent" "$((memtotal[default] - memtotal[static]))"
fi
t_done
