#!/usr/bin/env bash
# Check that every patch of the QEMU series builds and passes its qtests on
# its own, as a bisect would find it (docs/pipeline.md, "Every patch on its
# own").
#
#   scripts/series-bisect.sh [options] [DEV]
#
#   DEV             a dev tree's branch (scripts/series.sh qemu dev DEV):
#                   its commits base..DEV; default: qemu-patches/ as it is
#   --from N        start at patch N (1 = the first; default 1)
#   --to N          stop after patch N (default: the last)
#   --flavour F     plain (default) or asan: the build to compile and test
#   --seqs N        hostile-test sequences per device (default 5)
#   --keep-going    go on after a patch that fails (default: stop there)
#
# One git worktree ($S5P_CACHE/qemu-<ver>/bisect) is moved from patch to
# patch (a checkout rewrites only the files a patch changes) and one build
# directory (build-bisect, build-bisect-san) is built incrementally with
# ninja, under the machine-wide build lock.  At each patch:
#  - with the machines' device set (configs/devices/arm-softmmu/s5pv210.mak)
#    present: ninja qemu-system-arm and the S5PV210 qtest binaries the patch
#    has, then each of them runs (the hostile test with --seqs sequences a
#    device);
#  - before it (the upstream fixes and the blocks the SoC is built from):
#    every C file the patch changes is compiled, with the flags of the
#    configured build (compile_commands.json), as nothing links it yet.
# One line a patch; the status is 0 when every patch passed.
# Not part of make check: about 25 incremental builds and qtest runs.
set -u
. "$(dirname "$0")/lib/common.sh"
. "$S5P_TOP/scripts/lib/qemu.sh"
. "$S5P_TOP/scripts/lib/bisect.sh"

from=1 to=0 flavour=plain seqs=5 keep=0 dev=
while [ $# -gt 0 ]; do
	case "$1" in
	--from) from=$2; shift ;;
	--to) to=$2; shift ;;
	--flavour) flavour=$2; shift ;;
	--seqs) seqs=$2; shift ;;
	--keep-going) keep=1 ;;
	-h | --help) sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) s5p_die "unknown option $1 (--help)" ;;
	*) dev=$1 ;;
	esac
	shift
done
[[ $from =~ ^[0-9]+$ && $to =~ ^[0-9]+$ && $seqs =~ ^[0-9]+$ ]] || s5p_die "--from, --to and --seqs take numbers"
case "$flavour" in plain) sfx= ;; asan) sfx=-san ;; *) s5p_die "--flavour plain or asan" ;; esac

unset S5P_QEMU_TREE
S5P_QEMU_FLAVOUR=$flavour
s5p_qemu_flavour
s5p_qemu_source --no-checkout
[ -f "$QSRC/.git/s5p-unpacked" ] || s5p_qemu_checkout
W=$QDIR/bisect
B=$QDIR/build-bisect$sfx
t0=$(date +%s)

# The commits: a dev tree's, or the series applied (one commit a patch,
# as s5p_tree_apply_series makes them, without moving any branch).
s5p_bisect_setup "$QSRC" "$QSERIES_DIR" "$dev" "$from" "$to" "$W"
commits=("${BISECT_COMMITS[@]}") n=${#BISECT_COMMITS[@]} to=$BISECT_TO

# ninja TARGETS... in $B under the build lock; the log in $B/bisect-build.log.
build() {
	local rc=0
	s5p_build_lock
	nice -n 19 ninja -C "$B" "$@" >"$B/bisect-build.log" 2>&1 || rc=$?
	s5p_build_unlock
	[ "$rc" = 0 ] || grep -m 8 -E 'error|FAILED' "$B/bisect-build.log" | sed 's/^/#   /'
	return "$rc"
}

# The build directory, configured (once) at the last patch: the machines'
# device set and the flags every compile check below uses.
configure_at() { # COMMIT
	git -C "$W" checkout -q -f --detach "$1" || s5p_die "checkout failed in $W"
	mkdir -p "$B"
	if [ ! -f "$B/build.ninja" ]; then
		s5p_log "configuring $B (${S5P_QEMU_CONFIGURE[*]} ${S5P_QEMU_FLAVOUR_OPTS[*]})"
		s5p_build_lock
		(cd "$B" && nice -n 19 "$W/configure" "${S5P_QEMU_CONFIGURE[@]}" "${S5P_QEMU_FLAVOUR_OPTS[@]}") \
			>"$B/configure.log" 2>&1 || { s5p_build_unlock; tail -n 20 "$B/configure.log"; s5p_die "configure failed ($B/configure.log)"; }
		s5p_build_unlock
	fi
}
configure_at "${commits[$((n - 1))]}"
[ -f "$B/compile_commands.json" ] || s5p_die "no $B/compile_commands.json"
# The compile checks need the generated headers (config-poison.h, qapi,
# trace): the order-only inputs of any object, built once, at the last
# patch.
if [ ! -f "$B/config-poison.h" ]; then
	obj=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[0]["output"])' "$B/compile_commands.json")
	mapfile -t genh < <(ninja -C "$B" -t query "$obj" | sed -n 's/^ *|| //p')
	s5p_log "building the generated headers (${#genh[@]}) in $B"
	build "${genh[@]}" || s5p_die "the generated headers do not build ($B/bisect-build.log)"
