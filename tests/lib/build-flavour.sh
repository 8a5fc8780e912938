#!/usr/bin/env bash
# A build job of tests/run.sh (docs/testing.md, "Two lanes"): what the boots
# of one kernel flavour need, built in a lane while the suites of the
# flavours already built run in the other, so that a cold run's builds and
# suites overlap:
#
#   tests/lib/build-flavour.sh FLAVOUR QEMU LOGDIR BOARD...
#
# builds, for each BOARD, what "scripts/boot-BOARD.sh --build-only --flavour
# FLAVOUR" builds (the QEMU build QEMU, plain or asan, the kernel, the
# device tree, the initramfs), its log in LOGDIR/build-FLAVOUR-BOARD.log
# (the same file as an up-front build's), and says so as one check a
# board.  The suites on FLAVOUR start once this job has ended.  Boots of
# the flavours already built do not wait for it: an up-to-date build takes
# no lock (scripts/lib/kernel.sh, qemu.sh); what needs the kernel tree's
# lock or the build lock (a host build, kmod.sh) waits for the compile
# step that holds it.
# s5p-timeout: 1800
. "$(dirname "$0")/tap.sh"

flavour=$1 qemu=$2 logdir=$3
shift 3
t_plan $#
for board; do
	log=$logdir/build-$flavour-$board.log
	t0=$(date +%s)
	# (this run's own file until the step ends, as tests/run.sh's build())
	env S5P_QEMU_FLAVOUR="$qemu" "$S5P_TOP/scripts/boot-$board.sh" --build-only \
		--flavour "$flavour" </dev/null >"$log.$$" 2>&1
	rc=$?
	mv -f "$log.$$" "$log"
	t_check "build: $board, $flavour kernel, $qemu QEMU ($(($(date +%s) - t0)) s; log: $log)" [ "$rc" = 0 ]
	[ "$rc" = 0 ] || tail -n 15 "$log" | sed 's/^/#   /'
	grep -E '^==> .*(ready|done in)|^    .*: done in' "$log" | sed 's/^/# /'
done
t_done
