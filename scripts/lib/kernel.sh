# shellcheck shell=bash
# The kernel: Debian's linux-source-6.1 + kernel-patches/, cross-built for ARM.
. "$S5P_TOP/scripts/lib/tree.sh"
. "$S5P_TOP/scripts/lib/progress.sh"
. "$S5P_TOP/scripts/lib/versions.sh"

S5P_KMAKE=(make ARCH=arm CROSS_COMPILE=arm-linux-gnueabi- -j"$(nproc)")

# The linux-source-6.1 version to build: the one recorded in versions
# (scripts/lib/versions.sh), which need not be the one installed.
s5p_kernel_version() {
	[ -z "${S5P_KVER:-}" ] || { printf '%s\n' "$S5P_KVER"; return 0; }
	s5p_version linux-source-6.1
}

# Unpacked, patched source tree; sets KSRC and KSRC_ID (what identifies its
# content in cache keys: the hash of the series snapshot applied).  With
# --no-checkout, the tree is left as it is (a build checks it out under the
# tree's lock only when something is stale).  S5P_KERNEL_TREE=DIR uses a dev
# tree as it is (scripts/series.sh kernel dev) instead of applying
# kernel-patches/.
s5p_kernel_source() {
	s5p_need_cmd arm-linux-gnueabi-gcc git flex bison bc
	if [ -n "${S5P_KERNEL_TREE:-}" ]; then
		KSRC=$(realpath "$S5P_KERNEL_TREE")
		[ -f "$KSRC/Makefile" ] || s5p_die "S5P_KERNEL_TREE=$S5P_KERNEL_TREE is not a kernel tree"
		# A dev tree changes under our feet: its ID is what it holds (the
		# commit, the uncommitted changes, the untracked files, ignored
		# ones too: Debian's .gitignore ignores every top-level entry,
		# and the build is out of the tree, O=), so a boot
		# of an unchanged tree rebuilds nothing, and an edit is a new key.
		# (Before, the time was in it: every boot ran make, relinked
		# vmlinux and rebuilt the drivers and the initramfs, under the
		# machine's build lock.)  A tree git cannot read is keyed by time.
		local head state
		if head=$(git -C "$KSRC" rev-parse HEAD 2>/dev/null); then
			state=$({ git -C "$KSRC" diff HEAD --binary
				git -C "$KSRC" ls-files -z --others |
					(cd "$KSRC" && xargs -0 -r sha256sum); } | sha256sum | cut -c1-16)
			KSRC_ID="tree:$KSRC:$head-$state"
		else
			KSRC_ID="tree:$KSRC:$(date +%s%N)"
		fi
		return 0
	fi
	S5P_KVER=$(s5p_kernel_version) || exit 1
	KDIR=$S5P_CACHE/linux-$S5P_KVER
	KSRC=$KDIR/src
	s5p_series_snapshot kernel "$S5P_TOP/kernel-patches"
	# shellcheck disable=SC2153 # (set by s5p_series_snapshot)
	KSERIES_DIR=$SERIES_DIR
	KSRC_ID="series:$SERIES_HASH"
	[ "${1:-}" = --no-checkout ] || s5p_kernel_checkout
}

# s5p_kernel_checkout: the cache's tree unpacked and at KSRC_ID, under the
# tree's lock.
s5p_kernel_checkout() {
	[ -z "${S5P_KERNEL_TREE:-}" ] || return 0
	[ ! -f "$KSRC/.git/s5p-unpacked" ] ||
		[ "$(cat "$KSRC/.git/s5p-series" 2>/dev/null)" != "${KSRC_ID#series:}" ] || return 0
	s5p_tree_lock "$KDIR"
	if [ ! -f "$KSRC/.git/s5p-unpacked" ]; then
		local tarball=/usr/src/linux-source-6.1.tar.xz t
		if [ "$(s5p_pkg_version linux-source-6.1)" != "$S5P_KVER" ]; then
			tarball=$(s5p_kernel_tarball) || exit 1
		fi
		s5p_log "kernel: unpacking $tarball ($S5P_KVER) into $KSRC"
		t=$(date +%s)
		rm -rf "$KSRC" && mkdir -p "$KSRC"
		tar -C "$KSRC" --strip-components=1 -xJf "$tarball" ||
			s5p_die "cannot unpack $tarball (disk full? scripts/clean.sh --old frees space)"
		s5p_tree_init "$KSRC" "Debian linux-source-6.1 $S5P_KVER"
		touch "$KSRC/.git/s5p-unpacked"
		s5p_done "$t" "kernel: source unpacked and recorded in git"
	fi
	s5p_tree_checkout "$KSRC" "$KSERIES_DIR" "${KSRC_ID#series:}" \
		"kernel: applying kernel-patches/ to $S5P_KVER"
	s5p_tree_unlock
}

