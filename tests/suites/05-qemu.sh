#!/usr/bin/env bash
# QEMU device tests (tests/qtest/s5pv210-test from qemu-patches/) and the
# machines' handling of bad options.
. "$(dirname "$0")/../lib/tap.sh"
t_plan 16
. "$S5P_TOP/scripts/lib/qemu.sh"

s5p_qemu_build tests >&2
t_check "qemu-system-arm lists the goni and aquila machines" \
	bash -c "'$QEMU' -M help | grep -q '^goni ' && '$QEMU' -M help | grep -q '^aquila '"

# glib's TAP output: "ok N /arm/s5pv210/..." lines are counted directly.
(cd "$T_TMP" && QTEST_QEMU_BINARY=$QEMU timeout 300 "$QBUILD/tests/qtest/s5pv210-test" --tap -k) 2>&1 |
	grep -vE '^# starting QEMU'
rc=${PIPESTATUS[0]}
[ "$rc" = 0 ] || t_fail "s5pv210-test exited with status $rc"

out=$("$QEMU" -M goni -m 256M -display none 2>&1)
rc=$?
t_check "goni refuses a RAM size other than its 464 MiB, with a message" \
	bash -c "[ $rc != 0 ] && grep -q 'exactly 464 MiB' <<<'$out'"
t_done
