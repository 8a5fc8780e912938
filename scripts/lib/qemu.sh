# shellcheck shell=bash
# QEMU: Debian's qemu 7.2 source package + qemu-patches/, qemu-system-arm only.
. "$S5P_TOP/scripts/lib/tree.sh"
. "$S5P_TOP/scripts/lib/progress.sh"
. "$S5P_TOP/scripts/lib/versions.sh"

# The qemu source version to build: the one recorded in versions
# (scripts/lib/versions.sh: a warm cache does not ask apt).
s5p_qemu_version() { s5p_version qemu; }

# Unpacked, patched QEMU tree; sets QSRC, QSRC_ID and QBUILD.  With
# --no-checkout the tree is left as it is (s5p_qemu_build checks it out under
# the tree's lock when something is stale).  S5P_QEMU_TREE=DIR uses a dev
# tree as it is (scripts/series.sh qemu dev).
s5p_qemu_source() {
	local ver
	s5p_need_cmd dpkg-source git meson ninja pkg-config
	if [ -n "${S5P_QEMU_TREE:-}" ]; then
		QSRC=$(realpath "$S5P_QEMU_TREE")
		[ -f "$QSRC/configure" ] || s5p_die "S5P_QEMU_TREE=$S5P_QEMU_TREE is not a QEMU tree"
		QSRC_ID="tree:$QSRC:$(date +%s%N)"
		QBUILD=$(dirname "$QSRC")/build-$(basename "$QSRC")
		return 0
	fi
	ver=$(s5p_qemu_version) || exit 1
	S5P_QVER=$ver
	QDIR=$S5P_CACHE/qemu-${ver#*:}
	QSRC=$QDIR/src
	QBUILD=$QDIR/build
	s5p_series_snapshot qemu "$S5P_TOP/qemu-patches"
	# shellcheck disable=SC2153 # (set by s5p_series_snapshot)
	QSERIES_DIR=$SERIES_DIR
	QSRC_ID="series:$SERIES_HASH"
	[ "${1:-}" = --no-checkout ] || s5p_qemu_checkout
}

# s5p_qemu_checkout: the cache's tree unpacked and at QSRC_ID, under the
# tree's lock.
s5p_qemu_checkout() {
	local ver=$S5P_QVER dl t
	[ -z "${S5P_QEMU_TREE:-}" ] || return 0
	[ ! -f "$QSRC/.git/s5p-unpacked" ] ||
		[ "$(cat "$QSRC/.git/s5p-series" 2>/dev/null)" != "${QSRC_ID#series:}" ] || return 0
	s5p_tree_lock "$QDIR"
	if [ ! -f "$QSRC/.git/s5p-unpacked" ]; then
		dl=$S5P_CACHE/downloads
		mkdir -p "$dl"
		if ! ls "$dl"/qemu_"${ver#*:}".dsc >/dev/null 2>&1; then
			s5p_log "qemu: downloading the Debian source package qemu $ver"
			t=$(date +%s)
			(cd "$dl" && s5p_apt_get source --download-only "qemu=$ver" >"$dl/qemu-download.log" 2>&1) ||
				s5p_die "apt-get source qemu=$ver failed: is the Debian archive reachable? (scripts/setup.sh adds the deb-src lines)"
			s5p_done "$t" "qemu: source package downloaded"
		fi
		s5p_log "qemu: unpacking $ver (with Debian's patches) into $QSRC"
		t=$(date +%s)
		rm -rf "$QSRC"
		dpkg-source --no-check -x "$dl"/qemu_"${ver#*:}".dsc "$QSRC" >"$QDIR/unpack.log" 2>&1 ||
			s5p_die "dpkg-source -x failed (see $QDIR/unpack.log)"
		rm -rf "$QSRC/.pc"
		s5p_tree_init "$QSRC" "Debian qemu $ver (dpkg-source -x)"
		touch "$QSRC/.git/s5p-unpacked"
		s5p_done "$t" "qemu: source unpacked and recorded in git"
	fi
	s5p_tree_checkout "$QSRC" "$QSERIES_DIR" "${QSRC_ID#series:}" \
		"qemu: applying qemu-patches/ to $ver"
	s5p_tree_unlock
}

# --enable-libjpeg: the codec and the JPEG block encode with libjpeg
# (libjpeg62-turbo-dev), and --without-default-features would leave it out
# (the machines would be built with stubs in their slots: docs/qemu.md).
# --enable-virtfs (with its --enable-attr, --enable-cap-ng: libattr1-dev,
# libcap-ng-dev): virtio-9p on the boards' virtio-mmio transports, the host
# folder of boot.sh --share (the machines select it where QEMU has virtfs).
S5P_QEMU_CONFIGURE=(
	--target-list=arm-softmmu --without-default-devices --with-devices-arm=s5pv210
	--without-default-features --enable-fdt=system --enable-libjpeg --disable-docs
	--enable-virtfs --enable-attr --enable-cap-ng
	--disable-tools --disable-werror
)

# S5P_QEMU_FLAVOUR selects the build: "plain" (default) or "asan", the same
# tree configured with --enable-sanitizers (AddressSanitizer and
# UndefinedBehaviorSanitizer) in a build directory of its own
# (build-san, or build-NAME-san for a dev tree; not build-asan, which older
# copies of this file configure with ASan only: two option sets sharing one
# directory rebuild it from scratch at every switch).  See docs/qemu.md.
s5p_qemu_flavour() {
	case "${S5P_QEMU_FLAVOUR:-plain}" in
	plain | "") S5P_QEMU_FLAVOUR_OPTS=(); S5P_QEMU_FLAVOUR_SUFFIX= ;;
	# --enable-sanitizers alone gives ASan only with GCC 12: 7.2's configure
	# probes UBSan with a program that -Wmaybe-uninitialized fails under
	# -Werror (config.log), so UBSan is asked for explicitly.
	asan) S5P_QEMU_FLAVOUR_OPTS=(--enable-sanitizers --extra-cflags=-fsanitize=undefined
		--extra-ldflags=-fsanitize=undefined); S5P_QEMU_FLAVOUR_SUFFIX=-san ;;
	*) s5p_die "unknown S5P_QEMU_FLAVOUR '${S5P_QEMU_FLAVOUR}' (plain or asan)" ;;
	esac
}

