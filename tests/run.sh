#!/usr/bin/env bash
# The project's test command (README, .ci/run):  make check
#
#   tests/run.sh [PATTERN...]   run the suites in tests/suites/ (all, or those
#                               whose file name contains a PATTERN)
#
# Installs what is missing (scripts/setup.sh), builds what is stale, then runs
# every suite.  A suite is an executable tests/suites/NN-name.sh that prints
# TAP-style result lines at the start of a line:  "ok - what" / "not ok - what"
# (a number after ok is allowed; indented lines are not counted; "ok ... # SKIP
# why" is a skipped check, counted apart), declares how many it runs
# ("# s5p-plan N", tests/lib/tap.sh t_plan) and ends with "# s5p-done"
# (t_done).  Each of these is one more failure:
#   - a tests/suites/*.sh file without its run bit;
#   - a suite that exits non-zero without reporting a failure;
#   - a suite that never prints "# s5p-done" (it stopped early);
#   - a suite whose number of checks differs from its plan, or has no plan;
#   - a suite still running after its timeout ("# s5p-timeout: SECONDS" in its
#     header, default 1200; scaled by 4 on the debug kernel).  It is told
#     (SIGTERM) and keeps its logs; a boot inside it never outlives it
#     (S5P_SUITE_DEADLINE caps boot.sh's --timeout, so the boot's own
#     diagnosis prints first).
# Suites whose header says "# s5p-flavours: default debug" run a second time
# on the debug kernel (KASAN, lockdep, kmemleak, UBSAN...: docs/testing.md),
# reported as NAME@debug; S5P_FLAVOURS="default" skips that pass.
# Two lanes: suites run S5P_JOBS at a time (default: one per core, at most
# 2), the longest first (the times of the last run, $S5P_CACHE/test-logs/
# times, else tests/suites/times), default and debug passes interleaved.  A
# suite whose header says "# s5p-alone: WHY" (timing checks, the pipeline's
# lock and cache checks) runs with nothing beside it, before the others;
# one that also says "# s5p-beside: quiet" has the "# s5p-quiet: WHY"
# suites (host only) beside it, one at a time.
# Each suite's lines print as one block when it ends ("# started NAME" when
# it starts).
# Every guest boot fails on a kernel report in its console (S5P_CHECK_LOG=1).
# The qtests and the default kernel's boots run on the sanitizer QEMU
# (S5P_QEMU_FLAVOUR=asan: ASan + UBSan, docs/qemu.md); a report fails them.
# A suite whose header says "# s5p-qemu: plain (WHY)" (the kernel's CMA
# suites, 38-gstreamer) runs its default-kernel boots on the plain QEMU.
# The debug kernel's boots run on the plain QEMU, 2.4 times faster: that pass
# checks the kernel side, the default pass the models (docs/testing.md).
# S5P_QEMU_FLAVOUR set by the caller applies to every run.
# What the boots need (QEMU, kernels, device trees, initramfs) is built
# before the suites start, so a suite's timeout is its own time.
# A failing suite's logs (console logs of its boots included) are kept in
# $S5P_CACHE/test-logs/NAME.files/, which the summary line names.  Each
# suite's time is in $S5P_CACHE/test-logs/times.tsv (scripts/test-times.sh
# prints the table).
# Ctrl-C (or SIGTERM) ends the running suites, their boots and QEMU.
# The last line is "N passed, N failed, N skipped"; the exit status is
# non-zero on any failure.
set -u
. "$(dirname "$0")/../scripts/lib/common.sh"

case "${1:-}" in
-h | --help) sed -n '2,/^[^#]/p' "$0" | sed -n 's/^# \{0,1\}//p'; exit 0 ;;
esac

