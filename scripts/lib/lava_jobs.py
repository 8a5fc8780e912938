#!/usr/bin/python3
"""LAVA job definitions for the project's guest suites (scripts/lava-jobs.sh).

Run with Debian's /usr/bin/python3: the schema check imports lava_common
(package lava-common), which Debian installs for its own Python only.

  lava_jobs.py write RECORDS OUTDIR IMAGES TOP FILES   one job a recorded boot
  lava_jobs.py validate JOB...               LAVA's job schema, TAP lines
  lava_jobs.py kargs JOB                     the kernel command line of a job
  lava_jobs.py results RESULTS.yaml          lava-run's results, one a line
  lava_jobs.py host-files LOG DIR            the files a --share job's guest
                                             wrote to /host, out of its log

RECORDS holds a line a boot, its fields base64 and tab-separated: SUITE
boot BOARD FLAVOUR TIMEOUT KERNEL-ARGS COMMAND EXTRAS DTB SHARE
(scripts/boot.sh's S5P_BOOT_RECORD, decoded by scripts/lava-jobs.sh) OWN.
A job is written for a boot that needs nothing but the flavour's kernel, a
device tree and the flavour's initramfs: a guest script (/tests/NAME.sh
ARGS: its KTAP results, then its exit status), the demo or a suite's own
command (its exit status).  IMAGES/FLAVOUR/BOARD/zImage,
IMAGES/FLAVOUR/BOARD/BOARD.dtb and IMAGES/FLAVOUR/initramfs.cpio.gz are
what a job deploys; a boot with --dtb deploys its own device tree instead
(DTB, staged as OUTDIR/files/JOB.dtb, at FILES/JOB.dtb); a boot with
--share gets the files the suite gave the guest (SHARE, a tar archive,
staged as OUTDIR/files/JOB-host.tar) added to the initramfs at /host by
LAVA (a deploy overlay), and reports the files the guest wrote there.
"""
import base64
import gzip
import hashlib
import math
import os
import re
import shlex
import sys

import yaml

PROMPT = "/ # "   # busybox ash's prompt for root in /, printed by /init's shell
# A KTAP result line of tests/guest/lib.sh ("ok 3 - goni: camera: ..."):
# the whole line, up to its end, so that a line still arriving is not cut.
# Lines end in "\r\r\n" on the dispatcher's side: the guest's tty turns
# "\n" into "\r\n", and QEMU's stdio (a pty, output processing on) once more.
KTAP_RESULT = r"(?P<result>ok|not ok) \d+ - (?P<test_case_id>[^#\r\n]*[^#\s])[^\r\n]*\r*\n"
KTAP_START = "KTAP version 1"
KTAP_END = r"# Totals: pass:\d+ fail:\d+[^\r\n]*\r*\n"
# Markers the job's command prints around the script; printf puts them
# together, so that the console's echo of the command never matches them.
MARK = "printf 'S5P-LAVA-%s %s\\n' "
START = "S5P-LAVA-START"
EXIT = "S5P-LAVA-EXIT"


def records(path):
    """scripts/lava-jobs.sh's records: a line a boot, its fields base64 and
    tab-separated: SUITE, then boot.sh's record (S5P_BOOT_RECORD): "boot",
    BOARD, FLAVOUR, TIMEOUT, KERNEL-ARGS, COMMAND, EXTRAS, DTB, SHARE (a
    copy of --dtb's device tree, a tar archive of --share's folder, or
    "-"), then "1" if the suite's own commands may be jobs ("0": its header
    says "# s5p-lava: scripts (WHY)")."""
    for line in open(path):
        w = [base64.b64decode(x).decode() for x in line.rstrip("\n").rstrip("\t").split("\t") if line.strip()]
        if len(w) != 11 or w[1] != "boot":
            if line.strip():
                raise SystemExit("%s: not a boot record of scripts/boot.sh (%d fields): %s"
                                 % (path, len(w), line[:80]))
            continue
        yield dict(suite=w[0], board=w[2], flavour=w[3], timeout=int(w[4]),
                   kargs=w[5], cmd=w[6], extras=w[7],
                   dtb=None if w[8] == "-" else w[8], share=None if w[9] == "-" else w[9],
                   own=w[10] == "1")


