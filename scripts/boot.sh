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
#   --log FILE        also keep the guest's console log in FILE (and QEMU's own
#                     output, where a sanitizer report goes, in FILE.qemu)
#   --verbose         with --cmd, show the console (kernel log) on stderr too
#   --flavour NAME    the kernel flavour: "default", or "debug" (KASAN, lockdep,
#                     kmemleak, UBSAN, DMA-API and object debugging; about 10x
#                     slower, so --timeout is scaled by 6); default: $S5P_FLAVOUR
#                     or "default".  Flavours are boards/flavours/NAME.config
#   --check-log       with --cmd, fail (status 3) when the console log holds a
#                     kernel report: BUG, WARNING, Oops, KASAN, UBSAN, lockdep,
#                     DMA-API, or a kmemleak leak (the debug flavour's /init
#                     scans at the end of the run); on when S5P_CHECK_LOG=1
#   --allow-report NAME  with --check-log, this boot provokes the report NAME
#                     on purpose and passes with it (only its lines: any
#                     other report still fails the run): oom (an OOM kill),
#                     alloc-failure (page allocation failure), irq-storm
#                     (irq N: nobody cared); repeatable
#   --share DIR       the host directory DIR is /host in the guest, readable
#                     and writable both ways while the guest runs (virtio-9p);
#                     the guest's writes are in DIR when --cmd returns.  A
#                     missing or unwritable DIR: one line, status 2
#   --dtb FILE        boot with the device tree blob FILE instead of the
#                     board's (your own, e.g. with reserved-memory nodes)
#   --module FILE.ko  load FILE.ko (built by scripts/kmod.sh) in the guest
#                     before --cmd runs or the shell starts; repeatable, loaded
#                     in the order given.  One that does not load: its error
#                     and kernel log are printed and the status is 4.  A
#                     device that FILE.ko has an alias for (its
#                     MODULE_DEVICE_TABLE, e.g. qemu,s5pv210-camera) gets no
#                     driver of the image: FILE.ko binds to it
#   --build-only      build what is missing and stop
#   --dry-run         say what would be built ("would build: ..." lines, or
#                     "up to date"), build nothing, boot nothing
#   --demo [DIR]      capture 6 camera frames, encode them on the codec, and
#                     leave in DIR (default ./demo-out; the guest writes it
#                     through --share) the frames as PNG, the raw capture
#                     (.yuyv), the Motion-JPEG stream (.mjpeg), each frame
#                     as .jpg, and the same camera through a GStreamer
#                     pipeline (v4l2src ! v4l2jpegenc, zero copy; the guest
#                     prints it) as gstreamer/frame-NN.jpg
#   -h, --help        this text
#
# Without --cmd you get an interactive busybox shell on the serial console;
# leaving it powers the guest off, and Ctrl-A X quits QEMU at any time.
# Exit status with --cmd: the command's own; 124 timeout; 125 the guest ended
# without reporting one (kernel panic, crash); 3 the command succeeded but
# --check-log found a kernel report; 4 a --module did not load (the command
# did not run); 2 bad usage; 1 build failure.
set -u
. "$(dirname "$0")/lib/common.sh"
. "$S5P_TOP/scripts/lib/qemu.sh"
. "$S5P_TOP/scripts/lib/rootfs.sh"

usage() { sed -n '2,/^[^#]/p' "$S5P_TOP/scripts/boot.sh" | sed -n 's/^# \{0,1\}//p'; }
bad_usage() { printf 'error: %s (try --help)\n' "$1" >&2; exit 2; }