all=()
for s in "$S5P_TOP"/tests/suites/*.sh; do
	if [ $# -gt 0 ]; then
		m=0
		for p in "$@"; do [[ $(basename "$s") == *"$p"* ]] && m=1; done
		[ $m = 1 ] || continue
	fi
	all+=("$s")
done
[ ${#all[@]} -gt 0 ] || s5p_die "no test suite matches '$*' (the suites: $(cd "$S5P_TOP/tests/suites" && printf '%s ' *.sh))"

jobs_max=${S5P_JOBS:-$(nproc 2>/dev/null || echo 1)}
[[ $jobs_max =~ ^[1-9][0-9]*$ ]] || s5p_die "S5P_JOBS must be a whole number of lanes (1, 2...), not '$jobs_max'"
# Each lane keeps about one core busy (a one-vCPU TCG guest, a fuzzer).
[ -n "${S5P_JOBS:-}" ] || [ "$jobs_max" -le 2 ] || jobs_max=2

start=$(date +%s)
"$S5P_TOP/scripts/setup.sh" || s5p_die "setup failed; the tests cannot run"
. "$S5P_TOP/scripts/lib/versions.sh"
versions=$(s5p_versions_line) || s5p_die "cannot tell which Debian versions to use (above)"
printf '# versions: %s\n' "$versions"

logdir=$S5P_CACHE/test-logs
mkdir -p "$logdir"
export S5P_CHECK_LOG=1
flavours=${S5P_FLAVOURS:-default debug}
qemu_forced=${S5P_QEMU_FLAVOUR:-}
# qemu_for KERNEL-FLAVOUR [SUITE-FILE]: the QEMU build its boots use: the
# sanitizer QEMU on the default kernel, but the plain one for a suite whose
# header says "# s5p-qemu: plain (WHY)" (a suite whose subject runs under
# the debug pass's sanitizers or under ASan in another suite; docs/
# testing.md, "The sanitizer QEMU").
qemu_for() {
	if [ -n "$qemu_forced" ]; then echo "$qemu_forced"
	elif [ "$1" != default ]; then echo plain
	elif [ -n "${2:-}" ] && [[ "$(header "$2" qemu)" == plain* ]]; then echo plain
	else echo asan; fi
}
passed=0 failed=0 skipped=0
failures=()

# header FILE KEY: the value of "# s5p-KEY: VALUE" in a suite's header.
header() { sed -n "s/^# s5p-$2: *//p" "$1" | head -n1; }

# runs_on FILE FLAVOUR: whether the suite runs on that kernel flavour.
runs_on() {
	[ "$2" = default ] || [[ " $(header "$1" flavours) " == *" $2 "* ]]
}
# boots FILE: whether the suite boots a guest.
boots() { grep -qE 'scripts/(boot|fuzz-guest|stress-cma|bench-[a-z]+)|boot-\$|t_guest_boot' "$1"; }

