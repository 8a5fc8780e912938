#!/usr/bin/env bash
# Boot an emulated S5PV210 board (QEMU + Debian's Linux 6.1 + busybox).
#
# usage: scripts/boot-goni.sh   [options]
#        scripts/boot-aquila.sh [options]
#        scripts/boot.sh --board goni|aquila [options]
#
# Builds whatever is missing or stale first (QEMU, kernel, device tree,
# initramfs; see docs/pipeline.md), then boots.
#
#   --append 'ARGS'   extra kernel command-line arguments (e.g. cma=... cma_map=...)
#   --cmd 'COMMAND'   run COMMAND in the guest shell, print its output, power the
#                     guest off and exit with COMMAND's exit status
#   --timeout SECONDS give up on a --cmd run after this long (default 120): QEMU
#                     is killed and the exit status is 124
#   --log FILE        also keep the guest's console log in FILE
#   --verbose         with --cmd, show the console (kernel log) on stderr too
#   --flavour NAME    the kernel flavour: "default", or "debug" (KASAN, lockdep,
#                     kmemleak, UBSAN, DMA-API and object debugging; about 10x
#                     slower, so --timeout is scaled by 6); default: $S5P_FLAVOUR
#                     or "default".  Flavours are boards/flavours/NAME.config
#   --check-log       with --cmd, fail (status 3) when the console log holds a
#                     kernel report: BUG, WARNING, Oops, KASAN, UBSAN, lockdep,
#                     DMA-API, or a kmemleak leak (the debug flavour's /init
#                     scans at the end of the run); on when S5P_CHECK_LOG=1
#   --build-only      build what is missing and stop
#   --demo [DIR]      capture 6 camera frames, encode them on the codec, and
#                     leave in DIR (default ./demo-out) the frames as PNG, the
#                     Motion-JPEG stream (.mjpeg) and each frame as .jpg
#   -h, --help        this text
#
# Without --cmd you get an interactive busybox shell on the serial console;
# leaving it powers the guest off, and Ctrl-A X quits QEMU at any time.
# Exit status with --cmd: the command's own; 124 timeout; 125 the guest ended
# without reporting one (kernel panic, crash); 3 the command succeeded but
# --check-log found a kernel report; 2 bad usage; 1 build failure.
. "$(dirname "$0")/lib/common.sh"
. "$S5P_TOP/scripts/lib/qemu.sh"
. "$S5P_TOP/scripts/lib/rootfs.sh"

usage() { sed -n '2,/^[^#]/p' "$S5P_TOP/scripts/boot.sh" | sed -n 's/^# \{0,1\}//p'; }
bad_usage() { printf 'error: %s (try --help)\n' "$1" >&2; exit 2; }

board= append= cmd= have_cmd=0 timeout=120 log= verbose=0 build_only=0 demo=
flavour=${S5P_FLAVOUR:-default} check_log=${S5P_CHECK_LOG:-0}
while [ $# -gt 0 ]; do
	case "$1" in
	--board) [ $# -ge 2 ] || bad_usage "--board needs a value"; board=$2; shift 2 ;;
	--append) [ $# -ge 2 ] || bad_usage "--append needs a value"; append=$2; shift 2 ;;
	--cmd) [ $# -ge 2 ] || bad_usage "--cmd needs a value"; cmd=$2; have_cmd=1; shift 2 ;;
	--timeout)
		[ $# -ge 2 ] || bad_usage "--timeout needs a value"
		[[ $2 =~ ^[1-9][0-9]*$ ]] || bad_usage "--timeout takes a whole number of seconds, not '$2'"
		timeout=$2; shift 2 ;;
	--log) [ $# -ge 2 ] || bad_usage "--log needs a file name"; log=$2; shift 2 ;;
	--verbose) verbose=1; shift ;;
	--flavour) [ $# -ge 2 ] || bad_usage "--flavour needs a value"; flavour=$2; shift 2 ;;
	--check-log) check_log=1; shift ;;
	--build-only) build_only=1; shift ;;
	--demo)
		demo=./demo-out
		if [ $# -ge 2 ] && [ "${2#-}" = "$2" ]; then demo=$2; shift; fi
		[ -n "$demo" ] || bad_usage "--demo takes a directory name, not an empty one"
		shift ;;
	-h | --help)
		usage
		printf '\nKernel flavours: %s\n' "$(s5p_kernel_flavours | tr '\n' ' ')"
		exit 0 ;;
	*) bad_usage "unknown option '$1'" ;;
	esac
