# shellcheck shell=bash
# What the series bisects (scripts/series-bisect.sh for QEMU,
# scripts/series-bisect-kernel.sh) share: the commits they walk and the
# worktree they walk them in.

# s5p_bisect_setup REPO SERIES_DIR DEV FROM TO WORKTREE: BISECT_COMMITS,
# the commits of the dev tree's branch DEV (base..DEV) or, with DEV empty,
# of the series in SERIES_DIR applied (s5p_series_commits: no branch
# moves); BISECT_TO, TO (0: the last) bounded by their number.  Dies on a
# FROM outside them.  WORKTREE, a detached worktree of REPO, is made on
# first use.
s5p_bisect_setup() {
	local repo=$1 sdir=$2 dev=$3 from=$4 to=$5 w=$6 list n
	if [ -n "$dev" ]; then
		git -C "$repo" rev-parse -q --verify "refs/heads/$dev" >/dev/null ||
			s5p_die "no dev tree branch '$dev'"
		list=$(git -C "$repo" rev-list --reverse "base..refs/heads/$dev")
	else
		list=$(s5p_series_commits "$repo" "$sdir") || exit 1
	fi
	[ -n "$list" ] || s5p_die "no patches"
	# shellcheck disable=SC2034 # (read by the callers)
	mapfile -t BISECT_COMMITS <<<"$list"
	n=${#BISECT_COMMITS[@]}
	if [ "$to" = 0 ] || [ "$to" -gt "$n" ]; then to=$n; fi
	if [ "$from" -lt 1 ] || [ "$from" -gt "$to" ]; then
		s5p_die "--from $from: the series has $n patches (to $to)"
	fi
	# shellcheck disable=SC2034 # (read by the callers)
	BISECT_TO=$to
	if [ ! -d "$w" ]; then
		s5p_log "creating the bisect worktree $w"
		git -C "$repo" worktree add -q --detach "$w" base || s5p_die "git worktree add $w failed"
	fi
}
