#!/usr/bin/env bash
# shellcheck disable=SC1090 # (boards/*/board.conf are sourced by name)
# s5p-lava: no (the build pipeline on the host: builds, locks and caches in a scratch checkout)
# s5p-alone: checks the cache's locks by timing a waiting build, and rebuilds in a scratch checkout
# s5p-beside: quiet (the host-only suites: they take the kernel tree's lock for a moment at most, which its lock checks wait out)
# The pipeline itself (docs/pipeline.md), on the host, on a warm cache:
#  - known inputs: the file "versions" names every package; a warm cache
#    builds and boots with apt unavailable (a PATH shim that fails and
#    records any call); setup.sh without apt's lists, everything installed
#    and the cache warm, asks apt nothing; a recorded version the archive no longer has is
#    replaced by the newest of the same release and series (never
#    backports, never QEMU 8), with one warning naming both;
#  - a first run that installs packages (stand-ins for dpkg-query, apt-get
#    and sudo): boot.sh --cmd prints the command's output alone on stdout,
#    kmod.sh the .ko's path alone; apt's lines and progress on stderr;
#  - a cache that cannot go stale: in a scratch copy of the checkout, an
#    edited kernel patch, QEMU patch, board file or guest file's mode makes
#    the next build rebuild what depends on it (boot.sh --dry-run), build
#    output in tools/ does not;
#  - one file per board: boot.sh takes its UARTs from boards/BOARD/board.conf
#    (its CMA defaults are checked against the device tree by 22-cma-explain);
#  - a git step of a tree checkout that fails (read-tree, write-tree,
#    commit-tree, checkout, update-ref: a git shim) stops the run with an
#    error and leaves no stamp; a step that ends says how long it took;
#  - a space or a colon in S5P_CACHE: every entry point refuses it;
#  - an interrupted build step (Ctrl-C on make, SIGTERM on ninja: fake
#    builds whose jobs sleep) ends its jobs and writes no stamp;
#  - scripts/clean.sh --old --dry-run would remove old builds (planted)
#    and nothing the current inputs use;
#  - two checkouts sharing the cache: a run that needs a tree another run
#    holds waits with a message, then passes; a run reading the kernel's
#    outputs (modules, zImage) while another rewrites them waits, and
#    copies nothing if they changed; two boots at once both pass.
# Nothing here builds a kernel or QEMU.
set -u
. "$(dirname "$0")/../lib/tap.sh"
t_plan 47

# A scratch copy of the checkout, as it is (uncommitted edits included),
# without git or build output.
scratch() {
	rm -rf "$1" && mkdir -p "$1" &&
		rsync -a --exclude=.git --exclude=build/ --exclude='*.o' "$S5P_TOP/" "$1/"
}

# --- known inputs ---------------------------------------------------------
. "$S5P_TOP/scripts/lib/versions.sh"
missing=
for p in $(s5p_version_packages); do
	[ -n "$(s5p_recorded "$p")" ] || missing="$missing $p"
done
t_check "versions records every package: the kernel source, qemu, rootfs/packages.txt for armel" \
	test -z "$missing${missing:+ (missing:$missing)}"

# apt that is not there: every call fails and is recorded.
no_apt() { # DIR: apt-cache, apt-get and apt that fail, each call in DIR/calls
	local c
	mkdir -p "$1"
	for c in apt-cache apt-get apt; do
		printf '#!/bin/sh\necho "%s $*" >>%s/calls\necho "%s: unavailable (12-pipeline offline test)" >&2\nexit 100\n' \
			"$c" "$1" "$c" >"$1/$c"
		chmod +x "$1/$c"
	done
}
shim=$T_TMP/no-apt
no_apt "$shim"
line=$(PATH=$shim:$PATH s5p_versions_line 2>"$T_TMP/versions.err")
want=$(grep -v '^#' "$S5P_VERSIONS" | paste -sd, | sed 's/,/, /g')
t_check "a warm cache uses the recorded versions without apt (what make check prints)" \
	test "$line" = "$want"
out=$(PATH=$shim:$PATH "$S5P_TOP/scripts/boot-goni.sh" --dry-run 2>&1)
t_check "offline: boot-goni.sh --dry-run finds everything built" \
	grep -q '^up to date' <<<"$out"
out=$(PATH=$shim:$PATH "$S5P_TOP/scripts/boot-goni.sh" --cmd 'echo offline-ok' --timeout 120 \
	--log "$T_TMP/offline.log" 2>&1)
rc=$?
# shellcheck disable=SC2016 # (the arguments are expanded by bash -c)
t_check "offline: boot-goni.sh --cmd boots (status $rc, output: $(tail -n1 <<<"$out"))" \
	bash -c '[ "$1" = 0 ] && grep -qx offline-ok <<<"$2"' _ "$rc" "$out"
t_no_reports "offline: no kernel report in the boot's log" "$T_TMP/offline.log"
t_check "offline: nothing called apt" test ! -e "$shim/calls"

