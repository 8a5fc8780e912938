#!/usr/bin/env bash
# s5p-flavours: default debug
# s5p-qemu: plain (the kernel's 9p and CMA paths, whose sanitizers are the debug pass's; QEMU's devices run under ASan in the device suites and the qtests)
# s5p-debug-scenarios: goni:main
# s5p-lava: no (the host side of the driver author's loop: a host folder in the guest, modules built on the host)
# The driver author's loop: a host folder in the guest (boot.sh --share DIR,
# virtio-9p on the machines' virtio-mmio transports, /host in the guest)
# and out-of-tree modules (scripts/kmod.sh DIR, boot.sh --module FILE.ko).
#   goni main: tests/kmod/hello built by kmod.sh and loaded with --module,
#       its printk read in the guest and, through the share, on the host; a
#       host file read in the guest, guest files on the host after --cmd,
#       and both ways while the guest runs (a file each side waits for);
#   aquila share: the same share checks, no module;
#   goni fail: a module whose init fails: status 4, its kernel log shown,
#       the command not run;
#   bad input (no boot): a missing, non-directory or unwritable --share
#       DIR, a missing --module file, kmod.sh on no directory and on a
#       module that does not compile.
# On the debug kernel: goni main only (one boot; docs/testing.md).
set -u
. "$(dirname "$0")/../lib/tap.sh"
t_plan 28 debug=8

flavour=${S5P_FLAVOUR:-default}

# ---- kmod.sh: the test module, built in a copy (M= writes next to it) ----
cp -r "$S5P_TOP/tests/kmod" "$T_TMP/kmod"
"$S5P_TOP/scripts/kmod.sh" --board goni --flavour "$flavour" "$T_TMP/kmod/hello" \
	>"$T_TMP/kmod.out" 2>"$T_TMP/kmod.err"
rc=$?
hello=$(head -n1 "$T_TMP/kmod.out")
t_check "kmod.sh builds tests/kmod/hello for goni ($flavour) and prints its .ko (status $rc)" \
	bash -c "[ $rc = 0 ] && [ '$hello' = '$T_TMP/kmod/hello/s5p_hello.ko' ] && [ -s '$hello' ]"
[ "$rc" = 0 ] || tail -n 15 "$T_TMP/kmod.err" | sed 's/^/#   /'

