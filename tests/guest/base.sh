#!/bin/sh
# Base machine checks from inside the guest (tests/suites/10-boards.sh runs
# this on each board and checks the rest from the host).
# shellcheck source=lib.sh
set -u
. /tests/lib.sh

# (Reaching this line is no check of its own: the host checks that the
# kernel ran /init and that this script's exit status is 0.)
echo "# $board: kernel reached userspace"

# Memory: the banks the board has (boards/BOARD/board.conf, installed as
# /etc/s5p/board.conf), as the kernel sees them.  Goni's second and third
# banks are adjacent, so /proc/iomem shows them as one range.
# shellcheck source=../../boards/goni/board.conf
if [ ! -r /etc/s5p/board.conf ] || [ "$(. /etc/s5p/board.conf && echo "$BOARD")" != "$board" ]; then
	not_ok "no /etc/s5p/board.conf for '$board' (device tree model: $(cat /proc/device-tree/model))"
	exit 1
fi
# shellcheck source=../../boards/goni/board.conf
. /etc/s5p/board.conf
banks=$BOARD_BANKS ram=$BOARD_RAM_RANGES
got=$(od -An -v -tx1 /proc/device-tree/memory@30000000/reg |
	awk '{ for (i = 1; i <= NF; i++) { w = w $i; if (++n % 4 == 0) { printf "%s%s", s, w; s = " "; w = "" } } }')
check_eq "device tree memory banks" "$banks" "$got"
got=$(awk '/: System RAM$/ { printf "%s%s", sep, $1; sep = " " }' /proc/iomem)
check_eq "System RAM in /proc/iomem" "$ram" "$got"
total=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
# The board's RAM (464 MiB, 475136 kB) less the kernel image, the CMA
# regions the kernel reserved at boot ("cma: N regions reserved (K KiB)")
# and small reservations (under 30000 kB): a missing bank would take 80 MiB
# or more.
cma=$(dmesg | sed -n 's/.*cma: [0-9]* regions reserved (\([0-9]*\) KiB).*/\1/p' | tail -n1)
mem=$((BOARD_MEM_MIB * 1024))
if [ "$((total + ${cma:-0}))" -gt $((mem - 30136)) ] && [ "$total" -le "$mem" ]; then
	ok "MemTotal $total kB + CMA ${cma:-0} kB covers every bank"
else
	not_ok "MemTotal $total kB + CMA ${cma:-0} kB does not cover $BOARD_MEM_MIB MiB"
fi

# Interrupts: all four VICs registered, the UARTs (VIC1) deliver.
check_eq "four VICs" 4 "$(dmesg | grep -c 'VIC @.*vendor 0x41')"
n=$(irq_count "$BOARD_CONSOLE_DEVICE")
echo "console UART interrupt test line: $(seq 1 200 | tr '\n' ' ')" >/dev/console
n2=$(irq_count "$BOARD_CONSOLE_DEVICE")
if [ "$n2" -gt "$n" ]; then
	ok "console UART interrupts on VIC1 ($n -> $n2)"
else
	not_ok "console UART interrupts on VIC1 do not advance ($n -> $n2)"
fi

# Clocks: the rates the clock driver computed from the emulated PLLs.
check "boot log reports the real APLL/MPLL rates" \
	sh -c "dmesg | grep -q 'S5PV210 clocks: mout_apll = 1000000000, mout_mpll = 667000000'"
clk=/sys/kernel/debug/clk/clk_summary
rate() { awk -v c="$1" '$1 == c { print $5 }' $clk; }
check_eq "APLL rate" 1000000000 "$(rate mout_apll)"
check_eq "MPLL rate" 667000000 "$(rate mout_mpll)"
check_eq "EPLL rate" 96000000 "$(rate mout_epll)"
check_eq "VPLL rate" 54000000 "$(rate mout_vpll)"
check_eq "ARM clock (dout_apll)" 1000000000 "$(rate dout_apll)"
check_eq "PCLK_PSYS (dout_pclkp)" 66700000 "$(rate dout_pclkp)"
check_eq "PWM timer clock" 66700000 "$(rate pwm)"

# Timer: sleep 2 takes 2 s of guest time and the tick interrupts advance.
# (The host checks the same interval against its own clock.)
t0=$(cut -d' ' -f1 /proc/uptime)
i0=$(irq_count samsung_time_irq)
echo "TIMER-START"
sleep 2
echo "TIMER-END"
t1=$(cut -d' ' -f1 /proc/uptime)
i1=$(irq_count samsung_time_irq)
d=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
if awk -v d="$d" 'BEGIN { exit !(d >= 1.5 && d <= 2.5) }'; then
	ok "sleep 2 took $d s of guest time"
else
	not_ok "sleep 2 took $d s of guest time"
fi
if [ "$i1" -gt "$i0" ]; then
	ok "timer interrupts advance ($i0 -> $i1)"
else
	not_ok "timer interrupts do not advance ($i0 -> $i1)"
fi

# The command line the host gave (the host checks its --append value).
echo "CMDLINE: $(cat /proc/cmdline)"

exit $T_FAILED