# s5p_kernel_tarball: linux-source-6.1's tarball at S5P_KVER when another
# version is installed: from the package, downloaded into the cache.
s5p_kernel_tarball() {
	local dl=$S5P_CACHE/downloads deb tarball t
	tarball=$dl/linux-source-$S5P_KVER.tar.xz
	[ -f "$tarball" ] && { printf '%s\n' "$tarball"; return 0; }
	mkdir -p "$dl"
	# shellcheck disable=SC2012 # (Debian's file names: no space or newline)
	deb=$(ls "$dl/linux-source-6.1_${S5P_KVER//:/%3a}_"*.deb 2>/dev/null | head -n1)
	if [ -z "$deb" ]; then
		s5p_log "kernel: downloading linux-source-6.1 $S5P_KVER (the installed one is $(s5p_pkg_version linux-source-6.1))"
		t=$(date +%s)
		(cd "$dl" && s5p_apt_get download "linux-source-6.1=$S5P_KVER" >"$dl/linux-download.log" 2>&1) ||
			s5p_die "apt-get download linux-source-6.1=$S5P_KVER failed (log: $dl/linux-download.log): is the Debian archive reachable?"
		s5p_done "$t" "kernel: source package downloaded"
		# shellcheck disable=SC2012 # (Debian's file names: no space or newline)
		deb=$(ls "$dl/linux-source-6.1_${S5P_KVER//:/%3a}_"*.deb | head -n1)
	fi
	dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/src/linux-source-6.1.tar.xz >"$tarball.tmp" ||
		s5p_die "no linux-source-6.1.tar.xz in $deb"
	mv "$tarball.tmp" "$tarball"
	printf '%s\n' "$tarball"
}