def lava_kargs(kargs, board_output):
    """The suite's kernel arguments as a LAVA job boots them: without
    s5p.out= (with --cmd, boot.sh gives the command's output a UART of its
    own; a LAVA job runs it from the console's shell)."""
    return " ".join(a for a in kargs.split() if a != "s5p.out=" + board_output)


def board_output(top, board):
    for line in open(os.path.join(top, "boards", board, "board.conf")):
        m = re.match(r'BOARD_OUTPUT=(\S+)', line)
        if m:
            return m.group(1)
    raise SystemExit("boards/%s/board.conf: no BOARD_OUTPUT" % board)


def guest_script(cmd):
    """'/tests/camera.sh main' or 'sh /tests/cma-guest.sh defaults': (script,
    args); None for anything else."""
    w = cmd.split()
    if w and w[0] == "sh":
        w = w[1:]
    if not w or not re.fullmatch(r"/tests/[a-z][a-z0-9-]*\.sh", w[0]):
        return None
    if any(re.search(r"[^A-Za-z0-9._=,/-]", a) for a in w[1:]):
        return None
    return w[0], w[1:]


def timeout_block(seconds):
    return {"minutes": max(1, math.ceil(seconds / 60))}


# A command that is no guest script (a suite's own lines, 46's or
# 13-flavours') reaches the guest's shell as gzip and base64 (busybox has
# both), in lines that fit the 80 columns busybox's line editor assumes
# (prompt, "echo ", the chunk, " >>/tmp/c.b64"): ash redraws a longer line
# at every character typed, and a 1024-character line took over a minute
# to type at the device's 10 ms a character (seen in the first run).
CHUNK = 56
CMDFILE = "/tmp/c"


def inline_command(cmd, path=CMDFILE):
    """The shell lines that write CMD to PATH (a name as short as CMDFILE)
    on the guest."""
    b = base64.b64encode(gzip.compress(cmd.encode(), mtime=0)).decode()
    lines = ["rm -f %s.b64" % path]
    lines += ["echo %s >>%s.b64" % (b[i:i + CHUNK], path) for i in range(0, len(b), CHUNK)]
    lines.append("base64 -d %s.b64 | gunzip >%s" % (path, path))
    return lines


# A boot with --share (boot.sh: a host folder at /host, virtio-9p, both
# ways).  A LAVA qemu job has no such folder: the files the suite put in it
# reach the guest in the initramfs (a tar archive LAVA adds at /host, a
# deploy overlay), and the files the guest writes there leave it on the
# console.  A stamp made before the command (the archive's files are dated
# 1970-01-01, boot.sh's tar --mtime=@0) tells those apart; REPORT, written to
# REPORTFILE like a command and run after it, prints each such file as
# gzip and base64 between markers, and their count (host_files() reads
# them back).
STAMP = "/tmp/s5p-host.stamp"
REPORTFILE = "/tmp/r"
FILE_MARK = "S5P-LAVA-FILE"
REPORT = r"""cd /host || exit 1
find . -type f -newer %(stamp)s | sort >/tmp/s5p-host.list
n=0
while IFS= read -r f; do
	f=${f#./}
	printf 'S5P-LAVA-%%s %%s %%s\n' FILE "$(($(wc -c <"$f")))" "$f"
	gzip -c <"$f" | base64
	printf 'S5P-LAVA-%%s %%s\n' FILE-END "$f"
	n=$((n + 1))
done </tmp/s5p-host.list
printf 'S5P-LAVA-%%s %%s\n' FILES "$n"
""" % {"stamp": STAMP}


def stem(path, suffix):
    """A name for a scenario out of a file's: "dtres" for .../dtres.dtb."""
    b = os.path.basename(path)
    b = b[:-len(suffix)] if b.endswith(suffix) else b
    b = re.sub(r"[^a-z0-9-]+", "-", b.lower()).strip("-")
    return b or None


def scenario_of(rec):
    """What names the boot in its suite: the guest script's first argument
    (or the script), "demo", or for a suite's own command the name of its
    device tree (40's "dtres", "dterr"), of its shared folder less "-share"
    (40's "plan"), or "cmd"."""
    if rec["extras"] == "demo":
        return "demo"
    g = guest_script(rec["cmd"])
    if not g:
        if rec["dtb"] and stem(rec["dtb"], ".dtb"):
            return stem(rec["dtb"], ".dtb")
        if rec["share"] and stem(rec["share"], ".tar"):
            return re.sub(r"-share$", "", stem(rec["share"], ".tar")) or "share"
        return "cmd"
    script, args = g
    return args[0] if args and re.fullmatch(r"[a-z][a-z0-9-]*", args[0]) else os.path.basename(script)[:-3]


