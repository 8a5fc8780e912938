#!/usr/bin/env bash
# Run one of the LAVA jobs (scripts/lava-jobs.sh) here, with Debian's LAVA
# dispatcher (lava-run) and a device dictionary for this machine
# (docs/lab.md).
#
# usage: scripts/lava-run.sh [--keep DIR] [JOB]
#
#   JOB         the job's name, as scripts/lava-jobs.sh writes it (SUITE-
#               BOARD-SCENARIO, e.g. 43-dma-heap-goni-main, the default, or
#               SUITE@FLAVOUR-BOARD-SCENARIO on another kernel flavour, e.g.
#               43-dma-heap@debug-goni-main)
#   --keep DIR  keep the job, the device dictionary, the images and lava-run's
#               output there (default: a temporary directory, removed)
#
# What it does:
#   1. Debian's lava-dispatcher, on demand: its .deb (apt-get download, the
#      version of Debian 12) is unpacked into $S5P_CACHE/lava/, and the few
#      Python packages lava-run imports are installed with apt-get; Debian's
#      lava-common (scripts/setup.sh installs it) gives the job schema.  Not
#      "apt-get install lava-dispatcher": that pulls in 172 packages here
#      (systemd, udev, qemu-system-x86, libguestfs, kernel headers, a newer
#      perl) onto a shared build machine; S5P_LAVA_SYSTEM=1 does it anyway.
#   2. The board's QEMU, the flavour's kernel, the device tree and the
#      initramfs, built as scripts/boot-BOARD.sh builds them, copied into the
#      run's images/FLAVOUR/ (docs/lab.md, "Images").
#   3. The job, written by scripts/lava-jobs.sh with file:// URLs to them.
#   4. A device dictionary (LAVA's rendered "qemu" device) whose QEMU is
#      the project's, for the board's machine.
#   5. lava-run; then its results (from its log), one a line, a summary
#      ("lava-run: N results: N pass, N fail, N other, in S s; ...") and
#      the guest's own count (KTAP "# Totals:") next to what LAVA parsed.
# The exit status is 0 when the job completed, every result passed and
# LAVA parsed as many results as the guest counted.
set -u
. "$(dirname "$0")/lib/common.sh"
. "$S5P_TOP/scripts/lib/qemu.sh"
. "$S5P_TOP/scripts/lib/rootfs.sh"

usage() { sed -n '2,/^[^#]/p' "$0" | sed -n 's/^# \{0,1\}//p'; }

# set_lava_run: the command that runs lava-run, in the array lavarun
# (step 1).
set_lava_run() {
	local lava=$S5P_CACHE/lava p ver dir missing=()
	local pydeps=(python3-yaml python3-jinja2 python3-pexpect python3-requests python3-configobj
		python3-setproctitle python3-magic python3-netifaces python3-pyudev python3-aiohttp
		python3-tz python3-voluptuous lava-common)
	mkdir -p "$lava"
	if [ "${S5P_LAVA_SYSTEM:-0}" = 1 ]; then
		if ! command -v lava-run >/dev/null; then
			s5p_log "installing Debian's lava-dispatcher (S5P_LAVA_SYSTEM=1)"
			s5p_sudo apt-get install -y --no-install-recommends lava-dispatcher >&2 ||
				s5p_die "apt-get install lava-dispatcher failed"
		fi
		lavarun=(lava-run)
		return
	fi
	for p in "${pydeps[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		s5p_log "installing what Debian's lava-run imports: ${missing[*]}"
		s5p_sudo apt-get install -y --no-install-recommends "${missing[@]}" >&2 ||
			s5p_die "apt-get install ${missing[*]} failed"
	fi
	ver=$(dpkg-query -W -f='${Version}' lava-common)
	dir=$lava/lava-dispatcher-$ver
	[ -f "$dir/stamp" ] || fetch_dispatcher "$ver" "$dir"
	# (stub/: a stand-in for python3-guestfs, which lava-run imports at
	# start and a tmpfs qemu job never uses: scripts/lib/lava-stub-guestfs.py)
	lavarun=(env "PYTHONPATH=$dir/stub:$dir/usr/lib/python3/dist-packages" /usr/bin/python3
		"$dir/usr/bin/lava-run")
}

