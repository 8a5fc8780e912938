#!/usr/bin/env bash
# Check that every patch of the kernel series builds on its own, warns
# nothing new with W=1 and passes checkpatch, as a bisect and a maintainer
# would find it (docs/pipeline.md, "Every patch on its own").
#
#   scripts/series-bisect-kernel.sh [options] [DEV]
#
#   DEV             a dev tree's branch (scripts/series.sh kernel dev DEV):
#                   its commits base..DEV; default: kernel-patches/ as it is
#   --from N        start at patch N (1 = the first; default 1)
#   --to N          stop after patch N (default: the last)
#   --board B       the board whose kernel config is built (default goni)
#   --keep-going    go on after a patch that fails (default: stop there)
#
# One git worktree ($S5P_CACHE/linux-<ver>/bisect) is moved from patch to
# patch (a checkout rewrites only the files a patch changes) and one build
# directory (build-bisect) is built incrementally, under the machine-wide
# build lock.  The configuration is the board's, with COMPILE_TEST (the
# series' options depend on HAVE_CMA_REGIONS || COMPILE_TEST, and the
# platform selects HAVE_CMA_REGIONS only in its own patch at the end), put
# back before each patch and completed with olddefconfig, so an option a
# later patch adds is set when that patch comes.  At each patch:
#  - make vmlinux modules (the whole kernel: a link error is a failure);
#  - each C file the patch adds or changes that the configuration builds,
#    again with W=1: a warning the file did not have before the patch is
#    a failure;
#  - scripts/checkpatch.pl --strict on the patch: an error or a warning is
#    a failure (UNKNOWN_COMMIT_ID ignored: the tree has no upstream
#    history for a Fixes: tag to name), a CHECK is shown.
# One TAP line a patch; the status is 0 when every patch passed.
# Not part of make check: a header a patch changes (rbtree.h, gfp.h)
# rebuilds most of the kernel, about an hour for the whole series on the
# project's 2-core machine.
set -u
. "$(dirname "$0")/lib/common.sh"
. "$S5P_TOP/scripts/lib/kernel.sh"
. "$S5P_TOP/scripts/lib/bisect.sh"

from=1 to=0 board=goni keep=0 dev=
while [ $# -gt 0 ]; do
	case "$1" in
	--from) from=${2:-}; shift ;;
	--to) to=${2:-}; shift ;;
	--board) board=${2:-}; shift ;;
	--keep-going) keep=1 ;;
	-h | --help) sed -n '2,32p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) s5p_die "unknown option $1 (--help)" ;;
	*) dev=$1 ;;
	esac
	shift
done
[[ $from =~ ^[0-9]+$ && $to =~ ^[0-9]+$ ]] || s5p_die "--from and --to take numbers"
[ -f "$S5P_TOP/boards/$board/kernel.config" ] || s5p_die "no board '$board' (boards/*/kernel.config)"

unset S5P_KERNEL_TREE
s5p_kernel_source
s5p_tree_lock "$KDIR"
s5p_kernel_config "$board"
s5p_tree_unlock
W=$KDIR/bisect
B=$KDIR/build-bisect
mkdir -p "$B"
target=$B/target.config
{ cat "$KCONFIG_OUT"; echo CONFIG_COMPILE_TEST=y; } >"$target"
t0=$(date +%s)