def job(rec, images, kargs, ident, staged):
    """STAGED: what the boot needs besides the flavour's images, as LAVA
    fetches it ({"url", "sha256sum"}): "dtb" its own device tree, "host"
    the tar archive of its /host."""
    board, secs, flavour = rec["board"], rec["timeout"], rec["flavour"]
    demo = rec["extras"] == "demo"
    host = staged.get("host")
    scenario = scenario_of(rec)
    # KTAP results (tests/guest/lib.sh) from a guest script; the exit status
    # of the demo and of a suite's own command
    ktap = not demo and guest_script(rec["cmd"]) is not None
    load = []
    if demo:
        # the demo writes its files to /host (boot.sh --share); here they
        # stay in the guest's /host, and its exit status is the result
        command = "mkdir -p /host && %s" % rec["cmd"]
    elif ktap:
        command = rec["cmd"]
    else:
        load = inline_command(rec["cmd"])
        command = "sh %s" % CMDFILE
    command = "%sSTART -; %s; %sEXIT $?" % (MARK, command, MARK)
    steps = [{"command": c, "name": "load-%d" % i} for i, c in enumerate(load, 1)]
    if host:
        # the report, then the stamp: files dated after it are the guest's
        steps += [{"command": c, "name": "host-load-%d" % i}
                  for i, c in enumerate(inline_command(REPORT, REPORTFILE), 1)]
        steps.append({"command": "touch %s" % STAMP, "name": "host-stamp"})
    # (LAVA's names take no "@")
    name = ident.replace("@", ".")
    # what the pipeline built for the flavour: IMAGES/FLAVOUR/BOARD/zImage,
    # IMAGES/FLAVOUR/BOARD/BOARD.dtb, IMAGES/FLAVOUR/initramfs.cpio.gz
    where = "%s/%s" % (images, flavour)
    # (a boot with --dtb: its own device tree, staged with the jobs)
    dtb = {"image_arg": "-dtb {dtb}"}
    dtb.update(staged.get("dtb") or {"url": "%s/%s/%s.dtb" % (where, board, board)})
    ramdisk = {"image_arg": "-initrd {ramdisk}", "url": "%s/initramfs.cpio.gz" % where}
    if host:
        # (LAVA unpacks the initramfs, adds the archive at /host and packs
        # it again, uncompressed: lava_dispatcher's AppendOverlays)
        ramdisk.update({"compression": "gz", "format": "cpio.newc",
                        "overlays": {"host": dict(host, format="tar", path="/host")}})
    actions = [
        {"deploy": {
            "to": "tmpfs",
            "timeout": {"minutes": 5},
            "images": {
                "kernel": {"image_arg": '-kernel {kernel} -append "%s"' % kargs,
                           "url": "%s/%s/zImage" % (where, board)},
                "dtb": dtb,
                "ramdisk": ramdisk,
            },
        }},
        {"boot": {
            "method": "qemu",
            "media": "tmpfs",
            "timeout": timeout_block(secs),
            "prompts": [PROMPT],
        }},
        {"test": {
            # (a minute, and one more for every 20 lines of a command typed in)
            "timeout": {"minutes": 1 + math.ceil(len(steps) / 20)},
            "interactive": [{
                "name": "start",
                "prompts": [PROMPT],
                # (on to the monitor as soon as the script starts)
                "script": steps +
                          [{"command": command, "name": scenario,
                            "successes": [{"message": START}],
                            "wait_for_prompt": False}],
            }],
        }},
    ]
    if ktap:
        actions.append({"test": {
            "timeout": timeout_block(secs),
            "monitors": [{
                "name": name,
                "start": KTAP_START,
                "end": KTAP_END,
                "pattern": KTAP_RESULT,
                "fixupdict": {"ok": "pass", "not ok": "fail"},
            }],
        }})
    status = [{
        "command": None,
        "name": "status",
        "successes": [{"message": EXIT + " 0"}],
        "failures": [{"message": EXIT + " [1-9][0-9]*"}],
    }]
    if host:
        # what the guest wrote to /host, on the console (after a failed
        # status too: an interactive failure without "exception" goes on)
        status.append({"command": "sh %s" % REPORTFILE, "name": "host-files",
                       "successes": [{"message": "S5P-LAVA-FILES [0-9]+"}]})
    actions.append({"test": {
        # (and a minute more to print the files the guest wrote to /host)
        "timeout": timeout_block((60 if ktap else secs) + (60 if host else 0)),
        "interactive": [{
            "name": "exit",
            "prompts": [PROMPT],
            "script": status,
        }],
    }})
    return {
        "device_type": "qemu",
        "job_name": "s5pv210-cma %s" % ident,
        "timeouts": {
            # the boot and the command within the suite's timeout, plus the
            # deploy's and the exit check's (and the report of /host's files)
            "job": {"minutes": math.ceil(2 * secs / 60) + 7 + (1 if host else 0)},
            "action": {"minutes": 5},
            # (a monitor waits this long for a line: a script's quiet
            # stretch must fit)
            "connection": timeout_block(secs),
        },
        "priority": "medium",
        "visibility": "public",
        "context": {
            "arch": "arm",
            "machine": board,
        },
        "metadata": {
            "s5p.suite": rec["suite"],
            "s5p.flavour": flavour,
            "s5p.board": board,
            "s5p.scenario": scenario,
            "s5p.command": rec["cmd"] if ktap or demo else
            "the suite's own command, %d lines (%s)" % (len(rec["cmd"].splitlines()), CMDFILE),
            "s5p.timeout-s": str(secs),
            **({"s5p.dtb": "the suite's own device tree (scripts/boot.sh --dtb), %s"
                % staged["dtb"]["url"]} if staged.get("dtb") else {}),
            **({"s5p.host": "the suite's --share folder: its files in /host (%s); "
                "the guest's, between S5P-LAVA-FILE lines on the console" % host["url"]}
               if host else {}),
            "s5p.source": "tests/suites/%s.sh (scripts/boot.sh, S5P_BOOT_RECORD)" % rec["suite"],
        },
        "actions": actions,
    }


