#!/usr/bin/env bash
# Install everything the project needs on a Debian 12 (bookworm) machine.
#
# Idempotent: packages already present are skipped, and apt is only asked
# when something is missing: a package to install, or a Debian version
# ("versions") the cache does not hold yet, to download.  Offline with
# everything installed and a warm cache, it succeeds without apt.  Needs
# root (uses sudo when not root).
#
#   scripts/setup.sh          install what is missing
#   scripts/setup.sh --check  only report what is missing (exit 1 if anything)
#   scripts/setup.sh --update move to the newest Debian versions of the kernel
#                             source, QEMU's source and the armel packages (same
#                             release and upstream series; never backports),
#                             rewrite the file "versions", and rebuild both boards
#                             (then run make check and commit "versions")
set -u
. "$(dirname "$0")/lib/common.sh"
. "$S5P_TOP/scripts/lib/versions.sh"

# Host packages: cross compiler, kernel build deps, QEMU build deps, tools.
HOST_PKGS=(
	build-essential gcc-arm-linux-gnueabi binutils-arm-linux-gnueabi libc6-dev-armel-cross
	bc bison flex libssl-dev cpio xz-utils kmod rsync git python3 dpkg-dev file
	linux-source-6.1
	meson ninja-build pkg-config libglib2.0-dev libpixman-1-dev zlib1g-dev libfdt-dev
	device-tree-compiler util-linux
	python3-ply python3-git
	libjpeg-turbo-progs libjpeg62-turbo-dev
	libattr1-dev libcap-ng-dev # QEMU's virtfs (9p): boot.sh --share
	python3-matplotlib
	# the host fuzzer (scripts/fuzz-cma.sh, docs/fuzzing.md): libFuzzer and
	# the sanitizer runtimes, llvm-cov, and its default i386 build
	clang libclang-rt-14-dev llvm libc6-dev-i386 lib32stdc++-12-dev
	# ... and qemu-i386 to run that build where the host's kernel has no
	# IA32 emulation (without qemu-user-binfmt: nothing is registered)
	qemu-user
	# the LAVA job schema that make check validates the generated jobs with
	# (16-lava, docs/lab.md); the dispatcher itself is fetched on demand by
	# scripts/lava-run.sh, not here
	lava-common
	# dt-schema: the device tree bindings of drivers/bindings checked, and
	# the boards' trees against them (35-codec)
	dt-schema
	# the shell scripts checked (17-shellcheck)
	shellcheck
)

check=0 update=0
case "${1:-}" in
--check) check=1 ;;
--update) update=1 ;;
-h | --help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
"") ;;
*) s5p_die "unknown option '$1' (try --help)" ;;
esac

missing=()
for p in "${HOST_PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

have_armel=0
dpkg --print-foreign-architectures | grep -qx armel && have_armel=1

have_src=0
if grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/; then
	have_src=1
fi