# A first run on a fresh machine: setup.sh finds a package missing (a
# stand-in dpkg-query says dt-schema is not installed) and runs apt-get (a
# stand-in that prints on stdout, as apt does; sudo a stand-in that runs
# it).  Standard output is the command's alone, and kmod.sh's the .ko's
# path alone: apt's lines, and every progress line, on standard error.
fresh_shim=$T_TMP/fresh-machine
mkdir -p "$fresh_shim"
cat >"$fresh_shim/dpkg-query" <<EOF
#!/bin/sh
for a; do last=\$a; done
[ "\$1 \$last" != "-W dt-schema" ] || exit 1
exec $(command -v dpkg-query) "\$@"
EOF
printf '#!/bin/sh\necho "Get:1 stand-in apt-get $*"\necho "apt-get $*" >>%s/calls\n' \
	"$fresh_shim" >"$fresh_shim/apt-get"
printf '#!/bin/sh\nexec "$@"\n' >"$fresh_shim/sudo"
chmod +x "$fresh_shim"/*
PATH=$fresh_shim:$PATH "$S5P_TOP/scripts/boot-goni.sh" --cmd 'echo fresh-ok' --timeout 120 \
	>"$T_TMP/fresh.out" 2>"$T_TMP/fresh.err"
rc=$?
t_check "first run: boot-goni.sh --cmd runs apt-get and prints the command's output alone on stdout (status $rc; stdout: $(head -c 200 "$T_TMP/fresh.out" | tr '\n' '|'))" \
	bash -c "[ $rc = 0 ] && [ \"\$(cat '$T_TMP/fresh.out')\" = fresh-ok ] &&
		grep -q 'apt-get install .*dt-schema' '$fresh_shim/calls' &&
		grep -q '^Get:1 stand-in apt-get install' '$T_TMP/fresh.err' && grep -q '^==> setup complete' '$T_TMP/fresh.err'"
rm -f "$fresh_shim/calls"
cp -r "$S5P_TOP/tests/kmod/hello" "$T_TMP/fresh-hello"
PATH=$fresh_shim:$PATH "$S5P_TOP/scripts/kmod.sh" "$T_TMP/fresh-hello" >"$T_TMP/fresh-kmod.out" 2>"$T_TMP/fresh-kmod.err"
rc=$?
t_check "first run: kmod.sh runs apt-get and prints the .ko's path alone on stdout (status $rc; stdout: $(head -c 200 "$T_TMP/fresh-kmod.out" | tr '\n' '|'))" \
	bash -c "[ $rc = 0 ] && [ \"\$(cat '$T_TMP/fresh-kmod.out')\" = '$T_TMP/fresh-hello/s5p_hello.ko' ] &&
		grep -q 'apt-get install .*dt-schema' '$fresh_shim/calls' &&
		grep -q '^Get:1 stand-in apt-get install' '$T_TMP/fresh-kmod.err' && grep -q 'CC \[M\]' '$T_TMP/fresh-kmod.err'"

# A fresh cache, and an archive (a fake apt-cache) without the recorded
# versions: the newest of the release and series, never backports.
fake=$T_TMP/fake-apt
mkdir -p "$fake"
cat >"$fake/apt-cache" <<'EOF'
#!/bin/sh
[ "$1" = madison ] || exit 1
for a; do pkg=$a; done	# the last argument (apt options come before it)
case "$pkg" in
qemu) cat <<'X'
      qemu | 1:8.2.1+ds-1~bpo12+1 | http://deb.debian.org/debian bookworm-backports/main Sources
      qemu | 1:7.2+dfsg-7+deb12u30 | http://deb.debian.org/debian-security bookworm-security/main Sources
      qemu | 1:7.2+dfsg-7+deb12u25 | http://deb.debian.org/debian bookworm/main Sources
      qemu | 1:7.2+dfsg-7+deb12u31 | http://deb.debian.org/debian bookworm/main amd64 Packages
X
;;
v4l-utils:armel) cat <<'X'
 v4l-utils | 1.32.0-1 | http://deb.debian.org/debian forky/main armel Packages
 v4l-utils | 1.30.1-3 | http://deb.debian.org/debian-security trixie-security/main armel Packages
 v4l-utils | 1.30.1-2 | http://deb.debian.org/debian trixie/main armel Packages
 v4l-utils | 1.22.1-5+b9 | http://deb.debian.org/debian bookworm/main armel Packages
X
;;
libc6-armel-cross) cat <<'X'
 libc6-armel-cross | 2.41-19cross1 | http://deb.debian.org/debian trixie/main armel Packages
 libc6-armel-cross | 2.41-20cross1 | http://deb.debian.org/debian trixie/main amd64 Packages
 libc6-armel-cross | 2.36-8cross1 | http://deb.debian.org/debian bookworm/main armel Packages
X
;;
esac
EOF
chmod +x "$fake/apt-cache"
fresh=$T_TMP/fresh-cache
mkdir -p "$fresh"
v=$(PATH=$fake:$PATH S5P_CACHE=$fresh S5P_VERSIONS=$T_TMP/versions-old bash -c '
	printf "qemu 1:7.2+dfsg-7+deb12u1\n" >"$S5P_VERSIONS"
	. "$S5P_TOP/scripts/lib/common.sh"; . "$S5P_TOP/scripts/lib/versions.sh"
	s5p_version qemu; s5p_version qemu' 2>"$T_TMP/fallback.err")
t_check "a recorded QEMU the archive lost: the newest 7.2 of bookworm, not backports' 8.2 (got: $(tr '\n' ' ' <<<"$v"))" \
	test "$v" = "1:7.2+dfsg-7+deb12u30
1:7.2+dfsg-7+deb12u30"
t_check "... with one warning line naming both versions" \
	bash -c "[ \$(grep -c . '$T_TMP/fallback.err') = 1 ] &&
		grep -q 'qemu 1:7.2+dfsg-7+deb12u1 .*using 1:7.2+dfsg-7+deb12u30' '$T_TMP/fallback.err'"
# Packages from another suite (rootfs/packages.txt NAME/SUITE, versions
# NAME:armel/SUITE): that suite's versions only; an Architecture: all one
# by its bare name, its armel entries.
v=$(PATH=$fake:$PATH S5P_CACHE=$fresh S5P_VERSIONS=$T_TMP/versions-trixie bash -c '
	printf "v4l-utils:armel/trixie 1.30.1-1\nlibc6-armel-cross:armel/trixie 2.41-11cross1\n" >"$S5P_VERSIONS"
	. "$S5P_TOP/scripts/lib/common.sh"; . "$S5P_TOP/scripts/lib/versions.sh"
	s5p_version v4l-utils:armel/trixie; s5p_version libc6-armel-cross:armel/trixie' 2>"$T_TMP/trixie.err")
t_check "a recorded trixie package the archive lost: the newest of trixie (not bookworm's, not forky's), an all package's armel entry (got: $(tr '\n' ' ' <<<"$v"))" \
	test "$v" = "1.30.1-3
2.41-19cross1"
t_check "setup.sh --help documents --update" \
	bash -c "'$S5P_TOP/scripts/setup.sh' --help | grep -q -- '--update'"

# setup.sh offline: apt's lists absent (a new APT_CONFIG's empty lists
# directory; the machine's own are not touched), every package installed
# (make check ran setup.sh) and a cache that holds every recorded version
# (placeholders, as s5p_version_cached sees them): nothing to ask apt.
warm=$T_TMP/warm-cache
mkdir -p "$warm/downloads/armel" "$T_TMP/apt-lists"
for p in $(s5p_version_packages); do
	v=$(s5p_recorded "$p")
	case "$p" in
	linux-source-6.1) mkdir -p "$warm/linux-$v/src/.git" && touch "$warm/linux-$v/src/.git/s5p-unpacked" ;;
	qemu) touch "$warm/downloads/qemu_${v#*:}.dsc" ;;
	*) touch "$warm/downloads/armel/${p%%:*}_${v//:/%3a}_armel.deb" ;;
	esac
done
printf 'Dir::State::lists "%s/";\n' "$T_TMP/apt-lists" >"$T_TMP/apt.conf"
no_apt "$T_TMP/no-apt-setup"
setup_offline() {
	PATH=$T_TMP/no-apt-setup:$PATH APT_CONFIG=$T_TMP/apt.conf S5P_CACHE=$warm \
		timeout --foreground -k 10 120 "$S5P_TOP/scripts/setup.sh" "$@" >"$T_TMP/setup.out" 2>&1
}
setup_offline --check
rc=$?
t_check "no apt lists, everything installed, a warm cache: setup.sh --check says complete (status $rc: $(tail -n1 "$T_TMP/setup.out"))" \
	test "$rc" = 0
setup_offline
rc=$?
t_check "... and setup.sh succeeds offline, asking apt nothing (status $rc; apt calls: $(paste -sd';' "$T_TMP/no-apt-setup/calls" 2>/dev/null))" \
	test "$rc" = 0 -a ! -e "$T_TMP/no-apt-setup/calls"
rm -f "$warm"/downloads/armel/busybox-static_*
setup_offline --check
rc=$?
t_check "... a version the cache lacks (busybox-static:armel): --check fails, naming it (status $rc)" \
	bash -c "[ $rc = 1 ] && grep -q 'the cache lacks: busybox-static:armel' '$T_TMP/setup.out'"

# --- a cache that cannot go stale -----------------------------------------
co=$T_TMP/co
scratch "$co"
dry() { "$co/scripts/boot-goni.sh" --dry-run 2>&1; }
out=$(dry)
t_check "a scratch copy of the checkout: nothing to build" grep -q '^up to date' <<<"$out"

# A kernel patch edited (its description only: the series changes).
kp=$(grep -vE '^(#|$)' "$co/kernel-patches/series" | head -n1)
cp "$co/kernel-patches/$kp" "$T_TMP/kp.orig"
sed -i '0,/^---$/s//Edited by 12-pipeline.\n---/' "$co/kernel-patches/$kp"
out=$(dry)
t_check "an edited kernel patch: the next build rebuilds the kernel" \
	grep -q '^would build: kernel config and kernel for goni' <<<"$out"
t_check "... and the device tree" grep -q '^would build: device tree for goni' <<<"$out"
t_check "... and the initramfs (its modules)" grep -q '^would build: initramfs' <<<"$out"
cp "$T_TMP/kp.orig" "$co/kernel-patches/$kp"
t_check "the patch restored: nothing to build" grep -q '^up to date' <<<"$(dry)"

qp=$(grep -vE '^(#|$)' "$co/qemu-patches/series" | tail -n1)
cp "$co/qemu-patches/$qp" "$T_TMP/qp.orig"
sed -i '0,/^---$/s//Edited by 12-pipeline.\n---/' "$co/qemu-patches/$qp"
t_check "an edited QEMU patch: the next build rebuilds QEMU" \
	grep -q '^would build: qemu-system-arm' <<<"$(dry)"
cp "$T_TMP/qp.orig" "$co/qemu-patches/$qp"

cp "$co/boards/goni/goni.dts" "$T_TMP/dts.orig"
echo "/* 12-pipeline $$ $(date +%s%N) */" >>"$co/boards/goni/goni.dts"
t_check "an edited board dts: the device tree, nothing else" \
	bash -c "out=\$('$co/scripts/boot-goni.sh' --dry-run 2>&1); echo \"\$out\";
		[ \"\$(grep -c '^would build' <<<\"\$out\")\" = 1 ] && grep -q '^would build: device tree' <<<\"\$out\""

chmod -x "$co/tests/guest/base.sh"
t_check "a guest script's mode changed: the initramfs" \
	grep -q '^would build: initramfs' <<<"$(dry)"
chmod +x "$co/tests/guest/base.sh"

mkdir -p "$co/tools/cma/build/native"
echo junk >"$co/tools/cma/build/native/cma-test"
echo junk >"$co/tools/cma/cma-test.o"
# (the dry run must have run through: a crash prints no "would build"
# line either; the board dts is still the edited one, so the device tree
# is all it names)
out=$("$co/scripts/boot-goni.sh" --dry-run 2>&1)
rc=$?
# shellcheck disable=SC2016 # (the arguments are expanded by bash -c)
t_check "build output in tools/ is not an input of the initramfs (dry run: status $rc, $(grep -c '^would build' <<<"$out") to build)" \
	bash -c '[ "$1" = 0 ] && [ "$(grep -c "^would build" <<<"$2")" = 1 ] &&
		grep -q "^would build: device tree for goni " <<<"$2"' _ "$rc" "$out"

# The drivers' build copy is shared by every checkout using the cache, and
# make compares times: a source whose contents changed must be newer there
# than the object compiled from the old one, even when the checkout's file
# is older (a merge or revert in one checkout after another's build);
# an unchanged one keeps its time.  Before, rsync -a kept the checkout's
# mtime, make took the old object as built, and an initramfs held another
# checkout's codec module under this one's key (issue 24).
ds=$T_TMP/drv-src dd=$T_TMP/drv-build
mkdir -p "$ds/codec" "$dd/codec"
echo 'new source' >"$ds/codec/c.c" && echo same >"$ds/codec/s.c"
touch -d '2 hours ago' "$ds/codec/c.c" "$ds/codec/s.c"
echo 'old source' >"$dd/codec/c.c" && cp -p "$ds/codec/s.c" "$dd/codec/s.c"
echo obj >"$dd/codec/c.o" && touch -d '1 hour ago' "$dd/codec/c.o"
bash -c '. "$S5P_TOP/scripts/lib/common.sh" && . "$S5P_TOP/scripts/lib/kernel.sh" &&
	s5p_drivers_stage "$1" "$2"' _ "$ds" "$dd" >"$T_TMP/stage.log" 2>&1
t_check "a driver source changed in an older file: its build copy is newer than the old object (make recompiles)" \
	bash -c "[ \"\$(cat '$dd/codec/c.c')\" = 'new source' ] && [ '$dd/codec/c.c' -nt '$dd/codec/c.o' ] && [ -e '$dd/codec/c.o' ]"
t_check "... and an unchanged one keeps its time (nothing recompiles)" \
	bash -c "[ ! '$dd/codec/s.c' -nt '$dd/codec/c.o' ]"

# --- a failed git step stops the checkout, and leaves no stamp ------------
# A small tree (s5p_tree_init) and a one-patch series; a git shim fails
# the one subcommand named in S5P_GIT_FAIL.
trepo=$T_TMP/tree/src tpatches=$T_TMP/tree/patches
mkdir -p "$trepo" "$tpatches" && echo one >"$trepo/f"
(
	s5p_info() { :; }
	. "$S5P_TOP/scripts/lib/tree.sh" && s5p_tree_init "$trepo" base &&
		echo two >"$trepo/f" && git -C "$trepo" commit -q -am "f: two" &&
		git -C "$trepo" format-patch -q -1 -o "$tpatches" &&
		git -C "$trepo" reset -q --hard base
) >"$T_TMP/tree/init.log" 2>&1
(cd "$tpatches" && ls -- *.patch) >"$tpatches/series"
gitshim=$T_TMP/git-fail
mkdir -p "$gitshim"
cat >"$gitshim/git" <<EOF
#!/bin/sh
for a; do
	[ "\$a" != "\${S5P_GIT_FAIL:-}" ] || { echo "git \$a: failing on purpose (12-pipeline)" >&2; exit 128; }
done
exec $(command -v git) "\$@"
EOF
chmod +x "$gitshim/git"
tree_checkout() { # HASH [FAILING-SUBCOMMAND]
	PATH=$gitshim:$PATH S5P_GIT_FAIL=${2:-} bash -c '. "$S5P_TOP/scripts/lib/common.sh" &&
		. "$S5P_TOP/scripts/lib/tree.sh" && s5p_tree_checkout "$1" "$2" "$3" "12-pipeline"' \
		_ "$trepo" "$tpatches" "$1"
}
tree_checkout h-ok >"$T_TMP/tree/ok.log" 2>&1
t_check "a tree checkout: the series applied, the stamp written" \
	test "$(cat "$trepo/f")/$(cat "$trepo/.git/s5p-series" 2>/dev/null)" = two/h-ok
t_check "... and its end says how long it took (a step's completion line)" \
	grep -qE '^==> 12-pipeline: series applied: [0-9]+ s' "$T_TMP/tree/ok.log"
for c in read-tree write-tree commit-tree checkout update-ref; do
	tree_checkout "h-$c" "$c" >"$T_TMP/tree/$c.log" 2>&1
	rc=$?
	t_check "a failed git $c: the checkout stops with an error (status $rc) and writes no stamp ($(cat "$trepo/.git/s5p-series" 2>/dev/null || echo none))" \
		bash -c "[ $rc != 0 ] && [ ! -e '$trepo/.git/s5p-series' ] &&
			grep -q '^error: .*git $c.* failed in $trepo' '$T_TMP/tree/$c.log'"
done

# --- a cache path the build cannot take -----------------------------------
# A space or a colon in S5P_CACHE (gen_init_cpio's lists, make's O=):
# every entry point refuses it at once, and writes nothing there.
for bad in "$T_TMP/cache with space" "$T_TMP/cache:colon"; do
	for ep in "boot-goni.sh --dry-run" "setup.sh --check" "clean.sh --old --dry-run" "kmod.sh --help"; do
		# shellcheck disable=SC2086 # (the entry point and its option)
		PATH=$shim:$PATH S5P_CACHE=$bad "$S5P_TOP"/scripts/$ep >"$T_TMP/badcache.out" 2>&1
		rc=$?
		if [ "$rc" != 1 ] || [ -e "$bad" ] ||
			! grep -q "^error: S5P_CACHE='$bad' holds a space or a colon" "$T_TMP/badcache.out"; then
			echo "$ep with S5P_CACHE='$bad': status $rc$([ -e "$bad" ] && echo ", wrote into it"):"
			head -n 3 "$T_TMP/badcache.out"
		fi
		rm -rf "$bad"
	done
done >"$T_TMP/badcache.log"
t_check "S5P_CACHE with a space or a colon: boot, setup, clean and kmod.sh refuse it with a message, writing nothing" \
	bash -c "! grep . '$T_TMP/badcache.log' >&2"

# --- an interrupted build ends its jobs -----------------------------------
# A build step (s5p_run_logged, as the kernel's make and QEMU's ninja run)
# whose jobs sleep: a Ctrl-C (SIGINT to the whole process group, as a
# terminal sends it) or a SIGTERM to the script ends them too, and the
# script stops before it writes its stamp.
fake=$T_TMP/fake-build
mkdir -p "$fake"
tag=$$$RANDOM
printf 'all: a b\na b:\n\tsleep 300.%s\n' "$tag" >"$fake/Makefile"
printf 'rule s\n  command = sleep 300.%s\nbuild a: s\nbuild b: s\n' "$tag" >"$fake/build.ninja"
interrupted_build() { # SIGNAL WHOM(group|script) BUILD-COMMAND...
	local sig=$1 whom=$2 pid n=0 rc left
	shift 2
	rm -f "$fake/stamp"
	# (env: a script started from a terminal has SIGINT at its default; one
	# started in the background here would inherit it ignored)
	# shellcheck disable=SC2016 # (expanded by that bash)
	env --default-signal=INT setsid bash -c '. "$S5P_TOP/scripts/lib/common.sh"; . "$S5P_TOP/scripts/lib/progress.sh"
		d=$1; shift; s5p_run_logged "$d/build.log" "a fake build" "$@"; echo built >"$d/stamp"' \
		_ "$fake" "$@" >"$fake/out" 2>&1 &
	pid=$!
	while [ "$(pgrep -fc "^sleep 300\.$tag")" -lt 2 ] && [ $n -lt 50 ]; do sleep 0.2; n=$((n + 1)); done
	if [ "$whom" = group ]; then kill -"$sig" -- -"$pid"; else kill -"$sig" "$pid"; fi
	n=0
	while kill -0 "$pid" 2>/dev/null && [ $n -lt 150 ]; do sleep 0.2; n=$((n + 1)); done
	kill -0 "$pid" 2>/dev/null && kill -KILL -- -"$pid" # (still running after 30 s: ours)
	wait "$pid"
	rc=$?
	sleep 0.5
	left=$(pgrep -f "^sleep 300\.$tag" | tr '\n' ' ')
	echo "status $rc, jobs left: ${left:-none}, stamp: $(cat "$fake/stamp" 2>/dev/null || echo none)"
	# (ours: ended here whatever the result)
	# shellcheck disable=SC2086 # (a list of pids)
	[ -z "$left" ] || kill $left 2>/dev/null
	[ -z "$left" ] && [ ! -e "$fake/stamp" ] && grep -q '^error: interrupted: stopped a fake build' "$fake/out"
}
res=$(interrupted_build INT group make -C "$fake" -j2)
t_check "Ctrl-C on a make build: its jobs end, no stamp, a message ($res)" test $? = 0
res=$(interrupted_build TERM script ninja -C "$fake" -j2 a b)
t_check "SIGTERM to a script running ninja: its jobs end, no stamp, a message ($res)" test $? = 0

# --- housekeeping ---------------------------------------------------------
built=$("$S5P_TOP/scripts/boot-goni.sh" --build-only 2>&1 | sed -n 's/^==> built ([^)]*): //p' | tr -d ',')
old=("$S5P_CACHE/dtb/goni-0000000000000000.dtb" "$S5P_CACHE/rootfs/initramfs-0000000000000000.cpio.gz"
	"$S5P_CACHE/linux-0.0-12pipeline")
mkdir -p "${old[2]}/src" && touch "${old[0]}" "${old[1]}"
"$S5P_TOP/scripts/clean.sh" --old --dry-run >"$T_TMP/clean.out" 2>&1
rc=$?
t_check "clean.sh --old --dry-run: would remove old device trees, images and versions (status $rc)" \
	bash -c "grep -q '^would remove dtb/goni-0000000000000000.dtb' '$T_TMP/clean.out' &&
		grep -q '^would remove rootfs/initramfs-0000000000000000.cpio.gz' '$T_TMP/clean.out' &&
		grep -q '^would remove linux-0.0-12pipeline ' '$T_TMP/clean.out'"
keepers=
while read -r r; do
	for p in $built; do
		case "$p" in "$S5P_CACHE/$r" | "$S5P_CACHE/$r"/*) keepers="$keepers $r" ;; esac
	done
done < <(sed -n 's/^would remove \([^ ]*\) .*/\1/p' "$T_TMP/clean.out")
t_check "... and nothing goni's current build uses (${built:-nothing built?})" \
	test -n "$built" -a -z "$keepers${keepers:+ would go:$keepers}"
t_check "... and says what it would free and what would be left" \
	grep -qE '^would free [0-9.]+[KMGT]?B; the cache .* would hold [0-9.]+[KMGT]?B$' "$T_TMP/clean.out"
rm -rf "${old[@]}"

# --- two checkouts sharing the cache --------------------------------------
# The other run holds the kernel tree (a checkout or a build); ours needs
# it for its device tree (the dts edited above): it waits, says so, passes.
. "$S5P_TOP/scripts/lib/kernel.sh"
s5p_kernel_source --no-checkout
# The holder keeps the lock until the run says it waits (at most 60 s),
# not for a fixed time: a loaded machine may take longer than that to
# reach the lock, and the run would then never wait.
: >"$T_TMP/wait.log"
# shellcheck disable=SC2016 # (sh -c's script, expanded there)
flock "$KDIR/tree.lock" sh -c 'i=0; sleep 3
	while ! grep -q "waiting for another run using" "$1" && [ $i -lt 300 ]; do
		sleep 0.2; i=$((i + 1)); done' sh "$T_TMP/wait.log" &
holder=$!
sleep 0.5
t0=$(date +%s)
"$co/scripts/boot-goni.sh" --build-only >"$T_TMP/wait.log" 2>&1
rc=$?
t1=$(date +%s)
wait "$holder"
t_check "a run needing a tree another run holds waits with a message" \
	grep -q 'waiting for another run using' "$T_TMP/wait.log"
t_check "... and then builds and passes (status $rc, waited $((t1 - t0)) s)" \
	test "$rc" = 0 -a $((t1 - t0)) -ge 2
rm -f "$(sed -n 's/.*built.*, \([^ ,]*\.dtb\),.*/\1/p' "$T_TMP/wait.log")"

# A run reading the kernel's outputs (the initramfs's modules, boot.sh's
# zImage: s5p_kernel_read) while another rewrites them: it waits for the
# writer; if the writer left another build there, it copies nothing and
# says so.  A fake build directory, then the real one under a boot.
fk=$T_TMP/fake-kbuild
mkdir -p "$fk/s5p-modules/lib"
echo k1 >"$fk/.s5p-stamp" && echo m1 >"$fk/s5p-modules/.s5p-stamp"
read_fake() {
	bash -c '. "$S5P_TOP/scripts/lib/common.sh" && . "$S5P_TOP/scripts/lib/kernel.sh" &&
		KBUILD=$1 KMODULES=$1/s5p-modules KSTAMP=k1 KMODSTAMP=m1 &&
		s5p_kernel_read cp -a "$1/s5p-modules/lib" "$1/copy"' _ "$fk"
}
flock "$fk/.s5p-outputs.lock" bash -c "sleep 2; echo k2 >'$fk/.s5p-stamp'" &
holder=$!
sleep 0.5
read_fake >"$T_TMP/read-fake.log" 2>&1
rc=$?
wait "$holder"
t_check "a run copying the kernel's modules while another rebuilds them for another series waits, then copies nothing (status $rc)" \
	bash -c "[ $rc = 1 ] && [ ! -e '$fk/copy' ] && grep -q 'waiting for another run writing $fk' '$T_TMP/read-fake.log' &&
		grep -q '^error: another run rebuilt the kernel in $fk' '$T_TMP/read-fake.log'"
s5p_kernel_build goni >/dev/null 2>&1 # (up to date: sets KBUILD)
# The holder keeps the lock until the boot says it waits (at most 120 s):
# a fixed few seconds were over before a boot on a loaded host got there.
: >"$T_TMP/read-wait.log"
flock "$KBUILD/.s5p-outputs.lock" timeout 120 bash -c \
	"until grep -q 'waiting for another run writing' '$T_TMP/read-wait.log'; do sleep 0.2; done" &
holder=$!
sleep 0.5
"$S5P_TOP/scripts/boot-goni.sh" --cmd 'echo read-ok' >"$T_TMP/read-wait.log" 2>&1
rc=$?
wait "$holder"
t_check "a boot while another run writes the kernel's build waits for it, then boots (status $rc)" \
	bash -c "[ $rc = 0 ] && grep -q 'waiting for another run writing $KBUILD' '$T_TMP/read-wait.log' &&
		grep -qx read-ok '$T_TMP/read-wait.log'"

# Two boots at once, from two checkouts.
cp "$T_TMP/dts.orig" "$co/boards/goni/goni.dts"
co2=$T_TMP/co2
scratch "$co2"
"$co/scripts/boot-goni.sh" --cmd 'echo run-a' >"$T_TMP/a.out" 2>&1 &
a=$!
"$co2/scripts/boot-goni.sh" --cmd 'echo run-b' >"$T_TMP/b.out" 2>&1
rb=$?
wait "$a"
ra=$?
t_check "two boots at once from two checkouts: both pass (status $ra and $rb)" \
	bash -c "[ $ra = 0 ] && [ $rb = 0 ] && grep -qx run-a '$T_TMP/a.out' && grep -qx run-b '$T_TMP/b.out'"
# The one list of kernel reports (tests/guest/kernel-reports.re): each kind
# of report is found, by the host's s5p_kernel_reports and by the guest's
# kernel_reports (the same file, under busybox's grep where qemu-arm can run
# it), and the lines a clean boot prints are not.
cat >"$T_TMP/reports.log" <<'LOG'
[    1.0] BUG: KASAN: slab-use-after-free in cma_put+0x1c/0x80
[    1.0] BUG kmalloc-64 (Not tainted): Poison overwritten
[    1.0] BUG kmalloc-128 (Tainted: G           O      ): Redzone overwritten
[    1.0] WARNING: CPU: 0 PID: 1 at mm/cma.c:1 cma_alloc+0x1/0x2
[    1.0] Unable to handle kernel NULL pointer dereference at virtual address 00000000
[    1.0] Internal error: Oops: 17 [#1] ARM
[    1.0] Kernel panic - not syncing: Fatal exception
[    1.0] UBSAN: shift-out-of-bounds in drivers/foo.c:12:3
[    1.0] DMA-API: s5pv210-codec f1700000.video-codec: device driver frees DMA memory with wrong function
[    1.0] ODEBUG: free active (active state 0) object type: timer_list
[    1.0] unreferenced object 0xc4a3b000 (size 64):
[    1.0] INFO: task kworker/0:1:12 blocked for more than 120 seconds.
[    1.0] INFO: trying to register non-static key.
[    1.0] turning off the locking correctness validator.
[    1.0] rcu: INFO: rcu_preempt self-detected stall on CPU
[    1.0] ------------[ cut here ]------------
[    1.0] list_del corruption. prev->next should be c1, but was c2
[    1.0] refcount_t: underflow; use-after-free.
[    1.0] hog invoked oom-killer: gfp_mask=0x140dca(GFP_HIGHUSER_MOVABLE|__GFP_COMP|__GFP_ZERO), order=0, oom_score_adj=0
[    1.0] Out of memory: Killed process 93 (hog) total-vm:470192kB, anon-rss:468736kB, file-rss:4kB, shmem-rss:0kB, UID:0 pgtables:928kB oom_score_adj:0
[    1.0] kworker/0:1: page allocation failure: order:4, mode:0xcc0(GFP_KERNEL), nodemask=(null)
[    1.0] irq 14: nobody cared (try booting with the "irqpoll" option)
[    1.0] Disabling IRQ #14
LOG
cat >"$T_TMP/clean.log" <<'LOG'
[    0.0] DMA-API: preallocated 65536 debug entries
[    0.0] kmemleak: Kernel memory leak detector initialized (mem pool available: 15893)
[    0.0] kasan: KernelAddressSanitizer initialized
[    9.0] S5P-KMEMLEAK 0 unreferenced object(s) (first scans: 0; an object freed after them is not counted)
[    9.0] S5P-KMEMLEAK-FIRST object 0xc1234567 (size 64):
[    9.0] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar
[    9.0] oom_reaper: reaped process 93 (hog), now anon-rss:0kB, file-rss:0kB, shmem-rss:0kB
LOG
nrep=$(wc -l <"$T_TMP/reports.log")
got=$(s5p_kernel_reports "$T_TMP/reports.log" | wc -l)
t_check "the report list finds each of $nrep kinds of kernel report (found $got) and none of a clean boot's lines" \
	bash -c "[ '$got' = '$nrep' ] && ! { . '$S5P_TOP/scripts/lib/common.sh'; s5p_kernel_reports '$T_TMP/clean.log'; }"
# A boot's allowance (boot.sh --allow-report, t_no_reports's ALLOW) lets
# its own kind of report through and no other: each of
# tests/guest/kernel-reports.allow's names covers its lines of the list
# above, all of them report lines, and the others stay.
allow_ok() {
	local n want got
	for n in oom:2 alloc-failure:1 irq-storm:2; do
		got=$(s5p_allowed_reports "$T_TMP/reports.log" "${n%:*}" | wc -l)
		want=$(s5p_kernel_reports "$T_TMP/reports.log" "${n%:*}" | wc -l)
		if [ "$got" != "${n#*:}" ] || [ $((want + got)) != "$nrep" ]; then
			echo "${n%:*}: allows $got line(s), leaves $want of $nrep"
			return 1
		fi
	done
	[ "$(s5p_kernel_reports "$T_TMP/reports.log" oom alloc-failure irq-storm | wc -l)" = $((nrep - 5)) ] ||
		{ echo "all three allow more or less than their 5 lines"; return 1; }
	s5p_kernel_reports "$T_TMP/reports.log" nosuch >/dev/null 2>&1
	[ $? = 2 ] || { echo "an unknown allowance is not an error"; return 1; }
}
t_check "each allowance (oom, alloc-failure, irq-storm) covers its own report lines and no other" allow_ok
# shellcheck disable=SC2012 # (Debian's file names: no space or newline)
bb=$(ls "$S5P_CACHE"/downloads/armel/busybox-static_*_armel.deb 2>/dev/null | head -n1)
if [ -n "$bb" ] && command -v qemu-arm >/dev/null && mkdir -p "$T_TMP/bb" && dpkg-deb -x "$bb" "$T_TMP/bb"; then
	gotg=$(qemu-arm "$T_TMP/bb/bin/busybox" grep -aE -f "$S5P_TOP/tests/guest/kernel-reports.re" "$T_TMP/reports.log" | wc -l)
	t_check "the guest's busybox grep finds the same $nrep with the same list (found $gotg) and none of the clean lines" \
		bash -c "[ '$gotg' = '$nrep' ] && ! qemu-arm '$T_TMP/bb/bin/busybox' grep -aE -f '$S5P_TOP/tests/guest/kernel-reports.re' '$T_TMP/clean.log'"
else
	t_skip "the guest's busybox grep finds the same reports" "no cached busybox-static .deb or no qemu-arm"
fi
t_done