done
# (grep reads all of its input: -q would close the pipe early, and
# s5p_kernel_flavours would die of SIGPIPE under pipefail.)
s5p_kernel_flavours | grep -xF -- "$flavour" >/dev/null ||
	bad_usage "unknown kernel flavour '$flavour' (one of: $(s5p_kernel_flavours | tr '\n' ' '))"
# A flavour's fragment may ask for longer timeouts ("# s5p-timeout-scale: N").
frag=$(s5p_kernel_fragment "$flavour")
tscale=$(sed -n 's/^# s5p-timeout-scale: *\([0-9]*\)$/\1/p' "${frag:-/dev/null}" | head -n1)
[ -z "$tscale" ] || timeout=$((timeout * tscale))

# Board: console UART, and the UART that carries --cmd output (the second
# -serial, which the machine gives to the first UART after the console).
case "$board" in
goni) console=ttySAC0 outtty=ttySAC1 ;;
aquila) console=ttySAC2 outtty=ttySAC0 ;;
'') bad_usage "no board given (--board goni or --board aquila)" ;;
*) bad_usage "unknown board '$board' (goni or aquila)" ;;
esac

if [ -n "$demo" ]; then
	[ $have_cmd = 0 ] || bad_usage "--demo runs its own command: leave out --cmd"
	mkdir -p "$demo" 2>/dev/null && [ -w "$demo" ] ||
		bad_usage "--demo: cannot write to the directory '$demo'"
	cmd=/tests/codec-demo.sh have_cmd=1
fi

# Install what is missing (first run on a fresh machine), then build what
# is stale.  Each step is cached by the hash of its inputs.
if ! "$S5P_TOP/scripts/setup.sh" --check >/dev/null 2>&1; then
	s5p_log "first run: installing the Debian packages the project needs"
	"$S5P_TOP/scripts/setup.sh" || exit 1
fi
s5p_qemu_build
s5p_kernel_build "$board" "$flavour"
s5p_dtb "$board"
s5p_rootfs
[ $build_only = 0 ] || { s5p_log "built ($flavour flavour): $QEMU, $KIMAGE, $DTB, $ROOTFS"; exit 0; }

