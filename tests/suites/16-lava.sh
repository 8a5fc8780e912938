#!/usr/bin/env bash
# s5p-timeout: 300
# The guest suites as LAVA jobs (scripts/lava-jobs.sh, docs/lab.md), checked
# here without a LAVA server and without booting: every generated job passes
# the job schema of Debian's lava-common (lava_common.schemas.validate,
# strict), and a job made invalid by hand does not; each job boots the kernel
# command line its suite boots with (less s5p.out=, the --cmd output UART);
# its timeouts are the suite's; a boot with a device tree of its own deploys
# that one, staged with the jobs; a boot with a host folder gets its files
# at /host and reports the guest's; and the monitor the jobs read results
# with reads tests/guest/lib.sh's KTAP the way t_relay does.  Host only, a
# few seconds (each guest suite runs about a second to record its boots).
set -u
. "$(dirname "$0")/../lib/tap.sh"
t_plan 15

jobs=$T_TMP/jobs
py=$S5P_TOP/scripts/lib/lava_jobs.py
t_check "scripts/lava-jobs.sh writes the jobs" \
	"$S5P_TOP/scripts/lava-jobs.sh" --out "$jobs" --images https://lab.example.org/s5pv210-cma \
	--files https://lab.example.org/s5pv210-cma/jobs-files

# Every suite that boots a guest (tests/run.sh's test) has jobs, on each
# kernel flavour it runs on, unless its header says why a lab cannot take
# its boots ("# s5p-lava: no (WHY)").
want=() missing=() nowhy=() flav=0
for s in "$S5P_TOP"/tests/suites/*.sh; do
	grep -qE 'scripts/(boot|fuzz-guest|stress-cma|bench-[a-z]+)|boot-\$|t_guest_[b]oot' "$s" || continue
	n=$(basename "$s" .sh)
	[ "$n" != 16-lava ] || continue
	if grep -q '^# s5p-lava:' "$s"; then
		grep -qE '^# s5p-lava: (no|scripts) \(.{10,}\)$' "$s" || nowhy+=("$n")
		! grep -q '^# s5p-lava: no' "$s" || continue
	fi
	want+=("$n")
	compgen -G "$jobs/$n-*.yaml" >/dev/null || compgen -G "$jobs/$n@*.yaml" >/dev/null || missing+=("$n")
	for f in $(sed -n 's/^# s5p-flavours: *//p' "$s" | head -n1); do
		[ "$f" = default ] && continue
		flav=$((flav + 1))
		compgen -G "$jobs/$n@$f-*.yaml" >/dev/null || missing+=("$n@$f")
	done
done
njobs=$(find "$jobs" -name '*.yaml' 2>/dev/null | wc -l)
t_check "each guest suite has its jobs ($njobs jobs for ${#want[@]} suites: ${want[*]}; none for: ${missing[*]:-nothing missing})" \
	[ "${#missing[@]}" = 0 -a "$njobs" -ge "${#want[@]}" ]
t_check "each suite has its jobs on every other kernel flavour it runs on ($flav suite-flavour pairs, $(find "$jobs" -maxdepth 1 -name '*@*.yaml' | wc -l) jobs)" \
	[ "$flav" -gt 0 -a "${#missing[@]}" = 0 ]
t_check "a suite without jobs, or with jobs only for its guest scripts, says why (# s5p-lava: no|scripts (WHY))${nowhy:+: not ${nowhy[*]}}" \
	[ "${#nowhy[@]}" = 0 ]
t_check "there is one job for the demo (35-codec, boot-goni.sh --demo)" \
	test -f "$jobs/35-codec-goni-demo.yaml"

# A suite's own command (46's, several lines with a trace in a here-document)
# reaches the guest's shell intact: the job's lines, run by dash, write a
# file whose trace is bench/traces/tiny.trace, and that is valid sh.
own_cmd() {
	/usr/bin/python3 -c '
import base64, gzip, sys, yaml
j = yaml.safe_load(open(sys.argv[1]))
cmds = [c["command"] for a in j["actions"] if "test" in a and "interactive" in a["test"]
        for i in a["test"]["interactive"] for c in i["script"] if (c.get("name") or "").startswith("load-")]
assert len(cmds) >= 3, cmds
b64 = "".join(c.split()[1] for c in cmds if c.startswith("echo "))
cmd = gzip.decompress(base64.b64decode(b64)).decode()
open(sys.argv[3], "w").write(cmd)
assert open(sys.argv[2]).read() in cmd, "the trace is not in the command"
' "$jobs/46-cma-bench-guest-goni-cmd.yaml" "$S5P_TOP/bench/traces/tiny.trace" "$T_TMP/46.cmd" &&
		dash -n "$T_TMP/46.cmd"
}
t_check "a suite's own command reaches the guest intact (46: the job writes it with the trace, valid sh)" own_cmd

