#!/usr/bin/env bash
# The camera's QEMU model: tests/qtest/s5pv210-camera-test (qemu-patches/):
# registers, reset, interrupt on VIC2 5, frames checked pixel for pixel in
# guest RAM, the buffer ring, timing and every error path.
. "$(dirname "$0")/../lib/tap.sh"
t_plan 13
. "$S5P_TOP/scripts/lib/qemu.sh"

s5p_qemu_build tests >&2
bin=$QBUILD/tests/qtest/s5pv210-camera-test
if [ ! -x "$bin" ]; then
	t_fail "s5pv210-camera-test was not built ($bin)"
	t_done
	exit
fi
# glib's TAP output: "ok N /arm/s5pv210/camera/..." lines are counted
# directly; a failed assertion aborts the binary ("Bail out!").
(cd "$T_TMP" && QTEST_QEMU_BINARY=$QEMU timeout 600 "$bin" --tap -k) 2>&1 |
	grep -vE '^# starting QEMU'
rc=${PIPESTATUS[0]}
[ "$rc" = 0 ] || t_fail "s5pv210-camera-test exited with status $rc"
t_done