fi

# compile_c FILE...: each C file with its flags from compile_commands.json
# (-fsyntax-only: no object, no dependency file written into the build).
compile_c() {
	python3 - "$B" "$W" "$@" <<'EOF'
import json, os, shlex, subprocess, sys
b, w, files = sys.argv[1], sys.argv[2], sys.argv[3:]
db = {os.path.normpath(os.path.join(e['directory'], e['file'])): e
      for e in json.load(open(os.path.join(b, 'compile_commands.json')))}
rc = 0
for f in files:
    e = None
    for k, v in db.items():
        if k.endswith('/' + f):
            e = v
            break
    if not e:
        print('#   %s: not in this build (no flags to compile it with)' % f)
        continue
    args, skip = [], 0
    for a in shlex.split(e['command']):
        if skip:
            skip -= 1
            continue
        if a in ('-MD', '-MMD'):
            continue
        if a in ('-MQ', '-MF', '-MT', '-o'):
            skip = 1
            continue
        if a == '-c':
            continue
        args.append(a)
    args[-1] = os.path.join(w, f)
    r = subprocess.run(['nice', '-n', '19'] + args + ['-fsyntax-only'], cwd=e['directory'],
                       capture_output=True, text=True)
    if r.returncode:
        rc = 1
        print('#   %s does not compile:' % f)
        for line in r.stderr.splitlines()[:8]:
            print('#     ' + line)
    else:
        print('#   %s compiles' % f)
sys.exit(rc)
EOF
}

# run_qtest NAME: one qtest binary of the build, against its QEMU.
run_qtest() {
	local rc=0 log=$B/bisect-$1.log
	ASAN_OPTIONS=${ASAN_OPTIONS:-$S5P_QEMU_ASAN_OPTIONS} UBSAN_OPTIONS=${UBSAN_OPTIONS:-$S5P_QEMU_UBSAN_OPTIONS} \
		S5P_HOSTILE_SEED=1 S5P_HOSTILE_SEQS=$seqs S5P_HOSTILE_OPS=64 S5P_HOSTILE_DEVICE='' S5P_HOSTILE_SECONDS='' \
		QTEST_QEMU_BINARY=$B/qemu-system-arm timeout --foreground -k 10 900 \
		nice -n 19 "$B/tests/qtest/$1" --tap -k >"$log" 2>&1 || rc=$?
	if [ "$rc" = 0 ] && s5p_qemu_san_report "$log" >/dev/null; then rc=66; fi
	if [ "$rc" != 0 ]; then
		grep -E '^not ok|ERROR|Sanitizer|runtime error' "$log" | head -n 6 | sed 's/^/#   /'
	fi
	return "$rc"
}

failed=0 k=0
s5p_log "checking patches $from-$to of $n (${dev:-qemu-patches/}), $flavour build in $B"
for c in "${commits[@]}"; do
	k=$((k + 1))
	if [ "$k" -lt "$from" ] || [ "$k" -gt "$to" ]; then continue; fi
	subj=$(git -C "$QSRC" log -1 --format=%s "$c")
	git -C "$W" checkout -q -f --detach "$c" || s5p_die "checkout of patch $k failed in $W"
	t=$(date +%s) ok=1 what=
	if [ -f "$W/configs/devices/arm-softmmu/s5pv210.mak" ]; then
		tests=()
		for f in "$W"/tests/qtest/s5pv210*-test.c; do
			[ -f "$f" ] && tests+=("$(basename "$f" .c)")
		done
		if build qemu-system-arm "${tests[@]/#/tests/qtest/}"; then
			what="built in $(($(date +%s) - t)) s"
			for q in "${tests[@]}"; do
				tq=$(date +%s)
				if run_qtest "$q"; then
					what+=", $q ok ($(($(date +%s) - tq)) s)"
				else
					what+=", $q FAILED"; ok=0
				fi
			done
		else
			what="does not build"; ok=0
		fi
	else
		mapfile -t cf < <(git -C "$W" diff --name-only --diff-filter=AM "$c^" "$c" -- '*.c')
		if [ ${#cf[@]} = 0 ]; then
			what="no C file changed, no machines yet: nothing to build"
		elif compile_c "${cf[@]}"; then
			what="no machines yet: its ${#cf[@]} C file(s) compile"
		else
			what="does not compile"; ok=0
		fi
	fi
	if [ "$ok" = 1 ]; then
		printf 'ok %d - %s (%s)\n' "$k" "$subj" "$what"
	else
		printf 'not ok %d - %s (%s)\n' "$k" "$subj" "$what"
		failed=$((failed + 1))
		[ "$keep" = 1 ] || break
	fi
done
s5p_done "$t0" "series-bisect: patches $from-$to, $failed failed"
[ "$failed" = 0 ]
