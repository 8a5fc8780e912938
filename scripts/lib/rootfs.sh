# shellcheck shell=bash
# The initramfs: Debian's busybox-static:armel (and the other armel packages
# in rootfs/packages.txt), rootfs/ (init and friends), the project's tools
# cross-built for armel, and tests/guest/ at /tests.
. "$S5P_TOP/scripts/lib/kernel.sh"

# gen_init_cpio from the kernel tree builds the archive (device nodes
# included) without root rights.
s5p_gen_init_cpio() {
	GEN_INIT_CPIO=$S5P_CACHE/bin/gen_init_cpio
	[ -x "$GEN_INIT_CPIO" ] && return 0
	[ -n "${KSRC:-}" ] || s5p_kernel_source
	mkdir -p "$(dirname "$GEN_INIT_CPIO")"
	# From the tree's git objects: whatever another run checks out meanwhile.
	git -C "$KSRC" show base:usr/gen_init_cpio.c >"$GEN_INIT_CPIO.$$.c" 2>/dev/null ||
		cp "$KSRC/usr/gen_init_cpio.c" "$GEN_INIT_CPIO.$$.c"
	cc -O2 -o "$GEN_INIT_CPIO.$$" "$GEN_INIT_CPIO.$$.c" ||
		s5p_die "cannot build gen_init_cpio (is build-essential installed? scripts/setup.sh)"
	mv "$GEN_INIT_CPIO.$$" "$GEN_INIT_CPIO"
	rm -f "$GEN_INIT_CPIO.$$.c"
}

