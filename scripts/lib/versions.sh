# shellcheck shell=bash
# Known inputs: the Debian package versions the project was last built and
# tested with, recorded in the checkout's file "versions" (docs/pipeline.md).
#
# s5p_version PKG prints the version to use for PKG ("linux-source-6.1",
# "qemu" (the source package), "NAME:armel", or "NAME:armel/SUITE" for an
# armel package from another Debian suite, rootfs/packages.txt's "NAME/SUITE"):
#  - the recorded one when the cache already holds it (nothing asks apt: a
#    warm cache builds and boots offline);
#  - the one this cache chose in its place before (S5P_CACHE/versions.local,
#    written with the warning below: it is given once);
#  - the recorded one when apt knows it;
#  - otherwise the newest of the same Debian release (never backports) and
#    upstream series, with one warning line naming both.
S5P_VERSIONS=${S5P_VERSIONS:-$S5P_TOP/versions}

# s5p_recorded PKG: the version in the versions file, or nothing.
s5p_recorded() {
	[ -f "$S5P_VERSIONS" ] || return 0
	awk -v p="$1" '$1 == p { print $2; exit }' "$S5P_VERSIONS"
}

# s5p_version_series PKG VERSION: what a replacement must share with
# VERSION: epoch and major.minor for the kernel and QEMU (6.1, 1:7.2),
# epoch and major version for the armel packages.
s5p_version_series() {
	case "$1" in
	*:armel | *:armel/*) sed -E 's/^(([0-9]+:)?[0-9]+)([^0-9].*)?$/\1/' <<<"$2" ;;
	*) sed -E 's/^(([0-9]+:)?[0-9]+\.[0-9]+)([^0-9].*)?$/\1/' <<<"$2" ;;
	esac
}

# s5p_version_cached PKG VERSION: whether the cache (or the machine, for the
# kernel source) already holds VERSION.
s5p_version_cached() {
	local pkg=$1 v=$2
	case "$pkg" in
	linux-source-6.1)
		[ -f "$S5P_CACHE/linux-$v/src/.git/s5p-unpacked" ] ||
			[ "$(s5p_pkg_version linux-source-6.1)" = "$v" ] ||
			ls "$S5P_CACHE/downloads/linux-source-6.1_${v//:/%3a}_"*.deb >/dev/null 2>&1 ;;
	qemu)
		[ -f "$S5P_CACHE/qemu-${v#*:}/src/.git/s5p-unpacked" ] ||
			[ -f "$S5P_CACHE/downloads/qemu_${v#*:}.dsc" ] ;;
	*:armel | *:armel/*)
		# an armel or "all" .deb (never another architecture's)
		[ -n "$(ls "$S5P_CACHE/downloads/armel/${pkg%%:*}_${v//:/%3a}_"{armel,all}.deb 2>/dev/null)" ] ;;
	*) return 1 ;;
	esac
}

# s5p_version_local PKG RECORDED: the version this cache chose in place of
# RECORDED before (S5P_CACHE/versions.local), or nothing.
s5p_version_local() {
	awk -v p="$1" -v r="${2:--}" '$1 == p && $2 == r { u = $3 } END { print u }' \
		"$S5P_CACHE/versions.local" 2>/dev/null
}

# s5p_versions_to_fetch: the packages (s5p_version_packages) whose version
# the cache does not hold, the recorded one or the one versions.local put in
# its place: what the next build downloads, asking apt.  One a line.
s5p_versions_to_fetch() {
	local p v
	for p in $(s5p_version_packages); do
		v=$(s5p_recorded "$p")
		[ -z "$v" ] || ! s5p_version_cached "$p" "$v" || continue
		v=$(s5p_version_local "$p" "$v")
		[ -z "$v" ] || ! s5p_version_cached "$p" "$v" || continue
		printf '%s\n' "$p"
	done
}

# s5p_archive_versions PKG: every version apt knows of PKG in this Debian
# release's suites (CODENAME, -updates, -security; not -backports), or for
# NAME:armel/SUITE in SUITE's (SUITE, -updates, -security).
s5p_archive_versions() {
	local codename pkg=$1
	codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
	case "$pkg" in */*) codename=${pkg#*/} pkg=${pkg%/*} ;; esac
	command -v apt-cache >/dev/null || return 0
	pkg=$(s5p_apt_name "$pkg")
	s5p_madison "$pkg" | awk -F'|' -v c="$codename" -v src="$([ "$1" = qemu ] && echo 1)" \
		-v arch="$(case "$1" in *:armel*) echo armel ;; esac)" '
		{ gsub(/ /, "", $2); split($3, w, " "); suite = w[2]; sub(/\/.*/, "", suite) }
		src && $3 !~ / Sources$/ { next }
		!src && $3 ~ / Sources$/ { next }
		arch != "" && $3 !~ (" " arch " Packages$") { next }
		suite == c || suite == c "-updates" || suite == c "-security" { print $2 }' | sort -u
}

# s5p_madison NAME: "apt-cache madison NAME", from S5P_MADISON (one
# apt-cache call for every package, s5p_versions_line) when that is set:
# each apt-cache call takes seconds, and a cold cache asks about 60 of them.
s5p_madison() {
	if [ -n "${S5P_MADISON:-}" ] && [ -f "$S5P_MADISON" ]; then
		awk -F'|' -v n="$1" '{ p = $1; gsub(/ /, "", p) } p == n' "$S5P_MADISON"
	else
		s5p_apt_madison "$1" 2>/dev/null
	fi
}