# fetch_dispatcher VERSION DIR: Debian's lava-dispatcher and
# lava-dispatcher-host VERSION (lava-run imports the latter's modules at
# start), unpacked into DIR.
fetch_dispatcher() {
	local dir=$2
	s5p_log "fetching Debian's lava-dispatcher and lava-dispatcher-host $1 (unpacked into $dir)"
	# shellcheck disable=SC2015 # (any step failing ends the script)
	rm -rf "$dir.tmp" && mkdir -p "$dir.tmp/deb" &&
		(cd "$dir.tmp/deb" && s5p_apt_get download "lava-dispatcher=$1" "lava-dispatcher-host=$1") >&2 &&
		dpkg-deb -x "$dir.tmp/deb"/lava-dispatcher_*.deb "$dir.tmp" &&
		dpkg-deb -x "$dir.tmp/deb"/lava-dispatcher-host_*.deb "$dir.tmp" &&
		mkdir -p "$dir.tmp/stub" && cp "$S5P_TOP/scripts/lib/lava-stub-guestfs.py" "$dir.tmp/stub/guestfs.py" &&
		ls "$dir.tmp/deb" >"$dir.tmp/stamp" &&
		rm -rf "$dir" && mv "$dir.tmp" "$dir" ||
		s5p_die "cannot fetch or unpack lava-dispatcher $1 (it must match lava-common's version)"
}

# copy_images BOARD FLAVOUR: what the board boots (its QEMU, the flavour's
# kernel, the device tree and the initramfs), built as
# scripts/boot-BOARD.sh builds them, copied into the run's images/FLAVOUR/
# (step 2); bin/qemu-system-arm is that QEMU (lava-run asks
# "qemu-system-arm --version", the job's arch).
copy_images() {
	local img=$run/images/$2
	# shellcheck disable=SC2119 # (no argument: QEMU without its qtests)
	s5p_qemu_build
	s5p_kernel_build "$1" "$2"
	s5p_dtb "$1"
	s5p_rootfs
	mkdir -p "$img/$1" "$run/bin"
	s5p_kernel_read cp "$KIMAGE" "$img/$1/zImage" || exit 1
	{ cp "$DTB" "$img/$1/$1.dtb" && cp "$ROOTFS" "$img/initramfs.cpio.gz"; } ||
		s5p_die "cannot copy the images"
	ln -sf "$QEMU" "$run/bin/qemu-system-arm"
}

# write_job SUITE: the suite's jobs, written by scripts/lava-jobs.sh with
# file:// URLs to the images (step 3); print the path of this one's.
write_job() {
	"$S5P_TOP/scripts/lava-jobs.sh" --out "$run/jobs" --images "file://$run/images" "$1" >/dev/null ||
		s5p_die "scripts/lava-jobs.sh failed"
	[ -f "$run/jobs/$jobname.yaml" ] ||
		s5p_die "no job $jobname (jobs of $1: $(cd "$run/jobs" && printf '%s ' *.yaml))"
	echo "$run/jobs/$jobname.yaml"
}

# write_device BOARD: the device dictionary (step 4): LAVA's qemu device,
# rendered, with this QEMU.
write_device() {
	local board=$1
	cat >"$run/device.yaml" <<EOF
# A LAVA device for this machine: the project's QEMU ($QEMU)
# as a "qemu" device (docs/lab.md); what lava-server renders from a device
# dictionary that extends qemu.jinja2.
device_type: qemu
available_architectures: [arm]
constants:
  kernel-start-message: 'Linux version [0-9]'
  shutdown-message: 'The system is going down for reboot NOW'
  default-shell-prompt: 'lava-test: # '
  posix:
    lava_test_sh_cmd: /bin/sh
    lava_test_results_dir: /lava-%s
    lava_test_shell_file: ~/.bashrc
  failure_retry: 3
  boot_retry: 1
  spawn_maxread: 4092
actions:
  deploy:
    connections:
      serial:
    methods:
      tmpfs:
      image:
        parameters:
          guest:
            size: 512
            interface: ide
  boot:
    connections:
      serial:
    methods:
      qemu:
        parameters:
          command: $QEMU
          options:
          - -M $board
          - -display none
          - -no-reboot
          - -monitor none
          - -serial stdio
# (typing the command: Aquila's console UART lost characters of a command
# typed at full speed, Goni's did not: docs/lab.md)
character_delays:
  test: 10
timeouts:
  actions:
    apply-overlay-image:
      minutes: 2
  connections:
    lava-test-shell:
      seconds: 10
EOF
}

# parse_results: lava-run's log (one record a line: {"dt", "lvl", "msg"},
# YAML) into results.tsv, its "results" records one a line: result,
# definition, test case.
parse_results() {
	/usr/bin/python3 - "$run/lava-run.log" "$run/results.tsv" <<'EOF'
import sys, yaml
results, status = [], None
with open(sys.argv[1]) as f:
    for line in f:
        if not line.startswith("{"):
            continue
        try:
            rec = yaml.safe_load(line)
        except Exception:
            continue
        if rec.get("lvl") == "results" and isinstance(rec.get("msg"), dict):
            results.append(rec["msg"])
with open(sys.argv[2], "w") as out:
    for r in results:
        out.write("%s\t%s\t%s\n" % (r.get("result"), r.get("definition"),
                                     (r.get("extra") or {}).get("test_case_id") or r.get("case")))
EOF
}

