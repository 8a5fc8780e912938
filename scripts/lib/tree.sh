# shellcheck shell=bash
# Source trees in the cache: unpack a Debian source once into a git repository
# (commit tagged "base"), then check out "base + series" incrementally.
#
# Applying a series never touches a file whose content does not change, so
# make/ninja in the build directory only rebuild what the series changed.

# s5p_tree_git_failed REPO WHAT: a git command on REPO failed; stop, saying
# what to do.  (Its stamp stays absent: s5p_tree_checkout removed it.)
s5p_tree_git_failed() {
	s5p_die "$2 failed in $1 (message above; disk full? scripts/clean.sh --old frees space; a damaged tree: remove $1 and the next build unpacks it again)"
}

# s5p_series_commits REPO PATCHDIR: makes one commit a patch of
# PATCHDIR/series on top of base in REPO (no branch moves, nothing checked
# out) and prints their ids, one a line, in order.  Any step that fails
# stops the run (s5p_tree_git_failed).
s5p_series_commits() {
	local repo=$1 pdir=$2 tmp parent p n=0 total
	[ -f "$pdir/series" ] || s5p_die "$pdir/series is missing"
	total=$(grep -cvE '^[[:space:]]*(#|$)' "$pdir/series" || true)
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" RETURN
	parent=$(git -C "$repo" rev-parse --verify -q 'base^{commit}') ||
		s5p_tree_git_failed "$repo" "git rev-parse base (the tag of the pristine source)"
	GIT_INDEX_FILE=$tmp/index git -C "$repo" read-tree base ||
		s5p_tree_git_failed "$repo" "git read-tree base"
	while read -r p; do
		case "$p" in '' | '#'*) continue ;; esac
		n=$((n + 1))
		[ -f "$pdir/$p" ] || s5p_die "$pdir/series lists '$p', which does not exist"
		s5p_info "[$n/$total] $p"
		git -C "$repo" mailinfo "$tmp/msg" "$tmp/patch" <"$pdir/$p" >"$tmp/info" ||
			s5p_die "$pdir/$p is not a git format-patch mail"
		if ! GIT_INDEX_FILE=$tmp/index git -C "$repo" apply --cached --whitespace=nowarn \
			"$tmp/patch" 2>"$tmp/err"; then
			sed 's/^/    /' "$tmp/err" >&2
			s5p_die "$pdir/$p does not apply to $(basename "$(dirname "$repo")") (fix the patch, or rebase it in the dev tree: docs/pipeline.md)"
		fi
		local tree subj name email date
		tree=$(GIT_INDEX_FILE=$tmp/index git -C "$repo" write-tree) ||
			s5p_tree_git_failed "$repo" "git write-tree (after $p)"
		subj=$(sed -n 's/^Subject: //p' "$tmp/info")
		name=$(sed -n 's/^Author: //p' "$tmp/info")
		email=$(sed -n 's/^Email: //p' "$tmp/info")
		date=$(sed -n 's/^Date: //p' "$tmp/info")
		# (An assignment's status is its command substitution's, here the
		# pipeline's (pipefail); nothing checks it unless we do.)
		if ! parent=$( { printf '%s\n\n' "$subj"; cat "$tmp/msg"; } |
			GIT_AUTHOR_NAME=${name:-unknown} GIT_AUTHOR_EMAIL=${email:-unknown} \
			GIT_AUTHOR_DATE=$date GIT_COMMITTER_NAME=s5p-build \
			GIT_COMMITTER_EMAIL=s5p-build@localhost GIT_COMMITTER_DATE=$date \
			git -C "$repo" commit-tree "$tree" -p "$parent") || [ -z "$parent" ]; then
			s5p_tree_git_failed "$repo" "git commit-tree (for $p)"
		fi
		echo "$parent"
	done <"$pdir/series"
}

# s5p_tree_apply_series REPO PATCHDIR: leaves REPO checked out (detached) at
# base + every patch listed in PATCHDIR/series, and its branch "series"
# there; prints nothing on success.
s5p_tree_apply_series() {
	local repo=$1 commits parent
	commits=$(s5p_series_commits "$@") || exit 1
	parent=${commits##*$'\n'}
	[ -n "$parent" ] || parent=$(git -C "$repo" rev-parse --verify -q 'base^{commit}') ||
		s5p_tree_git_failed "$repo" "git rev-parse base (the tag of the pristine source)"
	git -C "$repo" checkout -q -f --detach "$parent" ||
		s5p_tree_git_failed "$repo" "git checkout of the series"
	git -C "$repo" update-ref refs/heads/series "$parent" ||
		s5p_tree_git_failed "$repo" "git update-ref refs/heads/series"
}

# s5p_tree_init REPO MESSAGE: REPO holds freshly unpacked sources; commit them
# as "base".
s5p_tree_init() {
	local repo=$1 msg=$2
	s5p_info "recording the pristine source in git (once)"
	{
		git -C "$repo" init -q &&
			git -C "$repo" config user.name s5p-build &&
			git -C "$repo" config user.email s5p-build@localhost &&
			git -C "$repo" config gc.auto 0 &&
			git -C "$repo" config core.autocrlf false &&
			# Nothing may be ignored: the base is the package as shipped.
			git -C "$repo" add -f -A . &&
			git -C "$repo" commit -q -m "$msg" &&
			git -C "$repo" tag base
	} || s5p_tree_git_failed "$repo" "recording the pristine source in git"
}

# s5p_series_snapshot KIND PATCHDIR: a copy of PATCHDIR named by its hash,
# S5P_CACHE/series/KIND-<hash>, which is what a build applies: a patch
# edited meanwhile cannot make the tree differ from what the stamp says.
# Sets SERIES_HASH and SERIES_DIR.
s5p_series_snapshot() {
	local kind=$1 pdir=$2 h tmp try
	for try in 1 2 3; do
		h=$(s5p_hash "$pdir")
		# shellcheck disable=SC2034 # (read by the callers)
		SERIES_HASH=$h
		SERIES_DIR=$S5P_CACHE/series/$kind-$h
		[ ! -d "$SERIES_DIR" ] || return 0
		mkdir -p "$S5P_CACHE/series"
		tmp=$(mktemp -d "$S5P_CACHE/series/.tmp-$kind.XXXXXX")
		cp -a "$pdir/." "$tmp/"
		if [ "$(s5p_hash "$tmp")" = "$h" ]; then
			mv -T "$tmp" "$SERIES_DIR" 2>/dev/null || rm -rf "$tmp"
			return 0
		fi
		rm -rf "$tmp"
		s5p_info "$pdir changed while it was copied (try $try)"
	done
	s5p_die "$pdir keeps changing while it is copied; try again when the edits are done"
}

# s5p_tree_checkout REPO SERIES_DIR HASH WHAT: REPO at base + the series in
# SERIES_DIR, whose hash is HASH (recorded in REPO/.git/s5p-series once the
# checkout is complete, and removed before it starts).  Call it holding the
# tree's lock.
s5p_tree_checkout() {
	local repo=$1 sdir=$2 hash=$3 what=$4 t
	[ "$(cat "$repo/.git/s5p-series" 2>/dev/null)" != "$hash" ] || return 0
	s5p_log "$what"
	t=$(date +%s)
	rm -f "$repo/.git/s5p-series"
	# The stamp only after a complete checkout (s5p_tree_apply_series
	# stops the run on any failure).
	s5p_tree_apply_series "$repo" "$sdir" || exit 1
	echo "$hash" >"$repo/.git/s5p-series"
	s5p_done "$t" "${what%%:*}: series applied"
}