# lava-common's schema
if [ ! -f /usr/lib/python3/dist-packages/lava_common/schemas/__init__.py ]; then
	t_fail "Debian's lava-common is installed (scripts/setup.sh installs it)"
else
	/usr/bin/python3 "$py" validate "$jobs"/*.yaml >"$T_TMP/valid.out" 2>&1
	bad=$(grep -c '^not ok' "$T_TMP/valid.out")
	good=$(grep -c '^ok' "$T_TMP/valid.out")
	t_check "every job is valid for lava-common's job schema ($good valid, $bad not)" \
		[ "$bad" = 0 -a "$good" = "$njobs" ]
	grep '^not ok' "$T_TMP/valid.out" | head -n 5 | sed 's/^/#   /'
fi

# A job made invalid by hand, three ways, is refused: the check can fail.
src=$jobs/30-camera-goni-main.yaml
mkdir -p "$T_TMP/bad"
sed 's/method: qemu/method: qemu-system/' "$src" >"$T_TMP/bad/method.yaml"
sed '/^device_type:/d' "$src" >"$T_TMP/bad/no-device-type.yaml"
sed 's/^      minutes: 15$/      minutes: fifteen/' "$src" >"$T_TMP/bad/timeout.yaml"
/usr/bin/python3 "$py" validate "$T_TMP"/bad/*.yaml >"$T_TMP/bad.out" 2>&1
sed 's/^/#   /' "$T_TMP/bad.out"
t_check "three jobs made invalid by hand (boot method, no device_type, a timeout in words) are refused" \
	[ "$(grep -c '^not ok' "$T_TMP/bad.out")" = 3 ]

# Each job's kernel arguments are those its suite boots with (jobs.tsv:
# FILE SUITE BOARD ARGS, recorded by boot.sh (S5P_BOOT_RECORD) from the suite's own
# boot), less s5p.out=BOARD_OUTPUT.
n=0 diff=0
while IFS=$'\t' read -r f suite board args; do
	n=$((n + 1))
	# shellcheck disable=SC1090 # (boards/*/board.conf, by name)
	out=$(. "$S5P_TOP/boards/$board/board.conf" && echo "$BOARD_OUTPUT")
	# (the words of the command line, unglobbed: cma_map= holds '*')
	# shellcheck disable=SC2086
	expect=$(set -f; printf '%s\n' $args | grep -vx "s5p.out=$out" | tr '\n' ' ')
	got=$(/usr/bin/python3 "$py" kargs "$f")
	if [ "${expect% }" != "$got" ]; then
		diff=$((diff + 1))
		printf '#   %s: the job boots "%s", %s boots "%s"\n' "$(basename "$f")" "$got" "$suite" "${expect% }"
	fi
done <"$jobs/jobs.tsv"
t_check "each job's kernel arguments equal its suite's ($n jobs, $diff differ)" [ "$diff" = 0 -a "$n" = "$njobs" ]

# A boot with a device tree of its own (40-cma-guest's /memreserve/ and
# bad-node boots, boot.sh --dtb) deploys that device tree, staged in
# OUT/files/ and fetched from --files's URL with its sha256, not the
# board's; it holds what the suite put in it; the rest is as for any job
# (the kernel arguments: checked above, from the same jobs.tsv).
own_dtb() {
	/usr/bin/python3 -c '
import hashlib, os, subprocess, sys, yaml
jobs, tsv = sys.argv[1], open(sys.argv[1] + "/jobs.tsv").read()
for ident, want in (("40-cma-guest-goni-dtres", "/memreserve/\t0x0000000057f00000 0x0000000000100000;"),
                    ("40-cma-guest-goni-dterr", "nomap@44000000 {")):
    f = os.path.join(jobs, ident + ".yaml")
    j = yaml.safe_load(open(f))
    img = [a["deploy"]["images"] for a in j["actions"] if "deploy" in a][0]
    staged = os.path.join(jobs, "files", ident + ".dtb")
    assert img["dtb"]["url"] == "https://lab.example.org/s5pv210-cma/jobs-files/%s.dtb" % ident, img["dtb"]
    assert img["dtb"]["image_arg"] == "-dtb {dtb}", img["dtb"]
    assert img["kernel"]["url"] == "https://lab.example.org/s5pv210-cma/default/goni/zImage", img["kernel"]
    data = open(staged, "rb").read()
    assert img["dtb"]["sha256sum"] == hashlib.sha256(data).hexdigest(), "the sha256 is not the staged file'"'"'s"
    dts = subprocess.run(["dtc", "-q", "-I", "dtb", "-O", "dts", staged], capture_output=True, text=True, check=True).stdout
    assert want in dts, "%s: the staged device tree lacks %r" % (ident, want)
    assert "\n" + f + "\t40-cma-guest\tgoni\t" in "\n" + tsv, "%s is not in jobs.tsv" % f
    print("# %s: %s (%d bytes), holds %r" % (ident, img["dtb"]["url"], len(data), want))
' "$jobs"
}
t_check "a boot with a device tree of its own (40: dtres, dterr) deploys it, staged with the jobs and referenced with its sha256" own_dtb