# The sanitizer runtime options every run of an asan QEMU (and of the
# qtest binaries, built with the same flags) gets, unless the caller set
# its own.  A report makes the process exit non-zero at once:
#  - UBSan: halt_on_error=1 (GCC's checks recover by default);
#  - ASan: QEMU's CI option fast_unwind_on_malloc=0 (full stacks); leak
#    detection off for guest boots, as QEMU's own sanitizer CI has it
#    (tests/docker/test-debug), and on for the qtests (s5p_qemu_qtest):
#    this machine's QEMU exits leak-free, so a device losing memory per
#    job or reset is reported (docs/qemu.md).
# s5p_qemu_san_report FILE... greps a log for a sanitizer report.
S5P_QEMU_ASAN_OPTIONS=detect_leaks=0:fast_unwind_on_malloc=0:exitcode=66
S5P_QEMU_UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=66
S5P_QEMU_SAN_PATTERN='ERROR: (Address|Leak)Sanitizer|runtime error: |SUMMARY: (Address|Undefined|Leak)'
s5p_qemu_san_env() {
	[ "${S5P_QEMU_FLAVOUR:-plain}" = asan ] || return 0
	export ASAN_OPTIONS=${ASAN_OPTIONS:-$S5P_QEMU_ASAN_OPTIONS}
	export UBSAN_OPTIONS=${UBSAN_OPTIONS:-$S5P_QEMU_UBSAN_OPTIONS}
}
s5p_qemu_san_report() {
	grep -EHn "$S5P_QEMU_SAN_PATTERN" "$@" 2>/dev/null
}

# s5p_qemu_qtest NAME [TIMEOUT]: run the qtest binary NAME of $QBUILD
# against $QEMU (after s5p_qemu_build tests) in the current directory;
# glib's TAP lines on stdout, without QEMU's start-up noise.  The status
# is the binary's, or 66 when a sanitizer report (of QEMU or of the test)
# appears in the output even though the binary succeeded; the report's
# first lines are printed as "# sanitizer:" comments.
s5p_qemu_qtest() {
	local bin=$QBUILD/tests/qtest/$1 tmo=${2:-600} log rc asan=${ASAN_OPTIONS:-}
	log=$(mktemp)
	# Leak detection on, unless the caller chose its own options.
	[ "$asan" != "$S5P_QEMU_ASAN_OPTIONS" ] || asan=${asan/detect_leaks=0/detect_leaks=1}
	# (--foreground: in the suite's process group, so that a suite killed at
	# its timeout ends its qtest too; libqtest kills its QEMU with it)
	ASAN_OPTIONS=$asan QTEST_QEMU_BINARY=$QEMU timeout --foreground -k 10 "$tmo" "$bin" --tap -k >"$log" 2>&1
	rc=$?
	grep -vE '^# starting QEMU|WARNING: ASan doesn.t fully support makecontext' "$log"
	if s5p_qemu_san_report "$log" >/dev/null; then
		grep -E -A12 "$S5P_QEMU_SAN_PATTERN" "$log" | head -n 24 | sed 's/^/# sanitizer: /'
		[ "$rc" != 0 ] || rc=66
	fi
	rm -f "$log"
	return "$rc"
}

