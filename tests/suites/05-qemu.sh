#!/usr/bin/env bash
# QEMU device tests (tests/qtest/s5pv210-test from qemu-patches/), a short
# fixed-seed run of the hostile-programming qtest (s5pv210-hostile-test,
# 8 devices; scripts/hostile-qemu.sh runs the long one, docs/qemu.md) and
# the machines' handling of bad options, and QEMU's checkpatch.pl on every
# patch of qemu-patches/.  On the asan QEMU (what
# tests/run.sh uses) a sanitizer report fails the run it appears in.
# s5p-timeout: 1800
set -u
. "$(dirname "$0")/../lib/tap.sh"
t_plan 36
. "$S5P_TOP/scripts/lib/qemu.sh"

s5p_qemu_build tests >&2
t_check "qemu-system-arm lists the goni and aquila machines" \
	bash -c "'$QEMU' -M help | grep -q '^goni ' && '$QEMU' -M help | grep -q '^aquila '"

# glib's TAP output: "ok N /arm/s5pv210/..." lines are counted directly.
cd "$T_TMP" || exit 1
s5p_qemu_qtest s5pv210-test 300
rc=$?
[ "$rc" = 0 ] || t_fail "s5pv210-test exited with status $rc"

# The hostile run of make check: fixed seeds, 50 sequences per device.
S5P_HOSTILE_SEED=1 S5P_HOSTILE_SEQS=${S5P_HOSTILE_SEQS:-50} S5P_HOSTILE_OPS=64 \
	S5P_HOSTILE_DEVICE='' S5P_HOSTILE_SECONDS='' s5p_qemu_qtest s5pv210-hostile-test 900
rc=$?
[ "$rc" = 0 ] || t_fail "s5pv210-hostile-test exited with status $rc (the failing seed is printed above)"

# (QEMU's output is not pasted into a command line: the asan build's
# start-up warning holds an apostrophe.)
mem=$(. "$S5P_TOP/boards/goni/board.conf" && echo "$BOARD_MEM_MIB")
out=$("$QEMU" -M goni -m 256M -display none 2>&1)
rc=$?
if [ "$rc" != 0 ] && grep -q "exactly $mem MiB" <<<"$out"; then
	t_pass "goni refuses a RAM size other than its $mem MiB (boards/goni/board.conf), with a message"
else
	t_fail "goni refuses a RAM size other than its $mem MiB (boards/goni/board.conf), with a message (status $rc)"
	printf '%s\n' "$out" | head -n 5 | sed 's/^/#   /'
fi

# QEMU's own checkpatch.pl on every patch of the series (scripts/series.sh
# qemu check): no errors, and no warning but the one QEMU's checkpatch
# gives every new file ("does MAINTAINERS need updating?"), which the
# series answers (a patch adds the files to MAINTAINERS).
qemu_checkpatch_clean() {
	local out bad
	local rc=0
	out=$("$S5P_TOP/scripts/series.sh" qemu check 2>&1) || rc=$?
	# Each report that is not the MAINTAINERS warning, after its patch's name.
	bad=$(printf '%s\n' "$out" | awk '/^[^ ].*: (clean|passed|FAILED)/ { p = $1 }
		/^ +(WARNING|ERROR):/ && !/does MAINTAINERS need updating\?$/ { print p, $0 }')
	if [ "$rc" != 0 ] || [ -n "$bad" ]; then
		if [ -n "$bad" ]; then printf '%s\n' "$bad"; else printf '%s\n' "$out" | tail -n 20; fi
		return 1
	fi
	grep -q '^+++ b/MAINTAINERS$' "$S5P_TOP"/qemu-patches/[0-9]*.patch ||
		{ echo "no patch of the series updates MAINTAINERS"; return 1; }
}
t_check "QEMU's checkpatch.pl passes every patch of qemu-patches/ (no warning but MAINTAINERS)" \
	qemu_checkpatch_clean

# The machines' Kconfig, on hosts with and without libjpeg and virtfs
# (QEMU's scripts/minikconf.py, as meson runs it, on the tree built
# above): goni and aquila always build, with the codec and the JPEG block
# only where libjpeg is, virtio-9p only where virtfs is, and the
# virtio-mmio transports belong to the boards, not to the SoC.
qemu_kconfig_hosts() {
	local h x out bad=0 host mak mode
	for h in "LIBJPEG VIRTFS" "VIRTFS" "LIBJPEG" ""; do
		host=(CONFIG_LINUX=y CONFIG_TCG=y CONFIG_ARM=y)
		for x in $h; do host+=("CONFIG_$x=y"); done
		for mode in "--allnoconfig s5pv210" "--defconfig default"; do
			mak=${mode#* }
			out=$(cd "$QSRC" && python3 scripts/minikconf.py "${mode% *}" out.mak "$T_TMP/kconfig.d" \
				"configs/devices/arm-softmmu/$mak.mak" Kconfig "${host[@]}" 2>&1) || {
				echo "host [${h:-nothing}], $mak.mak: minikconf failed:"
				printf '%s\n' "$out" | grep -v '^ *File\|^Traceback\|^    ' | head -n 4
				bad=1; continue
			}
			want() { # SYMBOL y|n
				if grep -qx "CONFIG_$1=y" <<<"$out"; then [ "$2" = y ]; else [ "$2" = n ]; fi ||
					{ echo "host [${h:-nothing}], $mak.mak: CONFIG_$1 should be $2"; bad=1; }
			}
			want S5PV210 y
			want VIRTIO_MMIO y
			want S5PV210_CAMERA y
			want S5PV210_CODEC "$([[ $h == *LIBJPEG* ]] && echo y || echo n)"
			want S5PV210_JPEG "$([[ $h == *LIBJPEG* ]] && echo y || echo n)"
			want VIRTIO_9P "$([[ $h == *VIRTFS* ]] && echo y || echo n)"
		done
	done
	# The SoC alone (another board's): no virtio-mmio transports.
	printf 'CONFIG_S5PV210_SOC=y\n' >"$T_TMP/soc.mak"
	out=$(cd "$QSRC" && python3 scripts/minikconf.py --allnoconfig out.mak "$T_TMP/kconfig.d" \
		"$T_TMP/soc.mak" Kconfig CONFIG_LINUX=y CONFIG_TCG=y CONFIG_ARM=y CONFIG_LIBJPEG=y \
		CONFIG_VIRTFS=y 2>&1) || { echo "the SoC alone: minikconf failed"; bad=1; }
	if grep -qx 'CONFIG_VIRTIO_MMIO=y' <<<"$out"; then
		echo "the SoC alone selects VIRTIO_MMIO (the boards' transports)"; bad=1
	fi
	return "$bad"
}
t_check "Kconfig: goni and aquila build without libjpeg or virtfs (codec, JPEG, 9p optional), the transports are the boards'" \
	qemu_kconfig_hosts
t_done