# A boot with a host folder (40-cma-guest's replay of cma-plan's proposal,
# boot.sh --share): the files the suite put in it (bench/traces/media.trace)
# are staged as a tar archive that LAVA adds to the initramfs at /host (a
# cpio.newc overlay, lava_dispatcher's AppendOverlays), dated 1970 (older
# than the stamp the job makes before the command); the job then runs its
# report of the guest's files.
host_job() {
	/usr/bin/python3 -c '
import base64, gzip, hashlib, io, os, sys, tarfile, yaml
jobs, trace = sys.argv[1], open(sys.argv[2], "rb").read()
ident = "40-cma-guest-goni-plan"
j = yaml.safe_load(open(os.path.join(jobs, ident + ".yaml")))
rd = [a["deploy"]["images"] for a in j["actions"] if "deploy" in a][0]["ramdisk"]
assert rd["url"] == "https://lab.example.org/s5pv210-cma/default/initramfs.cpio.gz", rd
assert rd["format"] == "cpio.newc" and rd["compression"] == "gz", rd
ov = rd["overlays"]["host"]
assert ov["format"] == "tar" and ov["path"] == "/host", ov
assert ov["url"] == "https://lab.example.org/s5pv210-cma/jobs-files/%s-host.tar" % ident, ov
staged = open(os.path.join(jobs, "files", ident + "-host.tar"), "rb").read()
assert ov["sha256sum"] == hashlib.sha256(staged).hexdigest()
t = tarfile.open(fileobj=io.BytesIO(staged))
files = {m.name: m for m in t.getmembers() if m.isfile()}
assert list(files) == ["./media.trace"], list(files)
assert t.extractfile("./media.trace").read() == trace, "media.trace is not the suite'"'"'s"
assert all(m.mtime == 0 and m.uid == 0 for m in t.getmembers()), "not dated 0, owned by root"
steps = [c for a in j["actions"] if "test" in a and "interactive" in a["test"]
         for i in a["test"]["interactive"] for c in i["script"]]
names = [c["name"] for c in steps]
assert names.index("host-stamp") < names.index("plan") < names.index("status") < names.index("host-files"), names
b64 = "".join(c["command"].split()[1] for c in steps if c["name"].startswith("load-") and c["command"].startswith("echo "))
assert "cma-test -q -p /host/media.trace" in gzip.decompress(base64.b64decode(b64)).decode(), "not the suite'"'"'s command"
print("# %s: /host from %s (media.trace, %d bytes); steps %s" % (ident, ov["url"], len(trace), " ".join(n for n in names if not n.startswith(("load-", "host-load-")))))
' "$jobs" "$S5P_TOP/bench/traces/media.trace"
}
t_check "a boot with a host folder (40: plan) gets the suite's files at /host (staged tar, an overlay of the initramfs), the stamp before its command, the report after" host_job

# The report (the job's own lines, decoded as the guest decodes them, run by
# dash in a /host made here) prints exactly the files the guest wrote after
# the stamp, and "lava_jobs.py host-files" reads them back out of the
# console's lines (as the dispatcher logs them: \r\r\n) intact.
host_report() {
	local h=$T_TMP/report
	mkdir -p "$h/host/sub" "$h/tmp" "$h/back" &&
		/usr/bin/python3 -c '
import base64, gzip, re, sys, yaml
j = yaml.safe_load(open(sys.argv[1]))
cmds = [c["command"] for a in j["actions"] if "test" in a and "interactive" in a["test"]
        for i in a["test"]["interactive"] for c in i["script"] if (c.get("name") or "").startswith("host-load-")]
b64 = "".join(c.split()[1] for c in cmds if c.startswith("echo "))
sh = gzip.decompress(base64.b64decode(b64)).decode()
root = sys.argv[3]
open(sys.argv[2], "w").write(re.sub(r"(?<![\w/.-])(/host|/tmp/)", lambda m: root + m.group(1), sh))
' "$jobs/40-cma-guest-goni-plan.yaml" "$h/r.sh" "$h" || return 1
	# (the staged file, dated 0; the stamp; then what the guest writes)
	cp "$S5P_TOP/bench/traces/media.trace" "$h/host/" && touch -d @0 "$h/host/media.trace" "$h/host" &&
		touch "$h/tmp/s5p-host.stamp" && sleep 0.05 &&
		cp "$S5P_TOP/bench/traces/random.trace" "$h/host/media.events" &&
		printf 'x y\n' >"$h/host/sub/a b" || return 1
	(dash "$h/r.sh") | sed 's/$/\r\r/' >"$h/console" || return 1
	/usr/bin/python3 "$py" host-files "$h/console" "$h/back" >"$h/back.out"
	sed 's/^/#   /' "$h/back.out"
	grep -q '^# 2 files .* (the guest reported 2)$' "$h/back.out" &&
		cmp "$h/host/media.events" "$h/back/media.events" && cmp "$h/host/sub/a b" "$h/back/sub/a b" &&
		[ ! -e "$h/back/media.trace" ]
}
t_check "the report prints the files the guest wrote to /host (not the staged ones), and lava_jobs.py host-files reads them back intact" host_report