# Ctrl-C or SIGTERM: end every running suite (timeout passes the signal
# to the suite's process group: its boots and QEMU), then stop.
declare -A running=()	# timeout's PID -> job
declare -A ended=()	# the jobs that have ended
interrupted() {
	trap - INT TERM
	[ -z "${building:-}" ] || { printf '# interrupted: ending the build\n'; kill -TERM "$building" 2>/dev/null; }
	printf '# interrupted: ending %s running suite(s)\n' "${#running[@]}"
	[ ${#running[@]} = 0 ] || kill -TERM "${!running[@]}" 2>/dev/null
	wait
	printf '%s passed, %s failed, %s skipped\n' "$passed" "$((failed + 1))" "$skipped"
	rm -f "$times" "${boot_times:-}" "$logdir"/build-*.log.$$
	exit 130
}
trap interrupted INT TERM

# build WHAT LOG CMD...: a build step (CMD) before the suites; its progress
# goes to the terminal too (a cold build takes many minutes), as comment
# lines, and to LOG.  A failure is one more.  (In the background, waited
# for: a SIGTERM to make check is then handled at once, and interrupted()
# ends the build.)
building=
build() {
	local what=$1 blog=$2 rc
	shift 2
	# (this run's own file until the step ends: another checkout's run
	# sharing the cache may build the same step, and its lines are not ours)
	# (created before tail looks for it: the step's shell may not have
	# opened it yet)
	: >"$blog.$$"
	"$@" >"$blog.$$" 2>&1 </dev/null &
	building=$!
	tail -n +1 -s 0.5 -f --pid="$building" "$blog.$$" | sed -u 's/^/#   /' &
	wait "$building"
	rc=$?
	building=
	wait
	mv -f "$blog.$$" "$blog"
	[ "$rc" != 0 ] || return 0
	printf 'not ok - build: %s (log: %s)\n' "$what" "$blog"
	failed=$((failed + 1))
	failures+=("build: $what")
}
# build_boot BOARD FLAVOUR QEMU: what BOARD's boots need on that kernel
# flavour and QEMU build.
build_boot() {
	build "$1, $2 kernel, $3 QEMU" "$logdir/build-$2-$1.log" \
		env S5P_QEMU_FLAVOUR="$3" "$S5P_TOP/scripts/boot-$1.sh" --build-only --flavour "$2"
}
for flavour in $flavours; do
	declare -A qs=()
	for s in "${all[@]}"; do
		runs_on "$s" "$flavour" && boots "$s" && qs[$(qemu_for "$flavour" "$s")]=1
	done
	# (the sanitizer QEMU first: the default pass's longest builds)
	for q in asan plain; do
		[ -n "${qs[$q]:-}" ] || continue
		printf '# building for the boots: both boards, %s kernel, %s QEMU\n' "$flavour" "$q"
		t0=$(date +%s)
		for board in goni aquila; do build_boot "$board" "$flavour" "$q"; done
		printf '# built in %ss\n' $(($(date +%s) - t0))
	done
	unset qs
done
# A suite's own kernel flavours ("# s5p-prebuild: BOARD FLAVOUR", e.g.
# a flavour only that suite boots), built here too, on the default pass's QEMU.
for s in "${all[@]}"; do
	read -r board flavour _ <<<"$(header "$s" prebuild)"
	[[ -n $flavour && " $flavours " == *" default "* ]] || continue
	printf '# building for %s: %s, %s kernel\n' "$(basename "$s" .sh)" "$board" "$flavour"
	t0=$(date +%s)
	build_boot "$board" "$flavour" "$(qemu_for default "$s")"
	printf '# built in %ss\n' $(($(date +%s) - t0))
done
# The qtests (05, 06, 07), built here too: built in a lane, they would hold
# the QEMU tree's lock while the other lane's boots wait for it.
if grep -lq 's5p_qemu_build tests' "${all[@]}"; then
	q=$(qemu_for default)
	printf '# building the qtests, %s QEMU\n' "$q"
	t0=$(date +%s)
	# shellcheck disable=SC2016 # (bash -c's script, expanded there)
	build "the qtests, $q QEMU" "$logdir/build-qtests-$q.log" env S5P_QEMU_FLAVOUR="$q" \
		bash -c '. "$S5P_TOP/scripts/lib/common.sh" && . "$S5P_TOP/scripts/lib/qemu.sh" && s5p_qemu_build tests'
	printf '# built in %ss\n' $(($(date +%s) - t0))
fi

# The jobs: "SECONDS NAME FLAVOUR", the longest first.  SECONDS is the
# suite's time in the last run here, or in tests/suites/times (a warm run
# of this project's), or 300.
declare -A est=()
for f in "$S5P_TOP/tests/suites/times" "$logdir/times"; do
	[ -f "$f" ] || continue
	while read -r n sec _; do
		[[ $n == \#* ]] || [ -z "$sec" ] || est[$n]=$sec
	done <"$f"
done
# "# s5p-alone: WHY": nothing beside it; but an alone suite whose header also
# says "# s5p-beside: quiet" may have a quiet suite beside it: one whose
# header says "# s5p-quiet: WHY" (on the host only: it boots nothing,
# builds nothing, and times nothing).
alone=() lanes=() quiet=()
declare -A quiet_ok=()
for flavour in $flavours; do
	for s in "${all[@]}"; do
		runs_on "$s" "$flavour" || continue
		name=$(basename "$s" .sh)
		[ "$flavour" = default ] || name=$name@$flavour
		job="${est[$name]:-300} $name $flavour"
		if [ -n "$(header "$s" alone)" ]; then
			alone+=("$job")
			[[ "$(header "$s" beside)" != quiet* ]] || quiet_ok[$name]=1
		elif [ -n "$(header "$s" quiet)" ] && [ "$flavour" = default ]; then
			quiet+=("$job")
		else
			lanes+=("$job")
		fi
	done
done
# (the alone suites that allow it last: a quiet suite still running when
# they end goes on beside the lanes' first suite)
if [ ${#alone[@]} -gt 1 ]; then
	mapfile -t alone < <(for j in "${alone[@]}"; do
		read -r _ n _ <<<"$j"; echo "${quiet_ok[$n]:-0} $j"; done | sort -s -k1,1n | cut -d' ' -f2-)
fi
# Shared boots: on a flavour, the suites whose header says "# s5p-shared-boot:
# FLAVOUR BOARD SCRIPT SCENARIO [early|late]" get one boot of BOARD for all
# of them (tests/lib/shared-boot.sh, a job of its own, "shared-BOARD@FLAVOUR");
# each starts once it has ended, and reads its part from it (S5P_SHARED_BOOT).
# The parts run early ones first (those that read the boot's own state: its
# log, the regions as the boot left them), late ones last (those that kill
# processes midway), the rest in between, by name within each.
declare -A after=() shared_dir=() shared_args=()
for flavour in $flavours; do
	declare -A group=() members=()
	for s in "${all[@]}"; do
		runs_on "$s" "$flavour" || continue
		read -r f b script scen when _ <<<"$(header "$s" shared-boot)"
		[[ $f == "$flavour" && -n $scen ]] || continue
		case $when in early) o=0 ;; late) o=2 ;; *) o=1 ;; esac
		base=$(basename "$s" .sh)
		group[$b]+=$'\n'"$o $base:$script:$scen"
	done
	for b in "${!group[@]}"; do
		group[$b]=$(sort -k1,1n -k2,2 <<<"${group[$b]}" | sed '/^$/d; s/^[0-9] //' | tr '\n' ' ')
		# shellcheck disable=SC2001 # (every word's :SCENARIO: sed's job)
		members[$b]=$(sed 's/:[^ ]*//g' <<<"${group[$b]}")
		group[$b]=" ${group[$b]% }"
	done
	for b in "${!group[@]}"; do
		# shellcheck disable=SC2086 # (the group's members, one a word)
		set -- ${members[$b]}
		[ $# -ge 2 ] || continue
		sj=shared-$b@$flavour
		shared_dir[$sj]=$logdir/$sj.parts.$$	# this run's own
		shared_args[$sj]="$b ${shared_dir[$sj]}${group[$b]}"
		sec=${est[$sj]:-}
		if [ -z "$sec" ]; then
			sec=0
			for m; do [ "$flavour" = default ] || m=$m@$flavour; sec=$((sec + ${est[$m]:-300})); done
		fi
		lanes+=("$sec $sj $flavour")
		for m; do
			[ "$flavour" = default ] || m=$m@$flavour
			after[$m]=$sj
		done
	done
	unset group members
done
[ ${#lanes[@]} = 0 ] || mapfile -t lanes < <(printf '%s\n' "${lanes[@]}" | sort -k1,1nr -k2,2)

# (this run's own file until the end: another checkout's run may share the
# cache's test-logs)
times=$logdir/times.tsv.$$
printf 'suite\tseconds\tpassed\tfailed\tskipped\tstarted\tcpu\n' >"$times"
# each --cmd boot's time, where it went (scripts/boot.sh, test-times.sh --boots)
boot_times=$logdir/boots.tsv.$$
export S5P_BOOT_TIMES=$boot_times
printf 'suite\tboard\tflavour\tqemu\tseconds\tkernel\tmodules\tcommand\tafter\n' >"$boot_times"
cpu_total=0

# start_job NAME FLAVOUR: start the suite in the background, output in its
# log; records it in running[].
start_job() {
	local name=$1 flavour=$2 log tmo s args=() shared=
	s=$S5P_TOP/tests/suites/${name%@*}.sh
	if [ -n "${shared_args[$name]:-}" ]; then
		s=$S5P_TOP/tests/lib/shared-boot.sh
		read -r -a args <<<"${shared_args[$name]}"
	fi
	[ -z "${after[$name]:-}" ] || shared=${shared_dir[${after[$name]}]}
	[ -z "${shared_dir[$name]:-}" ] || rm -rf "${shared_dir[$name]}"
	# (this run's own files until the suite ends: another checkout's run may
	# share the cache's test-logs, and run the same suite)
	log=$logdir/$name.log.$$
	tmo=$(header "$s" timeout)
	tmo=${tmo:-1200}
	[ "$flavour" = default ] || tmo=$((tmo * 4))
	if [ ! -x "$s" ]; then
		printf 'not ok - %s: %s is not executable (chmod +x it)\n' "$name" "$s" >"$log"
		running[0$name]="$name $flavour $(date +%s) $tmo"
		return
	fi
	printf '# started %s (%s running)\n' "$name" "$((${#running[@]} + 1))"
	export S5P_CPU_FILE=$logdir/$name.cpu.$$
	# (bash's "times" after the suite: the CPU time of the suite and of
	# everything it waited for, QEMU included, for the summary)
	# shellcheck disable=SC2016 # (bash -c's script, expanded there)
	S5P_FLAVOUR=$flavour S5P_QEMU_FLAVOUR=$(qemu_for "$flavour" "$s") S5P_SUITE_NAME=$name \
		S5P_TEST_LOGDIR=$logdir/$name.files.$$ S5P_SUITE_DEADLINE=$(($(date +%s) + tmo)) \
		S5P_SHARED_BOOT=$shared timeout -k 30 "$tmo" \
		bash -c '"$@"; rc=$?; times >"$S5P_CPU_FILE"; exit $rc' _ "$s" "${args[@]}" \
		</dev/null >"$log" 2>&1 &
	running[$!]="$name $flavour $(date +%s) $tmo"
}

# count WHAT LOG: how many result lines of a kind the log holds.
count() {
	case "$1" in
	ok) grep -cE '^ok\b' "$2" ;;
	skip) grep -ciE '^ok\b.*#[[:space:]]*skip' "$2" ;;
	fail) grep -cE '^not ok\b' "$2" ;;
	esac
}

# finish_job KEY RC: judge a finished suite and print its block.
finish_job() {
	local key=$1 rc=$2 name flavour t0 tmo log p k f plan dir where
	read -r name flavour t0 tmo <<<"${running[$key]}"
	unset "running[$key]"
	log=$logdir/$name.log.$$
	dir=$logdir/$name.files.$$
	printf '# suite %s\n' "$name"
	if [ "${key:0:1}" = 0 ]; then
		cat "$log"
		p=0 k=0 f=1
	else
		grep -aE '^(ok|not ok|# |Bail out!)' "$log"
		k=$(count skip "$log") p=$(($(count ok "$log") - k)) f=$(count fail "$log")
		plan=$(sed -n 's/^# s5p-plan \([0-9]*\)$/\1/p' "$log" | head -n1)
		if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
			printf 'not ok - %s: still running after its timeout of %ss, killed\n' "$name" "$tmo"
			f=$((f + 1))
		elif ! grep -qx '# s5p-done' "$log"; then
			printf 'not ok - %s: stopped early (status %s; no "# s5p-done")\n' "$name" "$rc"
			f=$((f + 1))
		elif [ "$rc" != 0 ] && [ "$f" = 0 ]; then
			printf 'not ok - %s: the suite exited with status %s\n' "$name" "$rc"
			f=1
		fi
		if [ -z "$plan" ]; then
			printf 'not ok - %s: declares no plan (t_plan N)\n' "$name"
			f=$((f + 1))
		elif [ $((p + k + $(count fail "$log"))) != "$plan" ]; then
			printf 'not ok - %s: ran %s checks, its plan says %s\n' "$name" \
				"$((p + k + $(count fail "$log")))" "$plan"
			f=$((f + 1))
		fi
	fi
	[ "$f" = 0 ] || failures+=("$name ($f)")
	ended[$name]=1
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + k))
	mv -f "$log" "$logdir/$name.log"
	where=$logdir/$name.log
	rm -rf "$logdir/$name.files"
	if [ -d "$dir" ]; then
		mv -T "$dir" "$logdir/$name.files"
		where="$where and $logdir/$name.files/"
	fi
	local sec=$(($(date +%s) - t0)) cpu=
	# the suite's CPU seconds ("times": its second line, the children's)
	if [ -f "$logdir/$name.cpu.$$" ]; then
		cpu=$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] }
			printf "%d", t + 0.5 }' "$logdir/$name.cpu.$$")
		rm -f "$logdir/$name.cpu.$$"
	fi
	cpu_total=$((cpu_total + ${cpu:-0}))
	printf '# suite %s: %s passed, %s failed, %s skipped in %ss%s (log: %s)\n' "$name" "$p" "$f" "$k" \
		"$sec" "${cpu:+, ${cpu}s of CPU}" "$where"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$sec" "$p" "$f" "$k" "$((t0 - suites_start))" "$cpu" >>"$times"
}