# Kernel flavours: "default", and one per boards/flavours/NAME.config (a
# fragment merged last, e.g. "debug": KASAN, lockdep, kmemleak, UBSAN...).
s5p_kernel_flavours() {
	local f
	printf '%s\n' default
	for f in "$S5P_TOP"/boards/flavours/*.config; do
		[ -f "$f" ] && basename "$f" .config
	done
}

# s5p_kernel_flavour_check FLAVOUR: dies with the list when FLAVOUR is unknown.
s5p_kernel_flavour_check() {
	# grep without -q: an early exit would kill the writer with SIGPIPE
	# (pipefail), and a known flavour would be called unknown.
	s5p_kernel_flavours | grep -xF -- "$1" >/dev/null ||
		s5p_die "unknown kernel flavour '$1' (one of: $(s5p_kernel_flavours | tr '\n' ' '))"
}

# s5p_kernel_fragment FLAVOUR: the flavour's own fragment, or nothing.
s5p_kernel_fragment() {
	[ "$1" = default ] || printf '%s\n' "$S5P_TOP/boards/flavours/$1.config"
}

# s5p_kernel_config BOARD [FLAVOUR]: the .config for BOARD (s5pv210_defconfig +
# boards/common/*.config in name order + boards/BOARD/kernel.config + the
# flavour's fragment, olddefconfig) in KCONFIG_OUT; every option a fragment
# sets is checked to have taken.
# With --current, only says (status) whether that .config is up to date;
# otherwise call it holding the tree's lock.
s5p_kernel_config() {
	local board=$1 flavour=${2:-default} tmp frag opt want got
	local suffix=$board
	[ "$flavour" = default ] || suffix=$board-$flavour
	local frags=("$S5P_TOP"/boards/common/*.config "$S5P_TOP/boards/$board/kernel.config")
	[ "$flavour" = default ] || frags+=("$(s5p_kernel_fragment "$flavour")")
	local key fkey
	key=$(s5p_hash -s "$KSRC_ID" "${frags[@]}")
	# A directory a set of fragments: checkouts with other fragments
	# sharing the cache configure apart instead of in turns (each turn
	# under the tree's lock).
	fkey=$(s5p_hash "${frags[@]}")
	tmp=$S5P_CACHE/linux-$(s5p_kernel_version)/kconfig-$suffix-${fkey:0:12}
	[ -z "${S5P_KERNEL_TREE:-}" ] || tmp=$(dirname "$KSRC")/kconfig-$(basename "$KSRC")-$suffix-${fkey:0:12}
	KCONFIG_OUT=$tmp/.config
	if [ "${3:-}" = --current ]; then
		[ "$(cat "$tmp/.s5p-key" 2>/dev/null)" = "$key" ]
		return
	fi
	mkdir -p "$tmp"
	if [ "$(cat "$tmp/.s5p-key" 2>/dev/null)" != "$key" ]; then
		rm -f "$tmp/.s5p-key"
		s5p_info "kernel: configuring for $board"
		"${S5P_KMAKE[@]}" -s -C "$KSRC" O="$tmp" s5pv210_defconfig >"$tmp/config.log" 2>&1 ||
			s5p_die "s5pv210_defconfig failed (see $tmp/config.log)"
		(cd "$tmp" && KCONFIG_CONFIG=.config "$KSRC/scripts/kconfig/merge_config.sh" -m -O . \
			.config "${frags[@]}") >>"$tmp/config.log" 2>&1 ||
			s5p_die "merging the config fragments failed (see $tmp/config.log)"
		"${S5P_KMAKE[@]}" -s -C "$KSRC" O="$tmp" olddefconfig >>"$tmp/config.log" 2>&1 ||
			s5p_die "olddefconfig failed (see $tmp/config.log)"
		local later i
		for i in "${!frags[@]}"; do
			frag=${frags[$i]}
			# A later fragment (the flavour's) may override an option.
			later=$(cat "${frags[@]:i+1}" </dev/null 2>/dev/null |
				sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\)=.*/\1/p; s/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1/p')
			while read -r opt; do
				case "$opt" in
				CONFIG_*=*) want=$opt ;;
				'# CONFIG_'*' is not set') want=$opt ;;
				*) continue ;;
				esac
				opt=${want#\# }; opt=${opt%%[= ]*}
				if [ -n "$later" ] && grep -qxF "$opt" <<<"$later"; then
					continue
				fi
				got=$want
				if [[ $want == CONFIG_* ]]; then
					grep -qxF "$want" "$tmp/.config" || got=
				else
					opt=${want#\# }; opt=${opt%% *}
					! grep -q "^$opt=" "$tmp/.config" || got=
				fi
				[ -n "$got" ] || s5p_die "$frag: '$want' did not survive olddefconfig (a dependency is missing; see 'make menuconfig' in $tmp)"
			done <"$frag"
		done
		echo "$key" >"$tmp/.s5p-key"
	fi
	KCONFIG_OUT=$tmp/.config
}

# s5p_kernel_build BOARD [FLAVOUR]: zImage and modules for BOARD, with the
# out-of-tree drivers of drivers/; sets KBUILD (the O= directory), KIMAGE and
# KMODULES (a staging directory holding lib/modules/<release>/ for the
# initramfs), and KSTAMP and KMODSTAMP, their stamps (s5p_kernel_read).
# The build directory is named by the board's and the flavour's own
# options, so boards with the same configuration share one build.
s5p_kernel_build() {
	local board=$1 flavour=${2:-default} cfghash stamp t0
	KSTAMP='' KMODSTAMP=''
	s5p_kernel_flavour_check "$flavour"
	s5p_kernel_source --no-checkout
	# Boards whose fragments set the same options share one build
	# directory (comments do not count).  The common fragments count too:
	# checkouts with different ones sharing the cache build apart instead
	# of rebuilding one directory in turns.
	# shellcheck disable=SC2046 # (no word when the flavour has no fragment)
	cfghash=$(grep -hE '^(CONFIG_|# CONFIG_.* is not set)' "$S5P_TOP"/boards/common/*.config \
		"$S5P_TOP/boards/$board/kernel.config" $(s5p_kernel_fragment "$flavour") |
		LC_ALL=C sort | sha256sum | cut -c1-12)
	[ "$flavour" = default ] || cfghash=$flavour-$cfghash
	if [ -n "${S5P_KERNEL_TREE:-}" ]; then
		KBUILD=$(dirname "$KSRC")/build-$(basename "$KSRC")-$cfghash
	else
		KBUILD=$S5P_CACHE/linux-$(s5p_kernel_version)/build-$cfghash
	fi
	KIMAGE=$KBUILD/arch/arm/boot/zImage
	KMODULES=$KBUILD/s5p-modules
	# Up to date (nothing to check out or lock)?  The stamp names the series
	# and .config it was compiled from.
	if s5p_kernel_config "$board" "$flavour" --current; then
		stamp=$(s5p_hash -s "$KSRC_ID" -s "$(sha256sum <"$KCONFIG_OUT")")
		KSTAMP=$stamp KMODSTAMP=$(s5p_hash -s "$stamp" "$S5P_TOP/drivers")
		KMODULES=$(s5p_kernel_modules_dir "$KMODSTAMP")
		if [ -f "$KIMAGE" ] && [ "$(cat "$KBUILD/.s5p-stamp" 2>/dev/null)" = "$stamp" ] &&
			[ "$(cat "$KMODULES/.s5p-stamp" 2>/dev/null)" = "$KMODSTAMP" ]; then
			touch -c "$KMODULES"	# (in use: s5p_kernel_drivers keeps it)
			return 0
		fi
		if [ "${S5P_DRY_RUN:-0}" = 1 ]; then
			if [ ! -f "$KIMAGE" ] || [ "$(cat "$KBUILD/.s5p-stamp" 2>/dev/null)" != "$stamp" ]; then
				s5p_would_build "kernel for $board ($flavour flavour) in $KBUILD (stamp $stamp, have $(cat "$KBUILD/.s5p-stamp" 2>/dev/null || echo none))"
			fi
			s5p_would_build "kernel modules and drivers/ for $board ($flavour flavour)"
			# (read by s5p_rootfs: the modules' stamp they would get)
			# shellcheck disable=SC2034
			S5P_DRY_KMODULES=$(s5p_hash -s "$stamp" "$S5P_TOP/drivers")
			return 0
		fi
	elif [ "${S5P_DRY_RUN:-0}" = 1 ]; then
		s5p_would_build "kernel config and kernel for $board ($flavour flavour, series ${KSRC_ID#series:})"
		# shellcheck disable=SC2034
		S5P_DRY_KMODULES=
		return 0
	fi
	# Checkout, configuration and build under the tree's lock: the stamp
	# written is the series this process checked out and compiled.
	t0=$(date +%s)
	[ -n "${S5P_KERNEL_TREE:-}" ] || s5p_tree_lock "$KDIR"
	s5p_kernel_checkout
	s5p_kernel_config "$board" "$flavour"
	stamp=$(s5p_hash -s "$KSRC_ID" -s "$(sha256sum <"$KCONFIG_OUT")")
	KSTAMP=$stamp KMODSTAMP=$(s5p_hash -s "$stamp" "$S5P_TOP/drivers")
	# Runs reading this build's outputs (s5p_kernel_read) wait meanwhile.
	s5p_outputs_lock "$KBUILD" -x
	if [ ! -f "$KIMAGE" ] || [ "$(cat "$KBUILD/.s5p-stamp" 2>/dev/null)" != "$stamp" ]; then
		s5p_build_lock
		mkdir -p "$KBUILD"
		# An interrupted build must not pass for the one stamped before.
		rm -f "$KBUILD/.s5p-stamp"
		cmp -s "$KCONFIG_OUT" "$KBUILD/.config" || cp "$KCONFIG_OUT" "$KBUILD/.config"
		s5p_log "kernel: building zImage and modules for $board ($flavour flavour) in $KBUILD (about 4 to 6 min on 2 cores when cold)"
		s5p_run_logged "$KBUILD/build.log" "make zImage modules" \
			"${S5P_KMAKE[@]}" -C "$KSRC" O="$KBUILD" zImage modules
		echo "$stamp" >"$KBUILD/.s5p-stamp"
		s5p_build_unlock
	fi
	s5p_kernel_drivers "$stamp"
	s5p_outputs_unlock
	[ -n "${S5P_KERNEL_TREE:-}" ] || s5p_tree_unlock
	s5p_done "$t0" "kernel: zImage and modules for $board ($flavour flavour) ready, every step above"
}

# s5p_kernel_read CMD...: run CMD, which reads the outputs s5p_kernel_build
# returned (KIMAGE, KMODULES), holding the build's outputs lock shared, once
# their stamps are checked to be still KSTAMP and KMODSTAMP.  Status 1 and
# a message when another run (another checkout's series) rebuilt them
# meanwhile: what CMD would have read is not what the caller's key says.
s5p_kernel_read() {
	local rc=0
	s5p_outputs_lock "$KBUILD" -s
	if [ "$(cat "$KBUILD/.s5p-stamp" 2>/dev/null)" != "${KSTAMP:-}" ] ||
		[ "$(cat "$KMODULES/.s5p-stamp" 2>/dev/null)" != "${KMODSTAMP:-}" ]; then
		s5p_outputs_unlock
		printf 'error: another run rebuilt the kernel in %s (another series or configuration) after this one built it; run again\n' "$KBUILD" >&2
		return 1
	fi
	"$@" || rc=$?
	s5p_outputs_unlock
	return $rc
}

# s5p_drivers_stage SRC DIR: copy the driver sources SRC into the build copy
# DIR, keeping DIR's objects.  A file whose contents differ from DIR's copy
# is written with the time of the copy, never with its mtime in SRC: make
# decides what to recompile by comparing times, and DIR is shared by every
# checkout using the cache, so a source from a checkout whose file is older
# than the object another checkout's source just compiled (a merge, a
# revert, a branch edited earlier) would be taken as built and the other
# checkout's module installed under this one's stamp.  That happened
# (2026-12-06): the initramfs keyed by the multi-planar codec's sources
# held the single-planar codec's module, and 38-gstreamer's NV12 zero-copy
# pipelines all failed.  Identical files are left alone (nothing recompiles).
s5p_drivers_stage() {
	mkdir -p "$2"
	rsync -rlp --checksum --delete --exclude='*.o' --exclude='*.ko' --exclude='*.mod*' --exclude='*~' \
		--exclude='.*.cmd' --exclude=Module.symvers --exclude=modules.order \
		"$1/" "$2/"
}

# s5p_kernel_drivers STAMP: the kernel's modules and the out-of-tree drivers
# (drivers/Kbuild) installed into KMODULES, with modules.dep from depmod.
s5p_kernel_drivers() {
	local kstamp=$1 stamp dbuild rel
	stamp=$(s5p_hash -s "$kstamp" "$S5P_TOP/drivers")
	KMODULES=$(s5p_kernel_modules_dir "$stamp")
	# (the stamp these modules get: drivers/ may have changed since
	# s5p_kernel_build set it)
	KMODSTAMP=$stamp
	[ "$(cat "$KMODULES/.s5p-stamp" 2>/dev/null)" = "$stamp" ] && return 0
	s5p_need_cmd depmod
	s5p_build_lock
	rel=$(cat "$KBUILD/include/config/kernel.release")
	rm -rf "$KMODULES" && mkdir -p "$KMODULES"
	s5p_info "kernel: installing modules"
	"${S5P_KMAKE[@]}" -s -C "$KSRC" O="$KBUILD" INSTALL_MOD_PATH="$KMODULES" \
		INSTALL_MOD_STRIP=1 DEPMOD=true modules_install >"$KBUILD/modules_install.log" 2>&1 ||
		s5p_die "modules_install failed (see $KBUILD/modules_install.log)"
	if grep -qs "^obj-" "$S5P_TOP/drivers/Kbuild"; then
		# Built in a copy: M= writes its objects next to the sources.
		dbuild=$KBUILD/s5p-drivers
		s5p_drivers_stage "$S5P_TOP/drivers" "$dbuild"
		s5p_run_logged "$dbuild/build.log" "make drivers/ (out-of-tree modules)" \
			"${S5P_KMAKE[@]}" -C "$KSRC" O="$KBUILD" M="$dbuild" W=1 modules
		"${S5P_KMAKE[@]}" -s -C "$KSRC" O="$KBUILD" M="$dbuild" INSTALL_MOD_PATH="$KMODULES" \
			INSTALL_MOD_STRIP=1 DEPMOD=true modules_install >>"$dbuild/build.log" 2>&1 ||
			s5p_die "installing drivers/ modules failed (see $dbuild/build.log)"
	fi
	rm -f "$KMODULES/lib/modules/$rel/build" "$KMODULES/lib/modules/$rel/source"
	depmod -b "$KMODULES" "$rel" || s5p_die "depmod failed for $rel"
	echo "$stamp" >"$KMODULES/.s5p-stamp"
	# Other drivers/ trees' modules (other checkouts, older commits) stay
	# while in use; those not used for two days go.
	find "$KBUILD" -mindepth 1 -maxdepth 1 -type d -name 's5p-modules-*' ! -name "${KMODULES##*/}" \
		-mtime +2 -exec rm -rf {} + 2>/dev/null
	s5p_build_unlock
}

# s5p_kernel_modules_dir STAMP: where the modules of the kernel in KBUILD
# and of drivers/ with that stamp (KMODSTAMP) are installed: a directory a
# stamp, so that checkouts with different drivers/ sharing the cache never
# overwrite each other's modules (a boot or an initramfs reading them).
s5p_kernel_modules_dir() {
	echo "$KBUILD/s5p-modules-${1:0:16}"
}

# s5p_dtb BOARD: compile boards/BOARD/BOARD.dts (which includes the kernel's
# board dts); sets DTB.
s5p_dtb() {
	local board=$1 dts key out
	dts=$S5P_TOP/boards/$board/$board.dts
	[ -f "$dts" ] || s5p_die "no device tree $dts (unknown board '$board'?)"
	s5p_need_cmd dtc cpp
	s5p_kernel_source --no-checkout
	# The series is part of the key (its patches may touch the dts and
	# the headers it includes); a dev tree, whose ID changes with every
	# edit anywhere in it, is keyed by its path and the dts files themselves.
	local id=$KSRC_ID kfiles=()
	if [[ $id == tree:* ]]; then
		id=${id%:*}
		kfiles=("$KSRC"/arch/arm/boot/dts/s5pv210.dtsi "$KSRC/arch/arm/boot/dts/s5pv210-$board.dts")
	fi
	key=$(s5p_hash -s "$id" "$S5P_TOP/boards/$board" "$S5P_TOP/boards/common" "${kfiles[@]}")
	out=$S5P_CACHE/dtb
	DTB=$out/$board-$key.dtb
	[ -f "$DTB" ] && return 0
	if [ "${S5P_DRY_RUN:-0}" = 1 ]; then
		s5p_would_build "device tree for $board ($DTB)"
		return 0
	fi
	mkdir -p "$out"
	# The kernel's dts files are read from the tree: at our series, and
	# nobody checking out another meanwhile.
	[ -n "${S5P_KERNEL_TREE:-}" ] || s5p_tree_lock "$KDIR"
	s5p_kernel_checkout
	s5p_log "dtb: compiling $board"
	cpp -nostdinc -undef -D__DTS__ -x assembler-with-cpp \
		-I "$S5P_TOP/boards/$board" -I "$KSRC/arch/arm/boot/dts" -I "$KSRC/include" \
		-I "$KSRC/scripts/dtc/include-prefixes" "$dts" -o "$DTB.$$.pp" ||
		s5p_die "preprocessing $dts failed"
	dtc -q -I dts -O dtb -o "$DTB.$$.tmp" "$DTB.$$.pp" ||
		s5p_die "dtc failed on $dts"
	mv "$DTB.$$.tmp" "$DTB"
	rm -f "$DTB.$$.pp"
	[ -n "${S5P_KERNEL_TREE:-}" ] || s5p_tree_unlock
}