# The monitor's timeout is the suite's (boot.sh --timeout, in minutes)
# (and the images of its flavour)
t_check "a job's timeouts come from its suite (30-camera: 900 s, 45-cma-stats: 300 s, on the debug kernel 1800 s) and its images from its flavour" \
	/usr/bin/python3 -c '
import sys, yaml
for f, s, fl in ((sys.argv[1], 900, "default"), (sys.argv[2], 300, "default"), (sys.argv[3], 1800, "debug")):
    j = yaml.safe_load(open(f))
    mon = [a["test"] for a in j["actions"] if "test" in a and "monitors" in a["test"]][0]
    boot = [a["boot"] for a in j["actions"] if "boot" in a][0]
    assert mon["timeout"] == {"minutes": s // 60} == boot["timeout"], (f, mon["timeout"], boot["timeout"])
    assert j["metadata"]["s5p.timeout-s"] == str(s)
    img = [a["deploy"]["images"] for a in j["actions"] if "deploy" in a][0]
    base = "https://lab.example.org/s5pv210-cma/" + fl
    assert img["kernel"]["url"] == base + "/goni/zImage", img["kernel"]["url"]
    assert img["ramdisk"]["url"] == base + "/initramfs.cpio.gz", img["ramdisk"]["url"]
' "$jobs/30-camera-goni-main.yaml" "$jobs/45-cma-stats-goni-main.yaml" "$jobs/45-cma-stats@debug-goni-main.yaml"

# The guest's KTAP (tests/guest/lib.sh, run here by dash like busybox sh),
# read by the jobs' monitor pattern (as pexpect does: Python's re on the
# console's CRLF lines) and by t_relay: the same results.
mkdir -p "$T_TMP/guest"
sed "s,^board=.*,board=goni," "$S5P_TOP/tests/guest/lib.sh" >"$T_TMP/guest/lib.sh"
cat >"$T_TMP/guest/t.sh" <<'EOF'
. ./lib.sh
ok "first # with a hash"
not_ok "second"
echo "[    1.234] a kernel line: ok 7 cma_kunit_case" 
echo x | while read -r _; do ok "in a pipeline"; done
check "a command" true
exit $T_FAILED
EOF
# (lines ending as the dispatcher reads them: \r\r\n, docs/lab.md)
(cd "$T_TMP/guest" && dash t.sh) | sed 's/$/\r\r/' >"$T_TMP/ktap.out"
sed 's/^/#   /' "$T_TMP/ktap.out" | tr -d '\r'
t_check "the jobs' monitor reads the guest's KTAP: 4 results, 1 failed, then the end" \
	/usr/bin/python3 -c '
import re, sys, yaml
j = yaml.safe_load(open(sys.argv[1]))
m = [a["test"]["monitors"][0] for a in j["actions"] if "test" in a and "monitors" in a["test"]][0]
text = open(sys.argv[2], newline="").read()
start = text.index(m["start"])
end = re.search(m["end"], text[start:])
assert end, "no end"
body = text[start:start + end.start()]
res = [(m["fixupdict"][x.group("result")], x.group("test_case_id")) for x in re.finditer(m["pattern"], body)]
print(res)
assert res == [("pass", "goni: first _ with a hash"), ("fail", "goni: second"),
               ("pass", "goni: in a pipeline"), ("pass", "goni: a command")], res
' "$jobs/30-camera-goni-main.yaml" "$T_TMP/ktap.out"
t_relay "relay: " <"$T_TMP/ktap.out" >"$T_TMP/relayed" 2>&1
T_FAILED=$((T_FAILED - 1))	# (the one planted failure, relayed into a file, not this suite's)
t_check "t_relay reads the same KTAP: 3 ok, 1 not ok" \
	[ "$(grep -c '^ok - relay: goni: ' "$T_TMP/relayed")" = 3 -a "$(grep -c '^not ok - relay: goni: second$' "$T_TMP/relayed")" = 1 ]
t_done
