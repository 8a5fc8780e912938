#!/usr/bin/env bash
# The camera's QEMU model: tests/qtest/s5pv210-camera-test (qemu-patches/):
# registers, reset, interrupt on VIC2 5, frames checked pixel for pixel in
# guest RAM, the buffer ring, timing and every error path.
set -u
. "$(dirname "$0")/../lib/tap.sh"
t_plan 23
. "$S5P_TOP/scripts/lib/qemu.sh"

s5p_qemu_build tests >&2
bin=$QBUILD/tests/qtest/s5pv210-camera-test
if [ ! -x "$bin" ]; then
	t_fail "s5pv210-camera-test was not built ($bin)"
	t_done
	exit
fi
# glib's TAP output: "ok N /arm/s5pv210/camera/..." lines are counted
# directly; a failed assertion aborts the binary ("Bail out!"); on the
# asan QEMU a sanitizer report fails it (s5p_qemu_qtest).
cd "$T_TMP" || exit 1
s5p_qemu_qtest s5pv210-camera-test 900
rc=$?
[ "$rc" = 0 ] || t_fail "s5pv210-camera-test exited with status $rc"
t_done