def stage(src, outdir, name, files):
    """SRC copied to OUTDIR/files/NAME; what a job says to fetch it."""
    os.makedirs(os.path.join(outdir, "files"), exist_ok=True)
    data = open(src, "rb").read()
    with open(os.path.join(outdir, "files", name), "wb") as out:
        out.write(data)
    return {"url": "%s/%s" % (files, name), "sha256sum": hashlib.sha256(data).hexdigest()}


def write(path, outdir, images, top, files):
    os.makedirs(outdir, exist_ok=True)
    seen = {}
    for rec in records(path):
        # what needs a module built on the host is no job; a device tree of
        # the suite's own and a host folder's files are staged with the jobs
        extras = set(rec["extras"].split(",")) - {"-"}
        if extras - {"demo", "dtb", "share"} or ("demo" in extras and len(extras) > 1):
            continue
        if (not extras - {"dtb", "share"}) and not rec["own"] and not guest_script(rec["cmd"]):
            continue
        if ("dtb" in extras) != bool(rec["dtb"]) or ("share" in extras) != bool(rec["share"]):
            raise SystemExit("%s: a boot with %s but no %s in its record"
                             % (rec["suite"], rec["extras"], "device tree" if "dtb" in extras else "archive"))
        kargs = lava_kargs(rec["kargs"], board_output(top, rec["board"]))
        suite = rec["suite"] if rec["flavour"] == "default" else "%s@%s" % (rec["suite"], rec["flavour"])
        ident = "%s-%s-%s" % (suite, rec["board"], scenario_of(rec))
        seen[ident] = seen.get(ident, 0) + 1
        if seen[ident] > 1:
            ident = "%s-%d" % (ident, seen[ident])
        staged = {}
        if rec["dtb"]:
            staged["dtb"] = stage(rec["dtb"], outdir, ident + ".dtb", files)
        if rec["share"]:
            staged["host"] = stage(rec["share"], outdir, ident + "-host.tar", files)
        data = job(rec, images, kargs, ident, staged)
        f = os.path.join(outdir, ident + ".yaml")
        with open(f, "w") as out:
            out.write("# LAVA job written by scripts/lava-jobs.sh from %s\n"
                      "# (docs/lab.md); do not edit: generate again\n" % data["metadata"]["s5p.source"])
            yaml.safe_dump(data, out, sort_keys=False, width=1000)
        print("%s\t%s\t%s\t%s" % (f, suite, rec["board"], " ".join(rec["kargs"].split())))


