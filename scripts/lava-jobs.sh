#!/usr/bin/env bash
# Write the guest suites' boots as LAVA job definitions (docs/lab.md).
#
# usage: scripts/lava-jobs.sh [--out DIR] [--images URL] [SUITE...]
#
#   --out DIR     where the jobs go (default: $S5P_CACHE/lava/jobs); one
#                 SUITE-BOARD-SCENARIO.yaml a boot, and jobs.tsv (each job,
#                 its suite and board, and the kernel arguments the suite
#                 boots with)
#   --images URL  where a lab finds what the pipeline built: URL/BOARD/zImage,
#                 URL/BOARD/BOARD.dtb and URL/initramfs.cpio.gz (default:
#                 file://$S5P_CACHE/lava/images, what scripts/lava-run.sh
#                 stages there); http(s):// for a LAVA server
#   SUITE...      the suites whose boots become jobs (names or words of
#                 names, as for tests/run.sh); default: every suite that runs
#                 a guest script (/tests/*.sh) without --share or --module
#
# Nothing is copied by hand: each suite runs with S5P_BOOT_RECORD set, so
# that scripts/boot.sh records every boot it would make (board, timeout,
# kernel command line, command) and boots nothing; a job is written for
# each boot of the default kernel whose command is a guest script, or the
# demo, and that needs only the board's kernel, device tree and initramfs
# (not --dtb, --share or --module).  The job boots the kernel command line
# the suite boots with, less s5p.out= (boot.sh's UART for a --cmd run's
# output: a LAVA job runs the script from the console's shell), waits for
# /init's shell prompt, runs the script and reads its KTAP results
# (tests/guest/lib.sh) with a LAVA monitor, then its exit status.
# A suite runs here in about a second (its host checks see no output and
# fail, which is ignored).
. "$(dirname "$0")/lib/common.sh"

usage() { sed -n '2,/^[^#]/p' "$0" | sed -n 's/^# \{0,1\}//p'; }
out=$S5P_CACHE/lava/jobs images=file://$S5P_CACHE/lava/images
pats=()
while [ $# -gt 0 ]; do
	case "$1" in
	--out) [ $# -ge 2 ] || { usage >&2; exit 2; }; out=$2; shift 2 ;;
	--images) [ $# -ge 2 ] || { usage >&2; exit 2; }; images=${2%/}; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	-*) printf 'error: unknown option %s (try --help)\n' "$1" >&2; exit 2 ;;
	*) pats+=("$1"); shift ;;
	esac
done

# Never inside itself: a suite that runs this script (16-lava), recording
# its boots, would run it again, and so on (seen once: a chain of them
# outlived every timeout, each level's "timeout" ending only its own child).
[ -z "${S5P_LAVA_JOBS:-}" ] && [ -z "${S5P_BOOT_RECORD:-}" ] ||
	s5p_die "scripts/lava-jobs.sh does not run inside itself or inside a recorded suite"
export S5P_LAVA_JOBS=1

suites=()
for s in "$S5P_TOP"/tests/suites/*.sh; do
	n=$(basename "$s" .sh)
	# (a suite that runs this script has no boots of its own to record)
	! grep -q 'lava-jobs\.sh' "$s" || continue
	if [ ${#pats[@]} -gt 0 ]; then
		m=0
		for p in "${pats[@]}"; do [[ $n == *"$p"* ]] && m=1; done
		[ $m = 1 ] || continue
	else
		# a guest script, and none of the host folder or a module of the user's
		grep -qE 't_guest_boot|/tests/[a-z-]+\.sh|scripts/(fuzz-guest|stress-cma)\.sh' "$s" || continue
		! grep -qE 'kmod\.sh' "$s" || continue
	fi
	suites+=("$s")
done
[ ${#suites[@]} -gt 0 ] || s5p_die "no suite matches '${pats[*]}'"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/records"
for s in "${suites[@]}"; do
	n=$(basename "$s" .sh)
	# (the default kernel's boots; its logs and checks go nowhere)
	S5P_BOOT_RECORD=$tmp/$n.rec S5P_FLAVOUR=default S5P_CHECK_LOG='' S5P_KEEP_LOGS='' \
		S5P_TEST_LOGDIR=$tmp/$n.logs S5P_SHARED_BOOT='' S5P_SUITE_DEADLINE='' \
		timeout -k 5 60 "$s" </dev/null >"$tmp/$n.out" 2>&1
	[ "$?" != 124 ] || s5p_die "$n did not end within 60 s while recording its boots"
	[ -s "$tmp/$n.rec" ] || continue
	sed "s/^/$n /" "$tmp/$n.rec" >>"$tmp/records"
done

mkdir -p "$out" || s5p_die "cannot create $out"
rm -f "$out"/*.yaml
/usr/bin/python3 "$S5P_TOP/scripts/lib/lava_jobs.py" write "$tmp/records" "$out" "$images" "$S5P_TOP" \
	>"$out/jobs.tsv" || s5p_die "cannot write the jobs"
printf 'wrote %s LAVA jobs in %s (from %s suites; images at %s)\n' \
	"$(wc -l <"$out/jobs.tsv")" "$out" "${#suites[@]}" "$images"