s5p_bisect_setup "$KSRC" "$KSERIES_DIR" "$dev" "$from" "$to" "$W"
commits=("${BISECT_COMMITS[@]}") n=${#BISECT_COMMITS[@]} to=$BISECT_TO

# kmake ARGS...: make in $B under the build lock, niced; the log in
# $B/bisect-build.log.
kmake() {
	local rc=0
	s5p_build_lock
	nice -n 19 "${S5P_KMAKE[@]}" -C "$W" O="$B" "$@" >"$B/bisect-build.log" 2>&1 || rc=$?
	s5p_build_unlock
	return "$rc"
}

# w1_warnings: the warnings of the last kmake, without their line and
# column (a patch moves the lines of the warnings it did not add).
w1_warnings() {
	grep -E ': warning: ' "$B/bisect-build.log" | sed -E 's/:[0-9]+(:[0-9]+)?: warning: /: warning: /' | sort -u
}

# check_patch K COMMIT: build, W=1 and checkpatch; what it found in $what.
check_patch() {
	local c=$2 t f o out cf=() warn=0
	t=$(date +%s)
	cp "$target" "$B/.config"
	if ! kmake olddefconfig; then
		what="olddefconfig failed"
		tail -n 5 "$B/bisect-build.log" | sed 's/^/#   /'
		return 1
	fi
	if ! kmake vmlinux modules; then
		what="does not build"
		grep -m 8 -E 'error|Error [0-9]|undefined reference' "$B/bisect-build.log" | sed 's/^/#   /'
		return 1
	fi
	what="built in $(($(date +%s) - t)) s"
	mapfile -t cf < <(git -C "$W" diff --name-only --diff-filter=AM "$c^" "$c" -- '*.c')
	for f in "${cf[@]}"; do
		o=${f%.c}.o
		[ -f "$B/$o" ] || continue
		# Only what the patch adds: the file's W=1 warnings before it
		# (6.1's own kernel-doc gaps, say) are left out.
		: >"$B/w1.before"
		if git -C "$W" cat-file -e "$c^:$f" 2>/dev/null; then
			git -C "$W" checkout -q "$c^" -- "$f"
			kmake W=1 "$o" || true
			w1_warnings >"$B/w1.before"
			git -C "$W" checkout -q "$c" -- "$f"
		fi
		touch "$W/$f"
		if ! kmake W=1 "$o"; then
			grep -m 4 -E "error:" "$B/bisect-build.log" | sed 's/^/#   /'
			warn=$((warn + 1))
		elif w1_warnings | grep -vxFf "$B/w1.before" | grep -q .; then
			w1_warnings | grep -vxFf "$B/w1.before" | head -n 4 | sed 's/^/#   /'
			warn=$((warn + 1))
		fi
	done
	# (the objects rebuilt with W=1 go back to the normal flags next time)
	if [ "$warn" != 0 ]; then
		what+=", W=1 warns in $warn file(s)"
		return 1
	fi
	what+=", W=1 clean"
	out=$(git -C "$W" format-patch -1 --stdout "$c" |
		(cd "$W" && perl scripts/checkpatch.pl --strict --quiet --ignore UNKNOWN_COMMIT_ID -) 2>&1)
	if printf '%s\n' "$out" | grep -qE '^(ERROR|WARNING):'; then
		what+=", checkpatch: $(printf '%s\n' "$out" | grep -cE '^(ERROR|WARNING):') error(s)/warning(s)"
		printf '%s\n' "$out" | grep -A3 -E '^(ERROR|WARNING):' | head -n 12 | sed 's/^/#   /'
		return 1
	fi
	if printf '%s\n' "$out" | grep -q '^CHECK:'; then
		what+=", checkpatch: $(printf '%s\n' "$out" | grep -c '^CHECK:') CHECK(s)"
		printf '%s\n' "$out" | grep -A3 '^CHECK:' | head -n 8 | sed 's/^/#   /'
	else
		what+=", checkpatch clean"
	fi
}

failed=0 k=0
s5p_log "checking patches $from-$to of $n (${dev:-kernel-patches/}), $board's config + COMPILE_TEST in $B"
for c in "${commits[@]}"; do
	k=$((k + 1))
	if [ "$k" -lt "$from" ] || [ "$k" -gt "$to" ]; then continue; fi
	subj=$(git -C "$KSRC" log -1 --format=%s "$c")
	git -C "$W" checkout -q -f --detach "$c" || s5p_die "checkout of patch $k failed in $W"
	what=
	if check_patch "$k" "$c"; then
		printf 'ok %d - %s (%s)\n' "$k" "$subj" "$what"
	else
		printf 'not ok %d - %s (%s)\n' "$k" "$subj" "$what"
		failed=$((failed + 1))
		[ "$keep" = 1 ] || break
	fi
done
s5p_done "$t0" "series-bisect-kernel: patches $from-$to, $failed failed"
[ "$failed" = 0 ]