# s5p_qemu_build: qemu-system-arm (and the qtest binaries when asked: pass
# "tests"); sets QBUILD and QEMU.
s5p_qemu_build() {
	local what=${1:-} stamp ckey t0
	s5p_qemu_flavour
	s5p_qemu_source --no-checkout
	QBUILD=$QBUILD$S5P_QEMU_FLAVOUR_SUFFIX
	QEMU=$QBUILD/qemu-system-arm
	s5p_qemu_san_env
	ckey=$(s5p_hash -s "${S5P_QEMU_CONFIGURE[*]}${S5P_QEMU_FLAVOUR_OPTS[*]:+ ${S5P_QEMU_FLAVOUR_OPTS[*]}}")
	# .s5p-stamp: "<hash of sources and options>", plus " tests" when the
	# qtest binaries were built too (which also serves a build without).
	stamp=$(s5p_hash -s "$QSRC_ID" -s "$ckey")
	s5p_qemu_built "$what" && return 0
	if [ "${S5P_DRY_RUN:-0}" = 1 ]; then
		s5p_would_build "qemu-system-arm${what:+ and the qtests} in $QBUILD (stamp $stamp, have $(cat "$QBUILD/.s5p-stamp" 2>/dev/null || echo none))"
		return 0
	fi
	# Checkout and build under the tree's lock: the stamp is what was
	# compiled.
	t0=$(date +%s)
	[ -n "${S5P_QEMU_TREE:-}" ] || s5p_tree_lock "$QDIR"
	s5p_qemu_checkout
	s5p_build_lock
	# Another run may have built it while this one waited for the locks.
	if s5p_qemu_built "$what"; then
		s5p_build_unlock
		[ -n "${S5P_QEMU_TREE:-}" ] || s5p_tree_unlock
		return 0
	fi
	mkdir -p "$QBUILD"
	if [ "$(cat "$QBUILD/.s5p-configured" 2>/dev/null)" != "$ckey" ]; then
		s5p_log "qemu: configuring (arm-softmmu, S5PV210 devices only${S5P_QEMU_FLAVOUR_SUFFIX:+, ASan+UBSan})"
		(cd "$QBUILD" && "$QSRC/configure" "${S5P_QEMU_CONFIGURE[@]}" "${S5P_QEMU_FLAVOUR_OPTS[@]}") >"$QBUILD/configure.log" 2>&1 || {
			tail -n 20 "$QBUILD/configure.log" | sed 's/^/    /' >&2
			s5p_die "qemu configure failed (see $QBUILD/configure.log; scripts/setup.sh installs the build dependencies)"
		}
		echo "$ckey" >"$QBUILD/.s5p-configured"
	fi
	s5p_log "qemu: building qemu-system-arm in $QBUILD (about $([ -n "$S5P_QEMU_FLAVOUR_SUFFIX" ] && echo 4 to 7 || echo 3) min on 2 cores when cold)"
	local targets=(qemu-system-arm) t
	# "tests": every S5PV210 qtest the tree has (s5pv210-test, per-device ones)
	if [ "$what" = tests ]; then
		for t in "$QSRC"/tests/qtest/s5pv210*-test.c; do
			[ -f "$t" ] && targets+=("tests/qtest/$(basename "$t" .c)")
		done
	fi
	# An interrupted build must not pass for the one stamped before.
	rm -f "$QBUILD/.s5p-stamp"
	s5p_run_logged "$QBUILD/build.log" "ninja ${targets[*]}" ninja -C "$QBUILD" "${targets[@]}"
	echo "$stamp${what:+ $what}" >"$QBUILD/.s5p-stamp"
	s5p_build_unlock
	[ -n "${S5P_QEMU_TREE:-}" ] || s5p_tree_unlock
	s5p_done "$t0" "qemu: ${targets[*]} (${S5P_QEMU_FLAVOUR:-plain} build) ready, every step above"
}

# s5p_qemu_built WHAT: $QEMU (and with "tests" the qtests) is up to date
# with $stamp (s5p_qemu_build).
s5p_qemu_built() {
	local have
	[ -x "$QEMU" ] || return 1
	have=$(cat "$QBUILD/.s5p-stamp" 2>/dev/null)
	[ "$have" = "$stamp tests" ] || { [ -z "$1" ] && [ "$have" = "$stamp" ]; }
}