# parse_args ARGS...: the options, into the boot's settings (globals that
# the steps below read).
parse_args() {
	local why
	board='' append='' cmd='' have_cmd=0 timeout=120 log='' verbose=0 build_only=0 demo='' share='' dtb=''
	modules=() allow=()
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
		--allow-report)
			[ $# -ge 2 ] || bad_usage "--allow-report needs a name"
			why=$(s5p_report_allowance "$2" 2>&1 >/dev/null) || bad_usage "--allow-report: $why"
			allow+=("$2"); shift 2 ;;
		--build-only) build_only=1; shift ;;
		--share) [ $# -ge 2 ] || bad_usage "--share needs a directory"; share=$2; shift 2 ;;
		--dtb)
			[ $# -ge 2 ] || bad_usage "--dtb needs a .dtb file"
			[[ -f $2 && -r $2 ]] || bad_usage "--dtb: no readable file '$2'"
			dtb=$(realpath "$2"); shift 2 ;;
		--module)
			[ $# -ge 2 ] || bad_usage "--module needs a .ko file"
			[[ -f $2 && -r $2 ]] || bad_usage "--module: no readable file '$2'"
			[[ $2 == *.ko ]] || bad_usage "--module: '$2' is not a .ko file (build one with scripts/kmod.sh)"
			modules+=("$(realpath "$2")"); shift 2 ;;
		--dry-run) export S5P_DRY_RUN=1; build_only=1; shift ;;
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
}

# scaled_timeout FLAVOUR SECONDS: SECONDS times the flavour's scale (its
# fragment's "# s5p-timeout-scale: N", when it has one).  An unknown
# flavour is bad usage.
scaled_timeout() {
	local frag tscale
	# (grep reads all of its input: -q would close the pipe early, and
	# s5p_kernel_flavours would die of SIGPIPE under pipefail.)
	s5p_kernel_flavours | grep -xF -- "$1" >/dev/null ||
		bad_usage "unknown kernel flavour '$1' (one of: $(s5p_kernel_flavours | tr '\n' ' '))"
	frag=$(s5p_kernel_fragment "$1")
	tscale=$(sed -n 's/^# s5p-timeout-scale: *\([0-9]*\)$/\1/p' "${frag:-/dev/null}" | head -n1)
	echo $(($2 * ${tscale:-1}))
}

