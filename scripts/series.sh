#!/usr/bin/env bash
# Work on the kernel or QEMU patch series in a git tree of the Debian source.
#
#   scripts/series.sh kernel|qemu dev [NAME]     make (or show) the dev tree NAME
#                                                (default "dev"): a git worktree of
#                                                the unpacked source, branch NAME,
#                                                with the current series applied
#   scripts/series.sh kernel|qemu export [NAME]  regenerate kernel-patches/ or
#                                                qemu-patches/ (patches, series, cover
#                                                letter) from the commits base..NAME
#   scripts/series.sh kernel|qemu rebase [NAME]  move the dev tree NAME onto the series
#                                                as it is now in the repository (after
#                                                someone else exported); your commits
#                                                that are not in it are replayed
#   scripts/series.sh kernel|qemu check          the source's own scripts/checkpatch.pl
#                                                on every patch of the series: one
#                                                verdict a patch, exit status 1 if any
#                                                has errors (QEMU's: only warnings
#                                                are allowed, as upstream); inputs
#                                                checked before: the verdict kept then
#
# To build and boot a dev tree directly (no export), set S5P_KERNEL_TREE or
# S5P_QEMU_TREE to its path: see docs/pipeline.md.
set -u
. "$(dirname "$0")/lib/common.sh"

what=${1:-}
cmd=${2:-}
name=${3:-dev}
case "$what" in
kernel) . "$S5P_TOP/scripts/lib/kernel.sh"; pdir=$S5P_TOP/kernel-patches ;;
qemu) . "$S5P_TOP/scripts/lib/qemu.sh"; pdir=$S5P_TOP/qemu-patches ;;
-h | --help | "") sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
*) s5p_die "unknown series '$what' (kernel or qemu)" ;;
esac
[[ $name =~ ^[A-Za-z0-9_-]+$ ]] || s5p_die "bad dev tree name '$name'"

# series_hash: what the series in the repository is now (its file list and
# patches).  A dev tree records the hash it was based on (git config
# branch.NAME.s5pseries), so an export after a rebase -i (fixups folded)
# still knows whether someone else exported in the meantime.
series_hash() {
	(cd "$pdir" && cat series && while read -r p; do
		case "$p" in '' | '#'*) ;; *) cat "$p" ;; esac
	done <series) | sha256sum | cut -c1-16
}

# keep_verdict: (check) keep the verdict printed (fd 1 is a tee into
# $kept.$$.out) and its status, then exit with it.
keep_verdict() {
	exec >&9 9>&-
	wait $! 2>/dev/null
	mv "$kept.$$.out" "$kept.out" && echo "$rc" >"$kept.rc"
	exit "$rc"
}

# addresses DIR ARGS...: get_maintainer.pl's addresses for the patches in
# DIR (the dev tree's MAINTAINERS), comma-separated, without the series'
# own author.
addresses() {
	local d=$1
	shift
	(cd "$dev" && perl scripts/get_maintainer.pl --no-git --no-git-fallback --no-rolestats \
		--no-tree "$@" "$d"/0*.patch 2>/dev/null) |
		grep -vF "<$S5P_PATCH_EMAIL>" | paste -sd, - | sed 's/,/, /g'
}

# export_topics: (export) the series as topic series, one directory each
# ($pdir/topics: a line "DIR<tab>SUBJECT", SUBJECT the first patch's), in
# that order; each with its cover letter from DIR/cover.txt (first
# paragraph the subject) and get_maintainer.pl's recipients, To: the
# maintainers and reviewers, Cc: the lists.  Every commit belongs to the
# topic whose first patch is the last one before it.
export_topics() {
	local dirs=() firsts=() d f c subj t=-1 i prev=-1 order=()
	while IFS=$'\t' read -r d f; do
		case "$d" in '' | '#'*) continue ;; esac
		[ -n "$f" ] || s5p_die "$pdir/topics: no first subject for $d (DIR<tab>SUBJECT)"
		dirs+=("$d") firsts+=("$f")
	done <"$pdir/topics"
	declare -A range_first=() range_last=()
	while read -r c; do
		subj=$(git -C "$dev" log -1 --format=%s "$c")
		for i in "${!firsts[@]}"; do
			[ "$subj" = "${firsts[$i]}" ] && t=$i
		done
		[ "$t" -ge 0 ] || s5p_die "the first patch ('$subj') is no topic's first in $pdir/topics"
		if [ "$t" != "$prev" ]; then
			[ -z "${range_first[$t]:-}" ] || s5p_die "topic ${dirs[$t]} comes twice: its patches must follow each other"
			range_first[$t]=$c order+=("$t") prev=$t
		fi
		range_last[$t]=$c
	done < <(git -C "$dev" rev-list --reverse base..HEAD)
	: >"$tmp/series"
	for t in "${order[@]}"; do
		d=${dirs[$t]}
		[ -f "$pdir/$d/cover.txt" ] || s5p_die "no $pdir/$d/cover.txt (the cover letter of topic $d)"
		git -C "$dev" format-patch -q --zero-commit --no-signature -o "$tmp/first/$d" \
			"${range_first[$t]}^..${range_last[$t]}"
		local to cc
		to=$(addresses "$tmp/first/$d" --m --r --no-l)
		cc=$(addresses "$tmp/first/$d" --no-m --no-r --l)
		git -C "$dev" format-patch -q --zero-commit --no-signature --cover-letter \
			${to:+--to="$to"} ${cc:+--cc="$cc"} \
			-o "$tmp/out/$d" "${range_first[$t]}^..${range_last[$t]}"
		# (--cover-from-description takes the branch's description, and
		# a topic's range ends on no branch: the blurb goes in here)
		python3 - "$pdir/$d/cover.txt" "$tmp/out/$d/0000-cover-letter.patch" <<'PY' ||
