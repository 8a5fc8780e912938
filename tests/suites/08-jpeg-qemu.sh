#!/usr/bin/env bash
# The JPEG block's QEMU model: tests/qtest/s5pv210-jpeg-test (qemu-patches/):
# registers and table RAM, SW_RESET, the interrupt on VIC2 8, encodes
# (YUYV, RGB565; 4:2:2, 4:2:0, a restart interval) with the programmed
# tables decoded back by the device and compared, the stream bound, bad
# streams and buffers, a reset during a job, a job held behind a reset one
# starting when that one ends, migration.
set -u
. "$(dirname "$0")/../lib/tap.sh"
t_plan 8
. "$S5P_TOP/scripts/lib/qemu.sh"

s5p_qemu_build tests >&2
bin=$QBUILD/tests/qtest/s5pv210-jpeg-test
if [ ! -x "$bin" ]; then
	t_fail "s5pv210-jpeg-test was not built ($bin)"
	t_done
	exit
fi
# glib's TAP output: "ok N /arm/s5pv210/jpeg/..." lines are counted
# directly; a failed assertion aborts the binary ("Bail out!"); on the
# asan QEMU a sanitizer report fails it (s5p_qemu_qtest).
cd "$T_TMP" || exit 1
s5p_qemu_qtest s5pv210-jpeg-test 900
rc=$?
[ "$rc" = 0 ] || t_fail "s5pv210-jpeg-test exited with status $rc"
t_done