# s5p_apt_name NAME:armel[/SUITE]: the name apt knows the package by:
# NAME:armel, or NAME for an "Architecture: all" package (such as
# libc6-armel-cross), which apt files under the machine's own architecture.
s5p_apt_name() {
	local n=${1%/*}
	case "$n" in *:armel) ;; *) printf '%s\n' "$n"; return 0 ;; esac
	# Not "| grep -q": grep's early exit would SIGPIPE apt-cache, and
	# pipefail would turn a hit into a miss (taking an armel package for an
	# "all" one, whose armel versions then cannot be found).
	if [ -n "$(s5p_madison "$n")" ]; then
		printf '%s\n' "$n"
	else
		printf '%s\n' "${n%:armel}"
	fi
}

# s5p_version_newest PKG SERIES: the newest version in the release whose
# series is SERIES (any, when SERIES is empty).
s5p_version_newest() {
	local best='' v
	while read -r v; do
		[ -n "$v" ] || continue
		[ -z "$2" ] || [ "$(s5p_version_series "$1" "$v")" = "$2" ] || continue
		if [ -z "$best" ] || dpkg --compare-versions "$v" gt "$best"; then best=$v; fi
	done < <(s5p_archive_versions "$1")
	printf '%s\n' "$best"
}

s5p_version() {
	local pkg=$1 rec used local_map=$S5P_CACHE/versions.local series
	rec=$(s5p_recorded "$pkg")
	if [ -n "$rec" ] && s5p_version_cached "$pkg" "$rec"; then
		printf '%s\n' "$rec"; return 0
	fi
	used=$(s5p_version_local "$pkg" "$rec")
	if [ -n "$used" ]; then
		printf '%s\n' "$used"; return 0
	fi
	if [ -n "$rec" ] && s5p_archive_versions "$pkg" | grep -xF -- "$rec" >/dev/null; then
		printf '%s\n' "$rec"; return 0
	fi
	series=
	[ -z "$rec" ] || series=$(s5p_version_series "$pkg" "$rec")
	used=$(s5p_version_newest "$pkg" "$series")
	[ -n "$used" ] ||
		s5p_die "apt knows no version of $pkg${series:+ in the series $series} in this Debian release (recorded: ${rec:-none}); run scripts/setup.sh (deb-src lines, armel architecture, apt-get update), or check the network"
	if [ -n "$rec" ]; then
		printf 'warning: %s %s (recorded in versions) is not in the archive any more; using %s, the newest of the %s series (scripts/setup.sh --update records it)\n' \
			"$pkg" "$rec" "$used" "$series" >&2
	else
		printf 'warning: %s has no recorded version in versions; using %s, the newest in the archive (scripts/setup.sh --update records it)\n' \
			"$pkg" "$used" >&2
	fi
	mkdir -p "$S5P_CACHE"
	printf '%s %s %s\n' "$pkg" "${rec:--}" "$used" >>"$local_map"
	printf '%s\n' "$used"
}

# s5p_version_packages: every package the versions file is about, in order:
# the kernel source, QEMU's source, then rootfs/packages.txt for armel.
s5p_version_packages() {
	printf '%s\n' linux-source-6.1 qemu
	awk '$1 !~ /^#/ && NF && !seen[$1]++ {
		if (index($1, "/")) { n = $1; sub("/.*", "", n); s = $1; sub(".*/", "", s); print n ":armel/" s }
		else print $1 ":armel" }' "$S5P_TOP/rootfs/packages.txt"
}

# s5p_newer_suites: the other Debian suites rootfs/packages.txt takes
# packages from ("NAME/SUITE" lines), one a line (scripts/setup.sh adds
# a pinned apt source for each).
s5p_newer_suites() {
	awk '$1 !~ /^#/ && index($1, "/") { s = $1; sub(".*/", "", s); print s }' "$S5P_TOP/rootfs/packages.txt" | sort -u
}

# s5p_versions_line: "PKG VERSION, ..." for every package (what a run uses).
s5p_versions_line() {
	local p v out=
	s5p_madison_prefetch
	for p in $(s5p_version_packages); do
		v=$(s5p_version "$p") || return 1
		out="${out:+$out, }$p $v"
	done
	printf '%s\n' "$out"
}

# s5p_madison_prefetch: when a package of s5p_version_packages is not in
# the cache yet (a cold cache), ask apt about all of them at once, keep the
# answer in S5P_CACHE/apt-madison (valid while apt's lists and the package
# list stay the same) and point S5P_MADISON at it, so that the s5p_version
# calls that follow ask apt nothing more.  apt-cache takes seconds a call:
# the versions line and the initramfs's downloads asked it about 90 times,
# 5 minutes on a cold cache.
s5p_madison_prefetch() {
	local p v pkgs key f=$S5P_CACHE/apt-madison tmp
	command -v apt-cache >/dev/null || return 0
	pkgs=$(s5p_version_packages)
	for p in $pkgs; do
		v=$(s5p_recorded "$p")
		[ -n "$v" ] && s5p_version_cached "$p" "$v" && continue
		key=$( { echo "$pkgs"; ls -l --time-style=+%s /var/lib/apt/lists/ 2>/dev/null; } | sha256sum | cut -c1-16)
		if [ "$(head -n1 "$f" 2>/dev/null)" != "# key $key" ]; then
			mkdir -p "$S5P_CACHE"
			tmp=$(mktemp "$f.XXXXXX") || return 0
			{
				echo "# key $key"
				# shellcheck disable=SC2046 # (package names, one word each)
				s5p_apt_madison $(for q in $pkgs; do q=${q%/*}; echo "$q"; [ "$q" = "${q%:armel}" ] || echo "${q%:armel}"; done | sort -u) 2>/dev/null
			} >"$tmp" && mv "$tmp" "$f"
		fi
		S5P_MADISON=$f
		export S5P_MADISON
		return 0
	done
}