# wait_one: wait for any running suite to end and judge it.
wait_one() {
	local pid rc key
	for key in "${!running[@]}"; do
		# a suite that could not start is judged at once
		[ "${key:0:1}" != 0 ] || { finish_job "$key" 1; return; }
	done
	pid=
	wait -n -p pid "${!running[@]}"
	rc=$?
	[ -n "$pid" ] || return 0
	finish_job "$pid" "$rc"
}

suites_start=$(date +%s)
for job in "${alone[@]}"; do
	read -r _ name flavour <<<"$job"
	# (a quiet suite still running from the one before goes on beside one
	# that allows it)
	if [ -z "${quiet_ok[$name]:-}" ]; then
		while [ ${#running[@]} -gt 0 ]; do wait_one; done
	fi
	start_job "$name" "$flavour"
	while [ -z "${ended[$name]:-}" ]; do
		if [ -n "${quiet_ok[$name]:-}" ] && [ ${#quiet[@]} -gt 0 ] &&
			[ ${#running[@]} -lt "$jobs_max" ]; then
			read -r _ qname qflavour <<<"${quiet[0]}"
			quiet=("${quiet[@]:1}")
			start_job "$qname" "$qflavour"
			continue
		fi
		wait_one
	done
done
# The longest first, but a suite whose shared boot has not ended waits.
# (quiet suites that found no alone one to run beside join the lanes)
pending=("${lanes[@]}" "${quiet[@]}")
[ ${#pending[@]} = 0 ] || mapfile -t pending < <(printf '%s\n' "${pending[@]}" | sort -k1,1nr -k2,2)
while [ ${#pending[@]} -gt 0 ]; do
	while [ ${#running[@]} -ge "$jobs_max" ]; do wait_one; done
	pick=
	for i in "${!pending[@]}"; do
		read -r _ name flavour <<<"${pending[$i]}"
		dep=${after[$name]:-}
		if [ -z "$dep" ] || [ -n "${ended[$dep]:-}" ]; then pick=$i; break; fi
	done
	if [ -z "$pick" ] && [ ${#running[@]} -gt 0 ]; then wait_one; continue; fi
	pick=${pick:-$(printf '%s\n' "${!pending[@]}" | head -n1)}
	read -r _ name flavour <<<"${pending[$pick]}"
	unset "pending[$pick]"
	start_job "$name" "$flavour"
done
while [ ${#running[@]} -gt 0 ]; do wait_one; done
trap - INT TERM
rm -rf "$logdir"/*.parts.$$

# What the next run schedules by: this run's times (a suite not run keeps
# its old one).
{
	[ ! -f "$logdir/times" ] || cat "$logdir/times"
	awk -F'\t' 'NR > 1 { print $1, $2 }' "$times"
} | awk '{ t[$1] = $2 } END { for (n in t) print n, t[n] }' | sort >"$logdir/times.new.$$" &&
	mv "$logdir/times.new.$$" "$logdir/times"
mv "$times" "$logdir/times.tsv"
mv "$boot_times" "$logdir/boots.tsv"

wall=$(($(date +%s) - suites_start))
printf '# suites took %ss in %s lane(s), %ss of CPU (%s%% of %s cores); total time %ss (scripts/test-times.sh prints the table)\n' \
	"$wall" "$jobs_max" "$cpu_total" "$((cpu_total * 100 / (wall > 0 ? wall : 1) / $(nproc)))" "$(nproc)" \
	$(($(date +%s) - start))
[ ${#failures[@]} = 0 ] || printf '# failing suites: %s\n' "${failures[*]}"
printf '%s passed, %s failed, %s skipped\n' "$passed" "$failed" "$skipped"
[ "$failed" = 0 ]