# share_boot BOARD SCENARIO [boot.sh options...]: the share both ways,
# with a file each side waits for while the guest runs.
share_boot() {
	local board=$1 scenario=$2
	local share=$T_TMP/share-$board-$scenario log=$T_TMP/$board-$scenario-console.log
	local token=tok-$board-$$-$RANDOM pid seen=0
	shift 2
	mkdir -p "$share/in"
	printf 'from the host: %s\n' "$token" >"$share/in/from-host.txt"
	# The guest: reads the host's file, writes its own (and a directory),
	# then waits for the host's answer to its "ping".
	# shellcheck disable=SC2016 # (the guest's command, expanded there)
	"$S5P_TOP/scripts/boot-$board.sh" --share "$share" --log "$log" --timeout 300 "$@" --cmd '
		cat /host/in/from-host.txt || exit 10
		echo "from the guest: $(uname -r) $(cat /host/in/from-host.txt)" >/host/from-guest.txt || exit 11
		mkdir -p /host/out && dmesg >/host/out/dmesg.txt && lsmod >/host/out/lsmod.txt || exit 12
		echo ping >/host/ping
		i=0
		while [ ! -f /host/pong ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done
		cat /host/pong || exit 13' >"$T_TMP/$board-$scenario.out" 2>"$T_TMP/$board-$scenario.err" &
	pid=$!
	# The host: waits for the guest's ping while the guest runs, answers.
	for _ in $(seq 1 600); do
		if [ -f "$share/ping" ]; then
			kill -0 "$pid" 2>/dev/null && seen=1
			printf 'pong %s\n' "$token" >"$share/pong"
			break
		fi
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.5
	done
	wait "$pid"
	rc=$?
	t_check "$board $scenario: --share --cmd exits with status 0 (got $rc)" [ "$rc" = 0 ]
	[ "$rc" = 0 ] || { tail -n 8 "$T_TMP/$board-$scenario.err"; tail -n 5 "$log"; } | sed 's/^/#   /'
	t_check "$board $scenario: the guest read the host's file in /host" \
		grep -qx "from the host: $token" "$T_TMP/$board-$scenario.out"
	t_check "$board $scenario: the guest's files are on the host when --cmd returns" \
		bash -c "grep -q ' from the host: $token\$' '$share/from-guest.txt' && [ -s '$share/out/dmesg.txt' ]"
	t_check "$board $scenario: both ways while the guest runs (host saw its ping: $seen; guest read the pong)" \
		bash -c "[ $seen = 1 ] && grep -qx 'pong $token' '$T_TMP/$board-$scenario.out'"
	t_no_reports "$board $scenario: no kernel report in the console log" "$log"
	SHARE=$share
}

# ---- goni main: the module and the share ----
if t_wanted goni main; then
	share_boot goni main --module "$hello"
	t_check "goni main: --module loaded s5p_hello before the command (lsmod, through the share)" \
		grep -q '^s5p_hello ' "$SHARE/out/lsmod.txt"
	t_check "goni main: its printk is in the kernel log (dmesg, through the share)" \
		grep -q 's5p_hello: hello, world (page at 0x' "$SHARE/out/dmesg.txt"
fi

# ---- aquila: the share ----
t_wanted aquila share && share_boot aquila share

# ---- goni fail: a module that does not load ----
if t_wanted goni fail; then
	"$S5P_TOP/scripts/kmod.sh" "$T_TMP/kmod/fail" >"$T_TMP/fail.out" 2>"$T_TMP/fail.err"
	fail=$(head -n1 "$T_TMP/fail.out")
	mkdir -p "$T_TMP/share-fail"
	log=$T_TMP/goni-fail-console.log
	"$S5P_TOP/scripts/boot-goni.sh" --share "$T_TMP/share-fail" --module "$hello" --module "$fail" \
		--log "$log" --cmd 'touch /host/the-command-ran' >"$T_TMP/fail-boot.out" 2>"$T_TMP/fail-boot.err"
	rc=$?
	t_check "goni fail: a module whose init fails ends the boot with status 4 (got $rc)" [ "$rc" = 4 ]
	t_check "goni fail: its insmod error and kernel log are shown" \
		bash -c "grep -q 'error: the module s5p_fail.ko did not load' '$T_TMP/fail-boot.out' &&
			grep -q 's5p_fail: refusing to load, as asked' '$T_TMP/fail-boot.out'"
	t_check "goni fail: the host is told in one line on stderr, naming the module" \
		bash -c "[ \$(wc -l <'$T_TMP/fail-boot.err') = 1 ] && grep -q 'module s5p_fail.ko did not load' '$T_TMP/fail-boot.err'"
	t_check "goni fail: the command did not run" [ ! -e "$T_TMP/share-fail/the-command-ran" ]
	t_check "goni fail: the module before it was loaded (its printk on the console)" \
		grep -q 's5p_hello: hello, world' "$log"
	t_no_reports "goni fail: no kernel report in the console log" "$log"
fi

# ---- bad input: one line, status 2, nothing booted ----
if [ "$flavour" = default ]; then
	# bad CASE WANT ARGS...: boot.sh ARGS exits 2 with one line holding
	# WANT, fast (with --cmd, so that a wrong pass does not hang here).
	bad() {
		local what=$1 want=$2 t0 rc
		shift 2
		t0=$(date +%s)
		"$S5P_TOP/scripts/boot-goni.sh" "$@" >"$T_TMP/bad.out" 2>"$T_TMP/bad.err"
		rc=$?
		t_check "$what: status 2 with one line, before booting (status $rc, $(($(date +%s) - t0)) s)" \
			bash -c "[ $rc = 2 ] && [ ! -s '$T_TMP/bad.out' ] && [ \$(wc -l <'$T_TMP/bad.err') = 1 ] &&
				grep -q -- \"$want\" '$T_TMP/bad.err' && [ $(($(date +%s) - t0)) -lt 20 ]"
	}
	touch "$T_TMP/a-file"
	bad "--share of a missing directory" "is not a directory" --share "$T_TMP/no-such-dir" --cmd true
	bad "--share of a file" "is not a directory" --share "$T_TMP/a-file" --cmd true
	# (root writes anywhere the permissions say no; /proc refuses new files)
	bad "--share of an unwritable directory" "cannot write to the directory" --share /proc/self --cmd true
	bad "--module of a missing file" "no readable file" --module "$T_TMP/no-such.ko" --cmd true
	bad "--module of a file that is not a .ko" "is not a .ko file" --module "$T_TMP/a-file" --cmd true
	bad "--demo with --share" "leave out --share" --demo "$T_TMP/demo-x" --share "$T_TMP"

	"$S5P_TOP/scripts/kmod.sh" "$T_TMP/no-such-dir" >/dev/null 2>"$T_TMP/kbad.err"
	rc=$?
	t_check "kmod.sh on a missing directory: status 2, one line (got $rc)" \
		bash -c "[ $rc = 2 ] && [ \$(wc -l <'$T_TMP/kbad.err') = 1 ]"
	mkdir -p "$T_TMP/kmod/broken"
	echo 'obj-m += s5p_broken.o' >"$T_TMP/kmod/broken/Kbuild"
	printf '#include <linux/module.h>\nint s5p_broken(void) { return undeclared_thing; }\nMODULE_LICENSE("GPL");\n' \
		>"$T_TMP/kmod/broken/s5p_broken.c"
	"$S5P_TOP/scripts/kmod.sh" "$T_TMP/kmod/broken" >"$T_TMP/kbroken.out" 2>"$T_TMP/kbroken.err"
	rc=$?
	t_check "kmod.sh on a module that does not compile: status 1, the compiler's error shown (got $rc)" \
		bash -c "[ $rc = 1 ] && [ ! -s '$T_TMP/kbroken.out' ] && grep -q 'undeclared_thing' '$T_TMP/kbroken.err'"
	t_check "boot.sh --help documents --share, --module and status 4" \
		bash -c "'$S5P_TOP/scripts/boot.sh' --help | grep -q -- '--share DIR' &&
			'$S5P_TOP/scripts/boot.sh' --help | grep -q -- '--module FILE.ko' &&
			'$S5P_TOP/scripts/boot.sh' --help | grep -q '4 a --module did not load'"
fi
t_done