# summary RC SECONDS: one line on lava-run's results; status 0 when the job
# finished correctly with every result passed.
summary() {
	local status pass fail other where
	status=$(grep -ao "Job finished correctly\|JobError\|InfrastructureError\|TestError\|LAVABug\|Canceled" "$run/lava-run.log" | tail -n1)
	pass=$(grep -c '^pass' "$run/results.tsv") fail=$(grep -c '^fail' "$run/results.tsv")
	other=$(grep -vc '^pass\|^fail' "$run/results.tsv")
	where="$run/lava-run.log"
	[ -n "$keep" ] || where="removed; --keep DIR keeps it"
	printf 'lava-run: %s results: %s pass, %s fail, %s other, in %s s; lava-run exit status %s; %s (log: %s)\n' \
		"$(wc -l <"$run/results.tsv")" "$pass" "$fail" "$other" "$2" "$1" "${status:-no final status}" "$where"
	[ "$1" = 0 ] && [ "$fail" = 0 ] && [ "$pass" -gt 0 ] && [ "$status" = "Job finished correctly" ]
}

# counts_agree JOB-FILE: the guest's own count (its "# Totals:" line on the
# console) against what LAVA's monitor parsed (the results of the job's
# test suite, named after the job); a job without KTAP (the demo, a
# suite's own command: the exit status is the result) agrees.
counts_agree() {
	local totals tp tf mp mf
	if ! grep -q '^ *monitors:' "$1"; then
		printf 'no KTAP in this job (its exit status is its result)\n'
		return 0
	fi
	totals=$(grep -ao '"lvl": "target", "msg": "# Totals: pass:[0-9]* fail:[0-9]*' "$run/lava-run.log" | tail -n1 |
		sed 's/.*pass:\([0-9]*\) fail:\([0-9]*\)/\1 \2/')
	read -r tp tf <<<"${totals:-- -}"
	# (LAVA's names take no "@": the monitor's is the job's with ".")
	mp=$(awk -F'\t' -v j="${jobname//@/.}" '$2 == j && $1 == "pass"' "$run/results.tsv" | wc -l)
	mf=$(awk -F'\t' -v j="${jobname//@/.}" '$2 == j && $1 == "fail"' "$run/results.tsv" | wc -l)
	printf 'the guest counted pass:%s fail:%s (its KTAP "# Totals:"); LAVA parsed %s pass, %s fail\n' "$tp" "$tf" "$mp" "$mf"
	[ "$tp" = "$mp" ] && [ "$tf" = "$mf" ]
}

main() {
	local suite flavour board job t0 rc ok=0
	keep='' jobname=43-dma-heap-goni-main
	while [ $# -gt 0 ]; do
		case "$1" in
		--keep) [ $# -ge 2 ] || { usage >&2; exit 2; }; keep=$2; shift 2 ;;
		-h | --help) usage; exit 0 ;;
		-*) printf 'error: unknown option %s (try --help)\n' "$1" >&2; exit 2 ;;
		*) jobname=$1; shift ;;
		esac
	done
	[[ $jobname =~ ^([0-9]+-[a-z0-9-]+)(@([a-z0-9-]+))?-(goni|aquila)-([a-z0-9-]+)$ ]] ||
		s5p_die "'$jobname' is not a job name (SUITE[@FLAVOUR]-BOARD-SCENARIO, e.g. 43-dma-heap-goni-main)"
	suite=${BASH_REMATCH[1]} flavour=${BASH_REMATCH[3]:-default} board=${BASH_REMATCH[4]}
	if [ -n "$keep" ]; then
		mkdir -p "$keep" || s5p_die "cannot create $keep"
		run=$(realpath "$keep")
	else
		run=$(mktemp -d)
		trap 'rm -rf "$run"' EXIT
	fi

	set_lava_run
	copy_images "$board" "$flavour"
	job=$(write_job "$suite") || exit 1
	write_device "$board"
	# 5. lava-run, its results, one a line, and what they add up to
	mkdir -p "$run/output"
	s5p_log "lava-run: job $jobname ($job), device $run/device.yaml"
	t0=$(date +%s)
	PATH=$run/bin:$PATH "${lavarun[@]}" --job-id 1 --output-dir "$run/output" \
		--device "$run/device.yaml" "$job" >"$run/lava-run.log" 2>&1
	rc=$?
	parse_results
	cat "$run/results.tsv"
	summary "$rc" "$(($(date +%s) - t0))" || ok=1
	counts_agree "$job" || ok=1
	return "$ok"
}

main "$@"