import sys
cover, letter = sys.argv[1], sys.argv[2]
subj, _, body = open(cover).read().strip().partition('\n\n')
s = open(letter).read()
for mark, text in (('*** SUBJECT HERE ***', ' '.join(subj.split())),
                   ('*** BLURB HERE ***', body.strip())):
    if mark not in s:
        sys.exit('%s: no %s' % (letter, mark))
    s = s.replace(mark, text, 1)
open(letter, 'w').write(s)
PY
			s5p_die "could not write the cover letter of topic $d"
		(cd "$tmp/out" && for f in "$d"/[0-9][0-9][0-9][0-9]-*.patch; do
			[ "${f#"$d"/0000-cover-letter}" = "$f" ] && echo "$f"
		done) >>"$tmp/series"
	done
	find "$pdir" -maxdepth 2 -name '[0-9][0-9][0-9][0-9]-*.patch' -delete
	for t in "${order[@]}"; do
		mkdir -p "$pdir/${dirs[$t]}"
		cp "$tmp/out/${dirs[$t]}"/*.patch "$pdir/${dirs[$t]}/"
	done
	cp "$tmp/series" "$pdir/series"
}

main_tree() {
	unset S5P_KERNEL_TREE S5P_QEMU_TREE
	if [ "$what" = kernel ]; then s5p_kernel_source; TREE=$KSRC
	else s5p_qemu_source; TREE=$QSRC; fi
}

case "$cmd" in
dev)
	main_tree
	dev=$(dirname "$TREE")/$name
	if [ ! -d "$dev" ]; then
		s5p_log "creating the dev tree $dev (branch $name at base + series)"
		git -C "$TREE" worktree add -q -b "$name" "$dev" series ||
			s5p_die "git worktree add failed (does branch '$name' exist? git -C $TREE branch -D $name)"
		git -C "$TREE" config "branch.$name.s5pseries" "$(series_hash)"
	fi
	# Commits made in a dev tree are the series' patches: the project's
	# identity, as their From: and Signed-off-by: lines carry it (the
	# cache's tree commits the pristine source as s5p-build@localhost).
	git -C "$dev" config --worktree user.name "$S5P_PATCH_NAME" 2>/dev/null ||
		git -C "$TREE" config user.name "$S5P_PATCH_NAME"
	git -C "$dev" config --worktree user.email "$S5P_PATCH_EMAIL" 2>/dev/null ||
		git -C "$TREE" config user.email "$S5P_PATCH_EMAIL"
	echo "$dev"
	;;
export)
	# One export at a time, and only from a tree that contains the series
	# as it is in the repository now: nobody's patches get dropped.
	exec 8>"$S5P_CACHE/.series-$what.lock"
	flock 8
	main_tree
	dev=$(dirname "$TREE")/$name
	[ -d "$dev" ] || s5p_die "no dev tree $dev (make it with: scripts/series.sh $what dev $name)"
	[ -z "$(git -C "$dev" status --porcelain --untracked-files=no)" ] ||
		s5p_die "$dev has uncommitted changes; commit them first"
	based=$(git -C "$TREE" config "branch.$name.s5pseries" || true)
	[ "$based" = "$(series_hash)" ] || git -C "$dev" merge-base --is-ancestor series HEAD ||
		s5p_die "$pdir/ changed since $name was based on it (someone else exported): run scripts/series.sh $what rebase $name first"
	n=$(git -C "$dev" rev-list --count base..HEAD)
	s5p_log "exporting $n patches from $dev to $pdir"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	if [ -f "$pdir/topics" ]; then
		export_topics
		git -C "$TREE" config "branch.$name.s5pseries" "$(series_hash)"
		s5p_info "$(wc -l <"$pdir/series") patches in $(grep -cvE '^(#|$)' "$pdir/topics") topics listed in $pdir/series"
		exit 0
	fi
	cover=()
	if [ -f "$pdir/cover.txt" ]; then
		git -C "$dev" config "branch.$name.description" "$(cat "$pdir/cover.txt")"
		cover=(--cover-letter --cover-from-description=subject)
	fi
	[ "$n" = 0 ] || git -C "$dev" format-patch -q --zero-commit --no-signature \
		"${cover[@]}" -o "$tmp" base..HEAD
	find "$pdir" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' -delete
	cp "$tmp"/*.patch "$pdir"/ 2>/dev/null || true
	(cd "$pdir" && for p in [0-9][0-9][0-9][0-9]-*.patch; do
		[ -e "$p" ] && [ "${p#0000-cover-letter}" = "$p" ] && echo "$p"
	done) >"$pdir/series" || true
	git -C "$TREE" config "branch.$name.s5pseries" "$(series_hash)"
	s5p_info "$(wc -l <"$pdir/series") patches listed in $pdir/series"
	;;
rebase)
	exec 8>"$S5P_CACHE/.series-$what.lock"
	flock 8
	main_tree
	dev=$(dirname "$TREE")/$name
	[ -d "$dev" ] || s5p_die "no dev tree $dev"
	[ -z "$(git -C "$dev" status --porcelain --untracked-files=no)" ] ||
		s5p_die "$dev has uncommitted changes; commit them first"
	s5p_log "rebasing $name onto the current series"
	git -C "$dev" rebase series ||
		s5p_die "rebase stopped on a conflict: resolve it in $dev (git rebase --continue)"
	git -C "$TREE" config "branch.$name.s5pseries" "$(series_hash)"
	;;
check)
	main_tree
	# The verdict is kept, keyed by everything checkpatch reads: the series
	# (the tree is the Debian source with it applied: checkpatch looks up
	# DT bindings, LICENSES and commits there), checkpatch and its data
	# files, perl, and the python3 that spdxcheck.py runs with its modules.
	# Unchanged inputs print the kept verdict and its status, and say so
	# on stderr.
	[ "$what" = kernel ] && id=$KSRC_ID || id=$QSRC_ID
	key=$(s5p_hash -s "$what $TREE $id" "$pdir" "$TREE"/scripts/checkpatch.pl \
		"$TREE"/scripts/spelling.txt "$TREE"/scripts/const_structs.checkpatch \
		"$TREE"/scripts/spdxcheck.py "$TREE"/scripts/spdxexclude -s "$(perl -e 'print $^V')" \
		-s "$(command -v python3) $(python3 -c 'import ply, git' 2>&1 | tail -n1)")
	kept=$S5P_CACHE/checkpatch/$what-$key
	if [ -f "$kept.rc" ]; then
		s5p_info "checkpatch: inputs unchanged since $(date -u -r "$kept.rc" '+%F %H:%M UTC'): the verdict kept in $kept.out"
		cat "$kept.out"
		exit "$(cat "$kept.rc")"
	fi
	mkdir -p "$S5P_CACHE/checkpatch"
	# (the verdict, printed as it comes and kept when complete)
	exec 9>&1 > >(tee "$kept.$$.out" >&9)
	trap 'rm -f "$kept.$$.out"' EXIT
	rc=0
	if [ "$what" = kernel ]; then
		while read -r p; do
			case "$p" in '' | '#'*) continue ;; esac
			# The tree is Debian's source in a git of its own, without
			# the upstream history that a Fixes: tag names: checkpatch
			# cannot look the commit up there (UNKNOWN_COMMIT_ID).
			out=$(cd "$TREE" && perl scripts/checkpatch.pl --quiet --ignore UNKNOWN_COMMIT_ID \
				"$pdir/$p" 2>&1) || rc=1
			if [ -n "$out" ]; then printf '%s:\n%s\n' "$p" "$out"; else echo "$p: clean"; fi
		done <"$pdir/series"
		keep_verdict
	fi
	# QEMU's checkpatch.pl fails a patch only for errors (warnings, such as
	# a line over 80 columns or "does MAINTAINERS need updating?" for a new
	# file, are reported and pass).  --patch: without it a file name with
	# ".." in it (a subject ending in "66.7 MHz.", say) is taken for a git
	# revision range.
	n=0 nerr=0 nwarn=0
	while read -r p; do
		case "$p" in '' | '#'*) continue ;; esac
		n=$((n + 1))
		st=0
		out=$(cd "$TREE" && perl scripts/checkpatch.pl --no-color --patch --quiet "$pdir/$p" 2>&1) || st=$?
		total=$(printf '%s\n' "$out" | sed -n 's/^total: \([0-9]* errors, [0-9]* warnings\).*/\1/p')
		if [ "$st" != 0 ]; then
			rc=1 nerr=$((nerr + 1))
			printf '%s: FAILED (%s)\n' "$p" "${total:-checkpatch.pl exited with status $st}"
		elif [ -n "$out" ]; then
			nwarn=$((nwarn + 1))
			printf '%s: passed (%s)\n' "$p" "${total:-see below}"
		else
			echo "$p: clean"
		fi
		[ -z "$out" ] || printf '%s\n' "$out" | grep -v '^total: ' | grep -v '^$' | sed 's/^/    /'
	done <"$pdir/series"
	echo "$n patches: $((n - nerr - nwarn)) clean, $nwarn with warnings only, $nerr with errors"
	keep_verdict
	;;
*) s5p_die "unknown command '$cmd' (dev, export, rebase, check)" ;;
esac