# Guest packages from a newer Debian suite (rootfs/packages.txt lines
# "NAME/SUITE", e.g. v4l-utils/trixie: docs/pipeline.md): an apt source for
# that suite, armel only (the host's own architecture is never indexed from
# it), and a pin at -1 so that apt never installs or upgrades anything from it;
# the pipeline only downloads those packages' .debs at their recorded versions.
newer_suites=$(s5p_newer_suites)
newer_missing=() newer_unfetched=()
# Where apt keeps the package lists it fetched (APT_CONFIG may move it).
lists=/var/lib/apt/lists
eval "$(apt-config shell lists Dir::State::lists/d 2>/dev/null)"
lists=${lists%/}
s5p_newer_source() { # SUITE: the sources file's content
	local mirror
	mirror=$(sed -n 's|^URIs: *\(http[^ ]*/debian\)/*$|\1|p; s|^deb \(\[[^]]*\] \)\{0,1\}\(http[^ ]*/debian\)/* .*|\2|p' \
		/etc/apt/sources.list.d/debian.sources /etc/apt/sources.list 2>/dev/null | head -n1)
	mirror=${mirror:-http://deb.debian.org/debian}
	cat <<EOS
# scripts/setup.sh (s5pv210-cma): Debian $1 for a few armel packages of the
# guest, downloaded by exact version; pinned at -1 in
# /etc/apt/preferences.d/s5pv210-cma-$1: nothing is ever installed from it.
Types: deb
URIs: $mirror
Suites: $1 $1-updates
Components: main
Architectures: armel
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${mirror%/debian}/debian-security
Suites: $1-security
Components: main
Architectures: armel
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOS
}
s5p_newer_pin() { # SUITE: the preferences file's content
	cat <<EOS
# scripts/setup.sh (s5pv210-cma): Debian $1 is an apt source only for the
# guest's armel packages the project downloads by exact version; never
# install or upgrade anything on this machine from it.
Package: *
Pin: release n=$1*
Pin-Priority: -1
EOS
}
for s in $newer_suites; do
	cmp -s <(s5p_newer_source "$s") "/etc/apt/sources.list.d/s5pv210-cma-$s.sources" &&
		cmp -s <(s5p_newer_pin "$s") "/etc/apt/preferences.d/s5pv210-cma-$s" ||
		newer_missing+=("$s")
	ls "$lists"/*_dists_"${s}"_main_binary-armel_Packages* >/dev/null 2>&1 ||
		newer_unfetched+=("$s")
done

# The package lists apt has fetched: an earlier run may have added the
# deb-src lines and the armel architecture and then failed at 'apt-get
# update'; that run must be retried, not taken as done.  They are needed
# only when something is to be downloaded: the Debian versions of
# "versions" that the cache does not hold (a fresh cache: all of them).
have_lists=1
ls "$lists"/*_Sources* >/dev/null 2>&1 || have_lists=0
ls "$lists"/*binary-armel_Packages* >/dev/null 2>&1 || have_lists=0
[ ${#newer_unfetched[@]} = 0 ] || have_lists=0
to_fetch=$(s5p_versions_to_fetch | tr '\n' ' ')
to_fetch=${to_fetch% }

if [ $check = 1 ]; then
	rc=0
	[ ${#missing[@]} -eq 0 ] || { echo "missing packages: ${missing[*]}"; rc=1; }
	[ $have_armel = 1 ] || { echo "dpkg architecture armel not added"; rc=1; }
	[ $have_src = 1 ] || { echo "no deb-src lines in the apt sources"; rc=1; }
	[ $have_lists = 1 ] || [ -z "$to_fetch" ] ||
		{ echo "apt has no source or armel package lists yet ('apt-get update' never succeeded), and the cache lacks: $to_fetch"; rc=1; }
	for s in "${newer_missing[@]}"; do
		echo "no pinned armel apt source for Debian $s (guest packages from $s: rootfs/packages.txt)"; rc=1
	done
	[ $rc = 0 ] && echo "setup complete"
	exit $rc
fi

sources_added=0
if [ $have_src = 0 ]; then
	s5p_log "adding deb-src lines (needed by 'apt-get source qemu')"
	if [ -f /etc/apt/sources.list.d/debian.sources ]; then
		sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources |
			s5p_sudo tee /etc/apt/sources.list.d/s5pv210-cma-src.sources >/dev/null
	elif [ -f /etc/apt/sources.list ]; then
		sed -n 's/^deb \(.*\)$/deb-src \1/p' /etc/apt/sources.list |
			s5p_sudo tee /etc/apt/sources.list.d/s5pv210-cma-src.list >/dev/null
	else
		s5p_die "cannot find the apt sources to derive deb-src lines from; add deb-src lines for bookworm by hand"
	fi
	sources_added=1
fi
if [ $have_armel = 0 ]; then
	s5p_log "adding the armel architecture (busybox-static:armel and v4l-utils:armel for the guest)"
	s5p_sudo dpkg --add-architecture armel
	sources_added=1
fi
for s in "${newer_missing[@]}"; do
	s5p_log "adding Debian $s for armel, pinned so that nothing is installed from it (guest packages from $s: rootfs/packages.txt)"
	# The pin first: no moment when apt could prefer the newer suite.
	s5p_newer_pin "$s" | s5p_sudo tee "/etc/apt/preferences.d/s5pv210-cma-$s" >/dev/null
	s5p_newer_source "$s" | s5p_sudo tee "/etc/apt/sources.list.d/s5pv210-cma-$s.sources" >/dev/null
	sources_added=1
done
# apt-get update only when apt is to be asked: packages to install, or
# versions to download whose lists apt lacks (or that sources just added
# change), or --update.  Nothing to install and a warm cache: no network.
why=
[ ${#missing[@]} -eq 0 ] || why="to install ${#missing[@]} packages"
if [ -n "$to_fetch" ] && { [ $have_lists = 0 ] || [ $sources_added = 1 ]; }; then
	why="${why:+$why; }to download $(wc -w <<<"$to_fetch") package(s) the cache lacks"
fi
[ $update = 0 ] || why="--update"

if [ -n "$why" ]; then
	s5p_log "apt-get update ($why)"
	t=$(date +%s)
	# Retried: a mirror may be briefly unreachable.
	tries=0
	until s5p_sudo apt-get update; do
		tries=$((tries + 1))
		[ $tries -lt 3 ] ||
			s5p_die "apt-get update failed 3 times: is the Debian archive reachable? (check the network or proxy, then rerun scripts/setup.sh)"
		s5p_info "apt-get update failed; trying again in $((tries * 10)) s"
		sleep $((tries * 10))
	done
	s5p_done "$t" "apt-get update"
fi
if [ ${#missing[@]} -gt 0 ]; then
	# The kernel source at the version recorded in versions, when the
	# archive still has it (the build fetches it otherwise).
	kv=$(s5p_recorded linux-source-6.1)
	for i in "${!missing[@]}"; do
		if [ "${missing[$i]}" = linux-source-6.1 ] && [ -n "$kv" ] &&
			s5p_archive_versions linux-source-6.1 | grep -xF -- "$kv" >/dev/null; then
			missing[i]=linux-source-6.1=$kv
		fi
	done
	s5p_log "installing ${#missing[@]} packages: ${missing[*]}"
	t=$(date +%s)
	if ! s5p_sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"; then
		s5p_die "apt-get install failed (see above); fix the apt problem and rerun scripts/setup.sh"
	fi
	s5p_done "$t" "packages installed"
fi
s5p_log "setup complete"
[ $update = 1 ] || exit 0

# --update: the newest version of each package in this release and series.
s5p_log "looking for the newest versions (this Debian release, same upstream series)"
new=$(mktemp)
# shellcheck disable=SC2064
trap "rm -f '$new'" EXIT
sed -n '/^#/p' "$S5P_VERSIONS" >"$new"
changed=0
for p in $(s5p_version_packages); do
	old=$(s5p_recorded "$p")
	series=
	[ -z "$old" ] || series=$(s5p_version_series "$p" "$old")
	v=$(s5p_version_newest "$p" "$series")
	[ -n "$v" ] || s5p_die "apt knows no version of $p${series:+ in the series $series} in this Debian release; check the apt sources (scripts/setup.sh adds deb-src lines and armel)"
	if [ "$v" != "$old" ]; then
		s5p_info "$p: ${old:-(none)} -> $v"
		changed=$((changed + 1))
	fi
	printf '%s %s\n' "$p" "$v" >>"$new"
done
cp "$new" "$S5P_VERSIONS"
if [ $changed = 0 ]; then
	s5p_log "versions: every package is at its newest already"
else
	s5p_log "versions: $changed package(s) moved; rewrote $S5P_VERSIONS"
fi
s5p_log "rebuilding both boards with these versions"
for b in goni aquila; do
	"$S5P_TOP/scripts/boot-$b.sh" --build-only ||
		s5p_die "the $b build with the new versions failed (above); 'git checkout versions' goes back to the recorded ones"
done
s5p_log "done: run 'make check', then commit $S5P_VERSIONS"