def validate(files):
    from lava_common.schemas import validate as lava_validate
    bad = 0
    for f in files:
        try:
            with open(f) as fh:
                data = yaml.safe_load(fh)
            lava_validate(data, strict=True)
            print("ok - %s: valid LAVA job (lava_common.schemas, strict)" % os.path.basename(f))
        except Exception as e:       # voluptuous.Invalid, yaml errors
            bad += 1
            print("not ok - %s: not a valid LAVA job: %s" % (os.path.basename(f), str(e).replace("\n", " ")))
    return 1 if bad else 0


def kargs(f):
    data = yaml.safe_load(open(f))
    for a in data["actions"]:
        if "deploy" in a:
            arg = a["deploy"]["images"]["kernel"]["image_arg"]
            m = re.search(r'-append "([^"]*)"', arg)
            print(" ".join(m.group(1).split()) if m else "")
            return 0
    return 1


def results(f):
    data = yaml.safe_load(open(f)) or []
    for r in data:
        print("%s\t%s\t%s" % (r.get("result"), r.get("definition"), r.get("case")))
    return 0


def console_lines(f):
    """The console's lines in a job's log: lava-run's output or a LAVA
    server's log.yaml (records {"dt", "lvl", "msg"}, one a line, the
    console's with "lvl": "target"), or the console itself."""
    for line in open(f, errors="replace"):
        t = line.lstrip("- ")
        if t.startswith("{") and '"lvl"' in t:
            try:
                rec = yaml.safe_load(t)
            except Exception:
                continue
            if isinstance(rec, dict) and rec.get("lvl") == "target" and isinstance(rec.get("msg"), str):
                yield rec["msg"].rstrip("\r\n")
            continue
        yield line.rstrip("\r\n")


def host_files(log, outdir):
    """The files a --share job's guest wrote to /host (REPORT's output in
    the job's log), written to OUTDIR, one "ok"/"not ok" line each (its
    size checked against the guest's), then their count against the
    guest's."""
    name, size, b64, got, bad, said = None, 0, [], 0, 0, None
    for line in console_lines(log):
        m = re.fullmatch(r"%s (\d+) (.+)" % FILE_MARK, line)
        if m:
            name, size, b64 = m.group(2), int(m.group(1)), []
            continue
        if name is not None and line == "%s-END %s" % (FILE_MARK, name):
            try:
                data = gzip.decompress(base64.b64decode("".join(b64)))
            except Exception as e:
                data, err = None, str(e)
            path = os.path.normpath(os.path.join(outdir, name))
            if data is None or len(data) != size or not path.startswith(os.path.normpath(outdir) + os.sep):
                bad += 1
                print("not ok - %s: %s" % (name, "unreadable (%s)" % err if data is None else
                                           "%d bytes, the guest had %d" % (len(data), size)
                                           if len(data) != size else "outside the folder"))
            else:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                open(path, "wb").write(data)
                got += 1
                print("ok - %s: %d bytes" % (name, size))
            name = None
            continue
        if name is not None:
            # (base64's lines; a kernel message the console printed among
            # them is not one of them)
            if re.fullmatch(r"[A-Za-z0-9+/=]+", line.strip()):
                b64.append(line.strip())
            continue
        m = re.fullmatch(r"S5P-LAVA-FILES (\d+)", line)
        if m:
            said = int(m.group(1))
    print("# %d files from the guest's /host in %s (the guest reported %s)" % (got, outdir, said))
    return 0 if said is not None and got == said and not bad else 1


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "write" and len(sys.argv) == 7:
        write(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6])
    elif cmd == "validate":
        sys.exit(validate(sys.argv[2:]))
    elif cmd == "kargs" and len(sys.argv) == 3:
        sys.exit(kargs(sys.argv[2]))
    elif cmd == "results" and len(sys.argv) == 3:
        sys.exit(results(sys.argv[2]))
    elif cmd == "host-files" and len(sys.argv) == 4:
        sys.exit(host_files(sys.argv[2], sys.argv[3]))
    else:
        sys.exit(__doc__)