# load_board BOARD: boards/BOARD/board.conf (BOARD_CONSOLE, the console
# UART, and BOARD_OUTPUT, the UART that carries --cmd output: the second
# -serial, which the machine gives to the first UART after the console).
load_board() {
	local boards
	boards=$(cd "$S5P_TOP/boards" && printf '%s\n' */board.conf | sed 's,/board.conf$,,' | tr '\n' ' ')
	[ -n "$1" ] || bad_usage "no board given (--board with one of: $boards)"
	[[ $1 != */* && -f $S5P_TOP/boards/$1/board.conf ]] ||
		bad_usage "unknown board '$1' (one of: $boards)"
	# shellcheck source=../boards/goni/board.conf
	. "$S5P_TOP/boards/$1/board.conf"
}

# use_demo: --demo runs the demo's command, with its directory shared (the
# guest writes the demo's files straight into it, /host).
use_demo() {
	[ "$have_cmd" = 0 ] || bad_usage "--demo runs its own command: leave out --cmd"
	{ mkdir -p "$demo" 2>/dev/null && [ -w "$demo" ]; } ||
		bad_usage "--demo: cannot write to the directory '$demo'"
	[ -z "$share" ] || bad_usage "--demo shares its own directory: leave out --share"
	share=$demo
	cmd=/usr/lib/s5p/codec-demo.sh have_cmd=1
}

# check_share DIR: the shared directory exists and is writable; checked
# before anything is built or booted.
check_share() {
	local probe
	[ -d "$1" ] || bad_usage "--share: '$1' is not a directory"
	{ probe=$(mktemp -p "$1" .s5p-share-XXXXXX 2>/dev/null) && rm -f "$probe"; } ||
		bad_usage "--share: cannot write to the directory '$1'"
}

# record_boot FILE: S5P_BOOT_RECORD=FILE builds and boots nothing; it
# appends what this boot would be to FILE, one line of shell words
# (printf %q):
#   boot BOARD FLAVOUR TIMEOUT KERNEL-ARGS COMMAND EXTRAS DTB SHARE
# (KERNEL-ARGS exactly as the boot would pass them: with --cmd, s5p.out=
# included; TIMEOUT after the flavour's scale; EXTRAS what the boot needs
# besides the board's kernel, device tree and initramfs: "demo", "dtb",
# "share", "module", comma-separated, or "-"; DTB a copy of --dtb's device
# tree, SHARE a tar archive of what --share's directory holds before the
# boot (what the guest finds in /host: members "./NAME", owned by root,
# time 0), each in a folder of its own under FILE.files/ and named after
# the original (BASENAME.dtb, BASENAME.tar), or "-").
# scripts/lava-jobs.sh runs the guest suites this way to write their LAVA
# jobs from the suites' own boots (the suite removes its own files when it
# ends: the copies keep them).
record_boot() {
	local extras='' rdtb=- rshare=- rdir a
	[ -z "$demo" ] || extras+=,demo
	[ -z "$dtb" ] || extras+=,dtb
	[ -z "$share" ] || [ -n "$demo" ] || extras+=,share
	[ ${#modules[@]} = 0 ] || extras+=,module
	extras=${extras#,}
	if [ -n "$dtb" ] || { [ -n "$share" ] && [ -z "$demo" ]; }; then
		mkdir -p "$1.files" && rdir=$(mktemp -d "$1.files/XXXXXX") || return 1
		if [ -n "$dtb" ]; then
			rdtb=$rdir/$(basename "$dtb" .dtb).dtb
			cp "$dtb" "$rdtb" || return 1
		fi
		if [ -n "$share" ] && [ -z "$demo" ]; then
			rshare=$rdir/$(basename "$share").tar
			tar -C "$share" --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner \
				-cf "$rshare" . || return 1
		fi
	fi
	if [ "$have_cmd" = 1 ]; then a=$kargs_cmd; else a=$kargs_shell; fi
	printf 'boot %q %q %q %q %q %q %q %q\n' "$board" "$flavour" "$timeout" "$a" "${cmd:--}" "${extras:--}" \
		"$rdtb" "$rshare" >>"$1"
}

# build_images: install what is missing (first run on a fresh machine),
# then build what is stale (QEMU, kernel, device tree, initramfs: QEMU,
# KIMAGE, KBUILD, DTB, ROOTFS).  Each step is cached by the hash of its
# inputs.  Standard output is the command's alone (--cmd), or --dry-run's
# answer (which ends the script): what setup and the builds print, and the
# tools they run (apt-get, make, ninja...), go to standard error.
build_images() {
	if ! "$S5P_TOP/scripts/setup.sh" --check >/dev/null 2>&1; then
		s5p_log "first run: installing the Debian packages the project needs"
		"$S5P_TOP/scripts/setup.sh" >&2 || exit 1
	fi
	[ "${S5P_DRY_RUN:-0}" = 1 ] || exec 3>&1 1>&2
	# shellcheck disable=SC2119 # (no argument: QEMU without its qtests)
	s5p_qemu_build
	s5p_kernel_build "$board" "$flavour"
	s5p_dtb "$board"
	s5p_rootfs
	if [ "${S5P_DRY_RUN:-0}" = 1 ]; then
		[ "$S5P_WOULD_BUILD" != 0 ] || printf 'up to date: nothing to build for %s (%s flavour)\n' "$board" "$flavour"
		exit 0
	fi
	exec 1>&3 3>&-
}

# start_run: the run's directory (run), removed at exit with the QEMU still
# running (qpid), if any.
start_run() {
	mkdir -p "$S5P_CACHE/runs" "$S5P_CACHE/logs"
	run=$(mktemp -d "$S5P_CACHE/runs/$board-XXXXXX")
	qpid=''
	trap cleanup EXIT
	trap 'exit 130' INT TERM
}
# shellcheck disable=SC2317 # (the EXIT trap's)
cleanup() {
	[ -z "$qpid" ] || kill "$qpid" 2>/dev/null
	rm -rf "$run"
}

# set_qemu_args: QEMU's arguments for the board (qemu_args), but the
# initramfs, command line and serial ports.  --share: virtio-9p on one of
# the machine's virtio-mmio transports, mount tag "host" (/init mounts it
# at /host); files are created as the user running QEMU
# (security_model=none).  QEMU wants commas in a path doubled.
set_qemu_args() {
	qemu_args=(-M "$board" -kernel "$run/zImage" -dtb "${dtb:-$DTB}" -display none -no-reboot)
	if [ -n "$share" ]; then
		qemu_args+=(-fsdev "local,id=host,path=${share//,/,,},security_model=none"
			-device "virtio-9p-device,fsdev=host,mount_tag=host")
	fi
}

# add_modules LIST: the --module files into the archive's list LIST, as
# /etc/s5p/modules.d/N-NAME, listed in /etc/s5p/modules with the modules
# they depend on, and their aliases in /etc/s5p/module-aliases: /init loads
# no driver of the image for a device they match, so the module gets it.
add_modules() {
	local i=0 m g
	s5p_need_cmd modinfo
	printf 'dir /etc/s5p/modules.d 0755 0 0\n' >>"$1"
	: >"$run/modules"
	for m in "${modules[@]}"; do
		i=$((i + 1))
		g=/etc/s5p/modules.d/$i-$(basename "$m" | tr -c "A-Za-z0-9._\n-" _)
		# (a copy: gen_init_cpio's list takes no spaces in a path)
		cp "$m" "$run/module-$i.ko" || s5p_die "cannot read $m"
		printf 'file %s %s 0644 0 0\n' "$g" "$run/module-$i.ko" >>"$1"
		printf '%s %s\n' "$g" "$(modinfo -F depends "$m" 2>/dev/null | tr , ' ')" >>"$run/modules"
		modinfo -F alias "$m" 2>/dev/null |
			awk -v m="$(basename "$m" .ko)" 'NF == 1 { print $1, m }' >>"$run/module-aliases"
	done
	printf 'file /etc/s5p/modules %s 0644 0 0\n' "$run/modules" >>"$1"
	[ ! -s "$run/module-aliases" ] ||
		printf 'file /etc/s5p/module-aliases %s 0644 0 0\n' "$run/module-aliases" >>"$1"
}

# make_initrd: print the initramfs to boot.  --cmd and --module: the
# command (/etc/s5p/cmd) and the modules travel as a second cpio archive
# appended to the image's (the kernel unpacks both), so any characters are
# safe and nothing is rebuilt.
make_initrd() {
	if [ "$have_cmd" = 0 ] && [ ${#modules[@]} = 0 ]; then
		echo "$ROOTFS"
		return 0
	fi
	s5p_gen_init_cpio
	printf 'dir /etc 0755 0 0\ndir /etc/s5p 0755 0 0\n' >"$run/extra.list"
	if [ "$have_cmd" = 1 ]; then
		printf '%s\n' "$cmd" >"$run/cmd"
		printf 'file /etc/s5p/cmd %s 0644 0 0\n' "$run/cmd" >>"$run/extra.list"
	fi
	[ ${#modules[@]} = 0 ] || add_modules "$run/extra.list"
	"$GEN_INIT_CPIO" "$run/extra.list" | gzip -n >"$run/extra.cpio.gz" ||
		s5p_die "cannot build the command archive"
	cat "$ROOTFS" "$run/extra.cpio.gz" >"$run/initrd" || s5p_die "cannot write $run/initrd"
	echo "$run/initrd"
}

# suite_timeout SECONDS: inside a test suite (tests/run.sh sets
# S5P_SUITE_DEADLINE, when the suite will be killed), the boot ends 20 s
# before its suite would be, so that its own diagnosis prints.
suite_timeout() {
	local left
	if [ -z "${S5P_SUITE_DEADLINE:-}" ]; then
		echo "$1"
		return
	fi
	left=$((S5P_SUITE_DEADLINE - $(date +%s) - 20))
	[ "$left" -ge 1 ] || left=1
	if [ "$1" -gt "$left" ]; then
		s5p_info "--timeout ${1}s cut to ${left}s: the test suite's own timeout comes first"
		echo "$left"
	else
		echo "$1"
	fi
}

# run_cmd INITRD: boot with the command; its status is QEMU's.  The console
# (kernel log) goes to a file; the command's output has a UART of its own,
# so kernel messages never mix into it.
run_cmd() {
	local tailpid rc
	: >"$run/console.log"
	: >"$run/out.log"
	timeout -k 5 "$timeout" "$QEMU" "${qemu_args[@]}" -initrd "$1" \
		-append "$kargs_cmd" -monitor none \
		-serial "file:$run/console.log" -serial "file:$run/out.log" \
		</dev/null >"$run/qemu.log" 2>&1 &
	qpid=$!
	[ -z "$demo" ] || s5p_log "demo: booting $board, capturing and encoding into $demo"
	tail -n +1 -s 0.2 -f --pid="$qpid" "$run/out.log" &
	tailpid=$!
	[ "$verbose" = 0 ] || tail -n +1 -s 0.2 -f --pid="$qpid" "$run/console.log" >&2 &
	wait "$qpid"
	rc=$?
	qpid=
	wait "$tailpid" 2>/dev/null
	return "$rc"
}

# record_times T0: where a --cmd boot's time went (tests/run.sh sets
# S5P_BOOT_TIMES; scripts/test-times.sh --boots sums it up): one line,
# tab-separated: the suite (S5P_SUITE_NAME), board, kernel flavour, QEMU
# flavour, then seconds: the whole QEMU run (from T0), and from the
# console's timestamps the kernel's start (to "Run /init"), /init's module
# loading (to S5P-RUN), the command (to S5P-CMD-END) and what follows it
# (kmemleak's wait and scans, to S5P-EXIT); "-" where a marker is missing.
record_times() {
	awk -v t0="$1" -v t1="$(date +%s.%N)" -v pre="${S5P_SUITE_NAME:--}\t$board\t$flavour\t${S5P_QEMU_FLAVOUR:-plain}" '
	function ts(l) { return substr(l, 2, index(l, "]") - 2) + 0 }
	/^\[ *[0-9.]+\] Run \/init / && i == "" { i = ts($0) }
	/^\[ *[0-9.]+\] S5P-RUN / && r == "" { r = ts($0) }
	/^\[ *[0-9.]+\] S5P-CMD-END / { c = ts($0) }
	/^\[ *[0-9.]+\] S5P-EXIT / { e = ts($0) }
	function d(a, b) { return (a == "" || b == "") ? "-" : sprintf("%.1f", b - a) }
	END { printf "%s\t%.1f\t%s\t%s\t%s\t%s\n", pre, t1 - t0, (i == "" ? "-" : sprintf("%.1f", i)),
		d(i, r), d(r, c), d(c, e) }' "$run/console.log" >>"$S5P_BOOT_TIMES" 2>/dev/null || :
}

# keep_logs: the last run's logs of each board (a rename: two runs at
# once, as in make check's two lanes, never mix their lines); with --log
# FILE, this run's own are FILE and FILE.qemu.  Sets clog and qlog, the
# console's and QEMU's logs that messages name.
keep_logs() {
	local f
	for f in console qemu; do
		cp "$run/$f.log" "$S5P_CACHE/logs/.$board-$f.log.$$" &&
			mv -f "$S5P_CACHE/logs/.$board-$f.log.$$" "$S5P_CACHE/logs/$board-$f.log"
	done
	clog=$S5P_CACHE/logs/$board-console.log qlog=$S5P_CACHE/logs/$board-qemu.log
	if [ -n "$log" ]; then
		cp "$run/console.log" "$log" && cp "$run/qemu.log" "$log.qemu" && clog=$log qlog=$log.qemu
	fi
}

# guest_status: print the command's exit status as the guest reported it,
# or nothing when it reported none; a module that did not load makes it 4,
# a kernel report (--check-log) or a kmemleak that never scanned 3.
# Problems go to standard error.
guest_status() {
	local status failed why
	# /init writes it to the kernel log and to the console (kept when
	# "quiet" hides the kernel log).
	status=$(sed -n 's/^\(\[ *[0-9.]*\] \)\{0,1\}S5P-EXIT \([0-9]*\)\r\{0,1\}$/\2/p' "$run/console.log" | tail -n1)
	# /init: a --module that did not load (its error and kernel log went
	# to the output), a share it could not mount.
	failed=$(sed -n 's/^\(\[ *[0-9.]*\] \)\{0,1\}S5P-MODULE-FAILED \(.*[^\r]\)\r\{0,1\}$/\2/p' "$run/console.log" | head -n1)
	if [ -n "$failed" ] && [ -n "$status" ]; then
		printf 'error: the module %s did not load (its kernel log is above); the command did not run\n' \
			"$failed" >&2
		status=4
	fi
	! grep -q 'S5P-SHARE-FAILED' "$run/console.log" ||
		printf 'error: the guest could not mount the shared directory at /host (console log: %s)\n' "$clog" >&2
	if [ "$check_log" = 1 ] && s5p_kernel_reports "$run/console.log" "${allow[@]}" >"$run/reports"; then
		printf 'error: the kernel log holds %s report line(s) (%s flavour; console log: %s):\n' \
			"$(wc -l <"$run/reports")" "$flavour" "$clog" >&2
		head -n 8 "$run/reports" | sed 's/^/    /' >&2
		[ "${status:-1}" != 0 ] || status=3
	fi
	# (the reports this boot provokes on purpose: said, not failed)
	if [ "$check_log" = 1 ] && [ ${#allow[@]} != 0 ] &&
		s5p_allowed_reports "$run/console.log" "${allow[@]}" >"$run/allowed"; then
		printf 'note: %s report line(s) that --allow-report %s allows (console log: %s):\n' \
			"$(wc -l <"$run/allowed")" "${allow[*]}" "$clog" >&2
		head -n 4 "$run/allowed" | sed 's/^/    /' >&2
	fi
	# A kernel built with kmemleak (the debug flavour) must have scanned:
	# /init logs "S5P-KMEMLEAK <n> ..." after the command.  No count
	# (kmemleak=off, kmemleak disabled after an error, no debugfs) is a
	# failed check, not a pass.
	if [ "$check_log" = 1 ] && [ "${status:-1}" = 0 ] &&
		grep -qx 'CONFIG_DEBUG_KMEMLEAK=y' "$KBUILD/.config" 2>/dev/null &&
		! grep -qaE 'S5P-KMEMLEAK [0-9]+ ' "$run/console.log"; then
		why=$(grep -ao 'S5P-KMEMLEAK-OFF .*' "$run/console.log" | head -n1 | tr -d '\r')
		printf 'error: this kernel has kmemleak, but /init logged no S5P-KMEMLEAK count: %s (console log: %s)\n' \
			"${why:-no scan ran}" "$clog" >&2
		status=3
	fi
	echo "$status"
}

# check_demo: the guest wrote the raw frames and the stream into the
# share: PNGs of the frames, each JPEG decoded and checked, here, and
# GStreamer's frames each decoded to a 640x480 picture.  Status 0 when all
# of them check out.
check_demo() {
	local status n=0 f
	python3 "$S5P_TOP/scripts/lib/codec_check.py" demo "$demo" >"$run/demo.log"
	status=$?
	sed -n 's/^# wrote /wrote /p' "$run/demo.log"
	grep -c '^ok - ' "$run/demo.log" | sed 's/.*/& frames decoded by djpeg, PSNR against the camera pattern >= 30 dB:/'
	grep -E '^(not )?ok - ' "$run/demo.log" | sed 's/^/    /'
	[ "$status" = 0 ] || printf 'error: the demo stream did not check out (above)\n' >&2
	for f in "$demo"/gstreamer/frame-*.jpg; do
		[ -e "$f" ] || continue
		if [ "$(djpeg -pnm "$f" 2>/dev/null | head -c 15 | sed -n 2p)" = "640 480" ]; then
			n=$((n + 1))
		else
			printf 'error: %s does not decode to a 640x480 picture\n' "$f" >&2
			status=1
		fi
	done
	printf 'wrote %s/gstreamer/ (%d JPEG frames from the GStreamer pipeline, each decoded by djpeg)\n' "$demo" "$n"
	return "$status"
}

# no_status QEMU-STATUS: the guest reported no exit status: say why, and
# return the script's status (124 a timeout, 125 QEMU failed or the guest
# stopped).
no_status() {
	local what
	if [ "$1" = 124 ] || [ "$1" = 137 ]; then
		if grep -q 'S5P-RUN' "$run/console.log"; then
			what="the command did not finish"
		elif grep -q 'Run /init' "$run/console.log"; then
			what="the kernel started /init but the command never started"
		else
			what="the kernel did not reach userspace"
		fi
		printf 'error: %s within %ss; QEMU was killed (console log: %s)\n' "$what" "$timeout" "$clog" >&2
		tail -n 8 "$run/console.log" | sed 's/^/    /' >&2
		return 124
	fi
	if [ "$1" != 0 ]; then
		printf 'error: QEMU failed (exit %s): %s\n' "$1" "$(tail -n 3 "$run/qemu.log" | tr '\n' ' ')" >&2
		return 125
	fi
	printf 'error: the guest stopped without reporting an exit status (panic or crash?); console log: %s\n' "$clog" >&2
	tail -n 8 "$run/console.log" | sed 's/^/    /' >&2
	return 125
}

# cmd_result QEMU-STATUS: after a --cmd boot, the script's status: a
# sanitizer QEMU (S5P_QEMU_FLAVOUR=asan) that reported anything failed
# (125), whatever the guest said; then the guest's status (and the demo's
# check), or why there is none.
cmd_result() {
	local status
	keep_logs
	if s5p_qemu_san_report "$run/qemu.log" >"$run/san"; then
		printf 'error: QEMU (%s build) reported a sanitizer error (log: %s):\n' \
			"${S5P_QEMU_FLAVOUR:-plain}" "$qlog" >&2
		head -n 8 "$run/san" | sed 's/^/    /' >&2
		return 125
	fi
	status=$(guest_status)
	[ -n "$status" ] || { no_status "$1"; return; }
	if [ -n "$demo" ] && [ "$status" = 0 ]; then
		check_demo
		return
	fi
	return "$status"
}

main() {
	local kargs initrd t0 qrc
	parse_args "$@"
	timeout=$(scaled_timeout "$flavour" "$timeout") || exit 2
	load_board "$board"
	[ -z "$demo" ] || use_demo
	if [ -n "$share" ]; then
		check_share "$share"
		share=$(realpath "$share")
	fi
	# The kernel command line: the board's console and its BOARD_KARGS
	# (before --append's, so that a later sysctl.vm.cma_first_ratio= of
	# --append wins), and with --cmd the UART that carries the command's
	# output (s5p.out=, read by /init).
	kargs="console=$BOARD_CONSOLE,115200n8 earlycon panic=-1${BOARD_KARGS:+ $BOARD_KARGS}"
	kargs_cmd="$kargs s5p.out=$BOARD_OUTPUT $append" kargs_shell="$kargs $append"
	[ -z "${S5P_BOOT_RECORD:-}" ] || { record_boot "$S5P_BOOT_RECORD"; exit; }

	build_images
	[ "$build_only" = 0 ] || { s5p_log "built ($flavour flavour): $QEMU, $KIMAGE, $DTB, $ROOTFS"; exit 0; }
	start_run
	# The kernel, copied while no other run can rewrite it, and only if it
	# is still the one whose modules are in the initramfs (s5p_kernel_read).
	s5p_kernel_read cp "$KIMAGE" "$run/zImage" || exit 1
	set_qemu_args
	initrd=$(make_initrd) || exit 1
	if [ "$have_cmd" = 0 ]; then
		s5p_log "booting $board (Ctrl-A X quits QEMU)${share:+; $share is /host}"
		"$QEMU" "${qemu_args[@]}" -initrd "$initrd" -append "$kargs_shell" \
			-serial mon:stdio
		exit
	fi
	timeout=$(suite_timeout "$timeout")
	t0=$(date +%s.%N)
	run_cmd "$initrd"
	qrc=$?
	[ -z "${S5P_BOOT_TIMES:-}" ] || record_times "$t0"
	cmd_result "$qrc"
}

main "$@"