# s5p_armel_debs: download (once) every package of rootfs/packages.txt for
# armel, at the version recorded in versions (scripts/lib/versions.sh; a
# "NAME/SUITE" line is NAME from that Debian suite, scripts/setup.sh's pinned
# source); prints the .deb paths.
s5p_armel_debs() {
	local dl=$S5P_CACHE/downloads/armel pkg ver deb suite t n=0 enc i
	local -a pkgs=() vers=() want=()
	mkdir -p "$dl"
	s5p_madison_prefetch
	t=$(date +%s)
	for pkg in $(s5p_armel_packages); do
		suite=
		case "$pkg" in */*) suite=/${pkg#*/} pkg=${pkg%/*} ;; esac
		ver=$(s5p_version "$pkg:armel$suite") || exit 1
		pkgs+=("$pkg") vers+=("$ver")
	done
	# The missing ones in one apt-get call (each call loads apt's lists)
	for i in "${!pkgs[@]}"; do
		pkg=${pkgs[$i]} ver=${vers[$i]}
		# apt-get download writes the epoch's colon as %3a.
		enc=${ver//:/%3a}
		# shellcheck disable=SC2012 # (Debian's file names: no space or newline)
		deb=$(ls "$dl/${pkg}_${enc}_"{armel,all}.deb 2>/dev/null | head -n1)
		if [ -z "$deb" ]; then
			s5p_info "downloading $pkg:armel $ver"
			want+=("$(s5p_apt_name "$pkg:armel")=$ver")
		fi
	done
	if [ ${#want[@]} -gt 0 ]; then
		(cd "$dl" && s5p_apt_get download "${want[@]}" >/dev/null 2>"$dl/download.err") ||
			s5p_die "apt-get download of ${#want[@]} armel package(s) failed: $(grep -m1 '^E:' "$dl/download.err" || tail -n1 "$dl/download.err") (network? scripts/setup.sh)"
		n=${#want[@]}
	fi
	for i in "${!pkgs[@]}"; do
		pkg=${pkgs[$i]} ver=${vers[$i]}
		enc=${ver//:/%3a}
		# shellcheck disable=SC2012 # (Debian's file names: no space or newline)
		deb=$(ls "$dl/${pkg}_${enc}_"{armel,all}.deb 2>/dev/null | head -n1)
		[ -n "$deb" ] || s5p_die "apt-get download $pkg:armel $ver wrote no armel or all .deb in $dl"
		echo "$deb"
	done
	[ "$n" = 0 ] || s5p_done "$t" "rootfs: $n armel package(s) downloaded"
}

# s5p_armel_packages: the packages of rootfs/packages.txt, each once, in
# order.  A line is "PKG" (the whole package) or "PKG PATH..." (only those
# paths of it, shell globs relative to the package's root; a package may
# have several such lines); PKG may be "NAME/SUITE" (NAME from that Debian
# suite), printed as it is.
s5p_armel_packages() {
	awk '$1 !~ /^#/ && NF && !seen[$1]++ { print $1 }' "$S5P_TOP/rootfs/packages.txt"
}

# s5p_armel_paths PKG: the paths taken from PKG, one a line; nothing when
# the whole package goes in.
s5p_armel_paths() {
	awk -v p="$1" '{ n = $1; sub("/.*", "", n) } n == p { for (i = 2; i <= NF; i++) print $i }' "$S5P_TOP/rootfs/packages.txt"
}

# s5p_unpack_deb DEB STAGE: DEB (or the paths packages.txt names of it)
# into STAGE.
s5p_unpack_deb() {
	local deb=$1 stage=$2 pkg paths tmp p n
	pkg=$(basename "$deb"); pkg=${pkg%%_*}
	paths=$(s5p_armel_paths "$pkg")
	if [ -z "$paths" ]; then
		dpkg-deb -x "$deb" "$stage" || s5p_die "cannot unpack $deb"
		return 0
	fi
	tmp=$stage.deb-$pkg
	rm -rf "$tmp" && mkdir -p "$tmp"
	dpkg-deb -x "$deb" "$tmp" || s5p_die "cannot unpack $deb"
	for p in $paths; do
		n=$(cd "$tmp" && compgen -G "$p" | wc -l)
		[ "$n" -gt 0 ] || s5p_die "rootfs/packages.txt: $pkg has no file matching $p"
		# shellcheck disable=SC2086
		(cd "$tmp" && cp -a --parents $p "$stage/") || s5p_die "cannot copy $p of $pkg"
	done
	rm -rf "$tmp"
}

# s5p_rootfs: build the initramfs if anything that goes in changed; sets
# ROOTFS (a gzipped newc cpio).  Call s5p_kernel_build first so that the
# kernel's modules (KMODULES) go in.
s5p_rootfs() {
	local debs key out stage d tool
	s5p_need_cmd apt-get dpkg-deb gzip arm-linux-gnueabi-gcc
	debs=$(s5p_armel_debs) || exit 1
	# (the modules' stamp s5p_kernel_build returned: what s5p_kernel_read
	# checks before it copies them)
	local kmod=${KMODULES:+${KMODSTAMP:-}}
	if [ "${S5P_DRY_RUN:-0}" = 1 ] && [ -n "${S5P_DRY_KMODULES+set}" ]; then
		# the kernel's modules would be built first
		[ -n "$S5P_DRY_KMODULES" ] || { s5p_would_build "initramfs (after the kernel)"; return 0; }
		kmod=$S5P_DRY_KMODULES
	fi
	# Contents and modes of what goes in; never build output (s5p_hash).
	key=$(s5p_hash -m "$S5P_TOP/rootfs" -m "$S5P_TOP/tests/guest" -m "$S5P_TOP/scripts/guest" \
		-m "$S5P_TOP/tools" "$S5P_TOP"/boards/*/board.conf -s "$debs" -s "$kmod")
	out=$S5P_CACHE/rootfs
	ROOTFS=$out/initramfs-$key.cpio.gz
	[ -f "$ROOTFS" ] && return 0
	if [ "${S5P_DRY_RUN:-0}" = 1 ]; then
		s5p_would_build "initramfs $ROOTFS"
		return 0
	fi

	s5p_log "rootfs: assembling the initramfs"
	local t0
	t0=$(date +%s)
	s5p_gen_init_cpio
	# A staging directory of its own: several builds may run at once.
	mkdir -p "$out"
	stage=$(mktemp -d "$out/stage.XXXXXX")
	# shellcheck disable=SC2064
	trap "rm -rf '$stage' '$stage.build'" EXIT
	for d in $debs; do
		s5p_info "unpacking $(basename "$d")"
		s5p_unpack_deb "$d" "$stage"
	done
	# Debian's busybox-static installs /bin/busybox; everything else are
	# applet links that /init makes at boot.
	[ -x "$stage/bin/busybox" ] || s5p_die "busybox-static:armel did not provide /bin/busybox"
	# glibc from Debian's libc6-armel-cross (rootfs/packages.txt says why):
	# its /usr/arm-linux-gnueabi/lib is libc6:armel's /lib/arm-linux-gnueabi,
	# with the dynamic linker at /lib/ld-linux.so.3 as libc6:armel has it.
	if [ -d "$stage/usr/arm-linux-gnueabi/lib" ]; then
		mkdir -p "$stage/lib/arm-linux-gnueabi"
		cp -a "$stage/usr/arm-linux-gnueabi/lib/." "$stage/lib/arm-linux-gnueabi/"
		rm -rf "$stage/usr/arm-linux-gnueabi"
		ln -sfn arm-linux-gnueabi/ld-linux.so.3 "$stage/lib/ld-linux.so.3"
	fi
	rm -rf "$stage/usr/share/doc" "$stage/usr/share/man" "$stage/usr/share/lintian"

	s5p_copy_sources "$S5P_TOP/rootfs" "$stage"
	rm -f "$stage/packages.txt"
	chmod 0755 "$stage/init"

	# The project's user-space tools, cross-built static (tools/*/Makefile).
	for tool in "$S5P_TOP"/tools/*/; do
		[ -f "$tool/Makefile" ] || continue
		local name b
		name=$(basename "$tool")
		b=$stage.build/$name
		mkdir -p "$b"
		s5p_copy_sources "$tool" "$b"
		s5p_info "cross-building tools/$name"
		make -s -C "$b" CROSS_COMPILE=arm-linux-gnueabi- DESTDIR="$stage" install \
			>"$b/build.log" 2>&1 || {
			tail -n 20 "$b/build.log" | sed 's/^/    /' >&2
			s5p_die "building tools/$name for armel failed (log: $b/build.log)"
		}
	done

	# The boards' facts (/init links the running board's to
	# /etc/s5p/board.conf) and the guest side of what users run (the demo,
	# the benchmarks) at /usr/lib/s5p
	local conf
	mkdir -p "$stage/etc/s5p/boards"
	for conf in "$S5P_TOP"/boards/*/board.conf; do
		install -m 0644 "$conf" "$stage/etc/s5p/boards/$(basename "$(dirname "$conf")").conf"
	done
	s5p_copy_sources "$S5P_TOP/scripts/guest" "$stage/usr/lib/s5p"

	# Guest-side tests
	if [ -d "$S5P_TOP/tests/guest" ]; then
		mkdir -p "$stage/tests"
		s5p_copy_sources "$S5P_TOP/tests/guest" "$stage/tests"
	fi

	# Kernel modules (s5p_kernel_build sets KMODULES), copied while no
	# other run can rewrite them, and only if they are still the ones the
	# key names.
	if [ -n "${KMODULES:-}" ]; then
		s5p_kernel_read cp -a "$KMODULES/lib" "$stage/" ||
			s5p_die "cannot copy the kernel's modules from $KMODULES"
	fi

	rm -rf "$stage.build"
	s5p_cpio_from_dir "$stage" "$stage.cpio.gz" || s5p_die "cannot write the initramfs"
	mv "$stage.cpio.gz" "$ROOTFS"
	rm -rf "$stage"
	trap - EXIT
	local sz
	sz=$(stat -c %s "$ROOTFS")
	# QEMU puts the initrd at 0x32800000 and it must end in the first bank.
	[ "$sz" -lt $((40 * 1024 * 1024)) ] ||
		s5p_die "initramfs is $((sz / 1048576)) MiB; it must stay under 40 MiB (first memory bank)"
	s5p_info "initramfs: $ROOTFS ($((sz / 1024)) KiB)"
	s5p_done "$t0" "rootfs: initramfs assembled"
}