mkdir -p "$S5P_CACHE/runs" "$S5P_CACHE/logs"
run=$(mktemp -d "$S5P_CACHE/runs/$board-XXXXXX")
qpid=
cleanup() {
	[ -z "$qpid" ] || kill "$qpid" 2>/dev/null
	rm -rf "$run"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

kargs="console=$console,115200n8 earlycon panic=-1"
qemu_args=(-M "$board" -kernel "$KIMAGE" -dtb "$DTB" -display none -no-reboot)

if [ $have_cmd = 0 ]; then
	s5p_log "booting $board (Ctrl-A X quits QEMU)"
	exec "$QEMU" "${qemu_args[@]}" -initrd "$ROOTFS" -append "$kargs $append" \
		-serial mon:stdio
fi

# --cmd: the command travels as a second cpio archive appended to the
# initramfs (/etc/s5p/cmd), so any characters are safe.
s5p_gen_init_cpio
printf '%s\n' "$cmd" >"$run/cmd"
printf 'dir /etc 0755 0 0\ndir /etc/s5p 0755 0 0\nfile /etc/s5p/cmd %s 0644 0 0\n' \
	"$run/cmd" >"$run/cmd.list"
"$GEN_INIT_CPIO" "$run/cmd.list" | gzip -n >"$run/cmd.cpio.gz" ||
	s5p_die "cannot build the command archive"
cat "$ROOTFS" "$run/cmd.cpio.gz" >"$run/initrd"
: >"$run/console.log"
: >"$run/out.log"

# The console (kernel log) goes to a file; the command's output has a UART
# of its own, so kernel messages never mix into it.
timeout -k 5 "$timeout" "$QEMU" "${qemu_args[@]}" -initrd "$run/initrd" \
	-append "$kargs s5p.out=$outtty $append" -monitor none \
	-serial "file:$run/console.log" -serial "file:$run/out.log" \
	</dev/null >"$run/qemu.log" 2>&1 &
qpid=$!
if [ -z "$demo" ]; then
	tail -n +1 -s 0.2 -f --pid="$qpid" "$run/out.log" &
else
	# the demo's files come base64 over the UART: show progress only
	s5p_log "demo: booting $board, capturing and encoding"
	tail -n +1 -s 0.2 -f --pid="$qpid" "$run/out.log" | grep --line-buffered '^demo:' &
fi
tailpid=$!
[ $verbose = 0 ] || tail -n +1 -s 0.2 -f --pid="$qpid" "$run/console.log" >&2 &
wait "$qpid"
qrc=$?
qpid=
wait "$tailpid" 2>/dev/null

cp "$run/console.log" "$S5P_CACHE/logs/$board-console.log"
cp "$run/qemu.log" "$S5P_CACHE/logs/$board-qemu.log"
# A sanitizer QEMU (S5P_QEMU_FLAVOUR=asan) that reported anything failed,
# whatever the guest said.
if s5p_qemu_san_report "$run/qemu.log" >"$run/san"; then
	printf 'error: QEMU (%s build) reported a sanitizer error (log: %s):\n' \
		"${S5P_QEMU_FLAVOUR:-plain}" "$S5P_CACHE/logs/$board-qemu.log" >&2
	head -n 8 "$run/san" | sed 's/^/    /' >&2
	exit 125
fi
[ -z "$log" ] || cp "$run/console.log" "$log"
clog=$S5P_CACHE/logs/$board-console.log

# /init writes it to the kernel log and to the console (kept when "quiet"
# hides the kernel log).
status=$(sed -n 's/^\(\[ *[0-9.]*\] \)\{0,1\}S5P-EXIT \([0-9]*\)\r\{0,1\}$/\2/p' "$run/console.log" | tail -n1)
if [ "$check_log" = 1 ] && s5p_kernel_reports "$run/console.log" >"$run/reports"; then
	printf 'error: the kernel log holds %s report line(s) (%s flavour; console log: %s):\n' \
		"$(wc -l <"$run/reports")" "$flavour" "${log:-$clog}" >&2
	head -n 8 "$run/reports" | sed 's/^/    /' >&2
	[ "${status:-1}" != 0 ] || status=3
fi
if [ -n "$status" ]; then
	if [ -n "$demo" ] && [ "$status" = 0 ]; then
		# decode and check on the host, write the files
		python3 "$S5P_TOP/tests/suites/codec_check.py" extract "$demo" <"$run/out.log" \
			>"$run/demo.log"
		status=$?
		sed -n 's/^# wrote /wrote /p' "$run/demo.log"
		grep -c '^ok - ' "$run/demo.log" | sed 's/.*/& frames decoded by djpeg, PSNR against the camera pattern >= 30 dB:/'
		grep -E '^(not )?ok - ' "$run/demo.log" | sed 's/^/    /'
		[ "$status" = 0 ] || printf 'error: the demo stream did not check out (above)\n' >&2
	fi
	exit "$status"
fi
if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
	if grep -q 'S5P-RUN' "$run/console.log"; then
		what="the command did not finish"
	elif grep -q 'Run /init' "$run/console.log"; then
		what="the kernel started /init but the command never started"
	else
		what="the kernel did not reach userspace"
	fi
	printf 'error: %s within %ss; QEMU was killed (console log: %s)\n' "$what" "$timeout" "$clog" >&2
	tail -n 8 "$run/console.log" | sed 's/^/    /' >&2
	exit 124
fi
if [ "$qrc" != 0 ]; then
	printf 'error: QEMU failed (exit %s): %s\n' "$qrc" "$(tail -n 3 "$run/qemu.log" | tr '\n' ' ')" >&2
	exit 125
fi
printf 'error: the guest stopped without reporting an exit status (panic or crash?); console log: %s\n' "$clog" >&2
tail -n 8 "$run/console.log" | sed 's/^/    /' >&2
exit 125
