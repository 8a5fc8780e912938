#!/usr/bin/env bash
# Write the guest suites' boots as LAVA job definitions (docs/lab.md).
#
# usage: scripts/lava-jobs.sh [--out DIR] [--images URL] [--files URL] [SUITE...]
#
#   --out DIR     where the jobs go (default: $S5P_CACHE/lava/jobs); one
#                 SUITE-BOARD-SCENARIO.yaml a boot (SUITE@FLAVOUR-... on a
#                 kernel flavour other than the default), jobs.tsv (each
#                 job, its suite and board, and the kernel arguments the
#                 suite boots with), and in DIR/files/ what a job needs
#                 besides the pipeline's images: the device tree of a boot
#                 with --dtb (JOB.dtb), the files a boot with --share gives
#                 the guest in /host (JOB-host.tar)
#   --images URL  where a lab finds what the pipeline built, a folder a kernel
#                 flavour: URL/FLAVOUR/BOARD/zImage, URL/FLAVOUR/BOARD/
#                 BOARD.dtb and URL/FLAVOUR/initramfs.cpio.gz (default:
#                 file://$S5P_CACHE/lava/images, what scripts/lava-run.sh
#                 stages there); http(s):// for a LAVA server
#   --files URL   where a lab finds DIR/files/ (default: file://DIR/files,
#                 DIR made absolute); upload it beside the images
#   SUITE...      the suites whose boots become jobs (names or words of
#                 names, as for tests/run.sh); default: every suite that
#                 boots a guest, but those whose header says why not
#                 ("# s5p-lava: no (WHY)": 12, 15, 38), and of those whose
#                 header says "# s5p-lava: scripts (WHY)" (10) only the
#                 boots of a guest script
#
# Nothing is copied by hand: each suite runs with S5P_BOOT_RECORD set, once
# a kernel flavour it runs on (its "# s5p-flavours:" header), so that
# scripts/boot.sh records every boot it would make (board, flavour,
# timeout, kernel command line, command) and boots nothing; a job is
# written for each boot that needs only the flavour's kernel, a device
# tree and the flavour's initramfs: the board's device tree, or for a boot
# with --dtb its own (boot.sh keeps a copy in the record; staged in
# DIR/files/); a boot with --share gets what the suite put in the folder
# as a tar archive (DIR/files/) that LAVA adds to the initramfs at /host
# (a deploy overlay), and after the command the job prints, gzip and
# base64 between markers, each file the guest wrote there (lava_jobs.py
# host-files reads them back out of the job's log).  Not --module.
# The job boots the kernel command line the suite boots with, less
# s5p.out= (boot.sh's UART for a --cmd run's output: a LAVA job runs the
# command from the console's shell), waits for /init's shell prompt and
# runs the command: a guest script's KTAP results (tests/guest/lib.sh) are
# read by a LAVA monitor, then its exit status; the demo's and a suite's
# own command's (46's, 13's: typed in as gzip and base64) exit status is
# the result.  The suites' checks on the host (of a console log, of files
# written to a host folder) are not in the jobs.
# A suite runs here in about a second a flavour (its host checks see no
# output and fail, which is ignored).
set -u
. "$(dirname "$0")/lib/common.sh"

usage() { sed -n '2,/^[^#]/p' "$0" | sed -n 's/^# \{0,1\}//p'; }
out=$S5P_CACHE/lava/jobs images=file://$S5P_CACHE/lava/images files=
pats=()
while [ $# -gt 0 ]; do
	case "$1" in
	--out) [ $# -ge 2 ] || { usage >&2; exit 2; }; out=$2; shift 2 ;;
	--images) [ $# -ge 2 ] || { usage >&2; exit 2; }; images=${2%/}; shift 2 ;;
	--files) [ $# -ge 2 ] || { usage >&2; exit 2; }; files=${2%/}; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	-*) printf 'error: unknown option %s (try --help)\n' "$1" >&2; exit 2 ;;
	*) pats+=("$1"); shift ;;
	esac
done

# Never inside itself: a suite that runs this script (16-lava), recording
# its boots, would run it again, and so on (seen once: a chain of them
# outlived every timeout, each level's "timeout" ending only its own child).
[[ -z ${S5P_LAVA_JOBS:-} && -z ${S5P_BOOT_RECORD:-} ]] ||
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
		# every suite that boots a guest (tests/run.sh's test), but those
		# whose header says why a lab cannot take their boots
		grep -qE 'scripts/(boot|fuzz-guest|stress-cma|bench-[a-z]+)|boot-\$|t_guest_boot' "$s" || continue
		grep -q '^# s5p-lava: no ' "$s" && continue
	fi
	suites+=("$s")
done
[ ${#suites[@]} -gt 0 ] || s5p_die "no suite matches '${pats[*]}'"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/records"
for s in "${suites[@]}"; do
	n=$(basename "$s" .sh)
	# each kernel flavour the suite runs on (tests/run.sh: the default, and
	# those its "# s5p-flavours:" header names); a boot's own --flavour
	# (13-flavours' mainline-cma) is in its record
	fl=default
	for f in $(sed -n 's/^# s5p-flavours: *//p' "$s" | head -n1); do
		[ "$f" = default ] || fl+=" $f"
	done
	for f in $fl; do
		# (its logs and checks go nowhere)
		rec=$tmp/$n@$f.rec
		S5P_BOOT_RECORD=$rec S5P_FLAVOUR=$f S5P_CHECK_LOG='' S5P_KEEP_LOGS='' \
			S5P_TEST_LOGDIR=$tmp/$n@$f.logs S5P_SHARED_BOOT='' S5P_SUITE_DEADLINE='' \
			timeout -k 5 60 "$s" </dev/null >"$tmp/$n@$f.out" 2>&1
		[ "$?" != 124 ] || s5p_die "$n ($f kernel) did not end within 60 s while recording its boots"
		[ -s "$rec" ] || continue
		# "# s5p-lava: scripts (WHY)": only the boots of a guest script
		own=1
		! grep -q '^# s5p-lava: scripts ' "$s" || own=0
		# boot.sh writes shell words (printf %q, $'...' for a command of
		# several lines): each record becomes one line of tab-separated
		# base64 fields, SUITE first, for lava_jobs.py (its device tree and
		# share archive stay in $rec.files/ until the jobs are written)
		while IFS= read -r line; do
			eval "w=($line)" || s5p_die "cannot read the boot record: $line"
			for x in "$n" "${w[@]}" "$own"; do printf '%s\t' "$(printf '%s' "$x" | base64 -w0)"; done
			printf '\n'
		done <"$rec" >>"$tmp/records"
	done
done

mkdir -p "$out" || s5p_die "cannot create $out"
rm -f "$out"/*.yaml
rm -rf "$out/files"
[ -n "$files" ] || files=file://$(realpath "$out")/files
/usr/bin/python3 "$S5P_TOP/scripts/lib/lava_jobs.py" write "$tmp/records" "$out" "$images" "$S5P_TOP" "$files" \
	>"$out/jobs.tsv" || s5p_die "cannot write the jobs"
printf 'wrote %s LAVA jobs in %s (from %s suites; images at %s, their own files at %s)\n' \
	"$(wc -l <"$out/jobs.tsv")" "$out" "${#suites[@]}" "$images" "$files"