# s5p_copy_sources DIR DEST: DIR's files into DEST, with their modes, without
# build output (s5p_source_files: what s5p_hash counts).
s5p_copy_sources() {
	mkdir -p "$2"
	(cd "$1" && s5p_source_files . | cpio -0pdm --quiet "$2") ||
		s5p_die "cannot copy $1 into $2"
}

# s5p_cpio_from_dir DIR OUT: gzipped newc archive of DIR, owned by root, with
# /dev/console and /dev/null nodes.
s5p_cpio_from_dir() {
	local dir=$1 outf=$2 list
	s5p_gen_init_cpio
	list=$(mktemp)
	{
		echo "dir /dev 0755 0 0"
		echo "nod /dev/console 0600 0 0 c 5 1"
		echo "nod /dev/null 0666 0 0 c 1 3"
		(cd "$dir" && find . -mindepth 1 | LC_ALL=C sort) | while read -r p; do
			p=${p#./}
			[ "$p" = dev ] && continue
			local f=$dir/$p mode
			mode=$(stat -c %a "$f")
			if [ -L "$f" ]; then
				echo "slink /$p $(readlink "$f") 0777 0 0"
			elif [ -d "$f" ]; then
				echo "dir /$p $mode 0 0"
			elif [ -f "$f" ]; then
				echo "file /$p $f $mode 0 0"
			fi
		done
	} >"$list"
	"$GEN_INIT_CPIO" -t 0 "$list" | gzip -9n >"$outf"
	local rc=$?
	rm -f "$list"
	return $rc
}
