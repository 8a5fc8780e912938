#!/usr/bin/python3
"""LAVA job definitions for the project's guest suites (scripts/lava-jobs.sh).

Run with Debian's /usr/bin/python3: the schema check imports lava_common
(package lava-common), which Debian installs for its own Python only.

  lava_jobs.py write RECORDS OUTDIR IMAGES   one job a recorded boot
  lava_jobs.py validate JOB...               LAVA's job schema, TAP lines
  lava_jobs.py kargs JOB                     the kernel command line of a job
  lava_jobs.py results RESULTS.yaml          lava-run's results, one a line

RECORDS holds a line a boot, its fields base64 and tab-separated: SUITE
boot BOARD FLAVOUR TIMEOUT KERNEL-ARGS COMMAND EXTRAS (scripts/boot.sh's
S5P_BOOT_RECORD, decoded by scripts/lava-jobs.sh) OWN.  A job is written for a
boot that needs nothing but the flavour's kernel, the board's device tree
and the flavour's initramfs: a guest script (/tests/NAME.sh ARGS: its KTAP
results, then its exit status), the demo or a suite's own command (its
exit status).  IMAGES/FLAVOUR/BOARD/zImage, IMAGES/FLAVOUR/BOARD/BOARD.dtb
and IMAGES/FLAVOUR/initramfs.cpio.gz are what a job deploys.
"""
import base64
import gzip
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
    BOARD, FLAVOUR, TIMEOUT, KERNEL-ARGS, COMMAND, EXTRAS, then "1" if the
    suite's own commands may be jobs ("0": its header says "# s5p-lava:
    scripts (WHY)")."""
    for line in open(path):
        w = [base64.b64decode(x).decode() for x in line.rstrip("\n").rstrip("\t").split("\t") if line.strip()]
        if len(w) != 9 or w[1] != "boot":
            continue
        yield dict(suite=w[0], board=w[2], flavour=w[3], timeout=int(w[4]),
                   kargs=w[5], cmd=w[6], extras=w[7], own=w[8] == "1")


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


def inline_command(cmd):
    """The shell lines that write CMD to CMDFILE on the guest."""
    b = base64.b64encode(gzip.compress(cmd.encode(), mtime=0)).decode()
    lines = ["rm -f %s.b64" % CMDFILE]
    lines += ["echo %s >>%s.b64" % (b[i:i + CHUNK], CMDFILE) for i in range(0, len(b), CHUNK)]
    lines.append("base64 -d %s.b64 | gunzip >%s" % (CMDFILE, CMDFILE))
    return lines


def scenario_of(rec):
    """What names the boot in its suite: the guest script's first argument
    (or the script), "demo", or for a suite's own command "cmd"."""
    if rec["extras"] == "demo":
        return "demo"
    g = guest_script(rec["cmd"])
    if not g:
        return "cmd"
    script, args = g
    return args[0] if args and re.fullmatch(r"[a-z][a-z0-9-]*", args[0]) else os.path.basename(script)[:-3]


def job(rec, images, kargs, ident):
    board, secs, flavour = rec["board"], rec["timeout"], rec["flavour"]
    demo = rec["extras"] == "demo"
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
    # (LAVA's names take no "@")
    name = ident.replace("@", ".")
    # what the pipeline built for the flavour: IMAGES/FLAVOUR/BOARD/zImage,
    # IMAGES/FLAVOUR/BOARD/BOARD.dtb, IMAGES/FLAVOUR/initramfs.cpio.gz
    where = "%s/%s" % (images, flavour)
    actions = [
        {"deploy": {
            "to": "tmpfs",
            "timeout": {"minutes": 5},
            "images": {
                "kernel": {"image_arg": '-kernel {kernel} -append "%s"' % kargs,
                           "url": "%s/%s/zImage" % (where, board)},
                "dtb": {"image_arg": "-dtb {dtb}",
                        "url": "%s/%s/%s.dtb" % (where, board, board)},
                "ramdisk": {"image_arg": "-initrd {ramdisk}",
                            "url": "%s/initramfs.cpio.gz" % where},
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
            "timeout": {"minutes": 1 + math.ceil(len(load) / 20)},
            "interactive": [{
                "name": "start",
                "prompts": [PROMPT],
                # (on to the monitor as soon as the script starts)
                "script": [{"command": c, "name": "load-%d" % i} for i, c in enumerate(load, 1)] +
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
    actions.append({"test": {
        "timeout": timeout_block(60 if ktap else secs),
        "interactive": [{
            "name": "exit",
            "prompts": [PROMPT],
            "script": [{
                "command": None,
                "name": "status",
                "successes": [{"message": EXIT + " 0"}],
                "failures": [{"message": EXIT + " [1-9][0-9]*"}],
            }],
        }],
    }})
    return {
        "device_type": "qemu",
        "job_name": "s5pv210-cma %s" % ident,
        "timeouts": {
            # the boot and the command within the suite's timeout, plus the
            # deploy's and the exit check's
            "job": {"minutes": math.ceil(2 * secs / 60) + 7},
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
            "s5p.source": "tests/suites/%s.sh (scripts/boot.sh, S5P_BOOT_RECORD)" % rec["suite"],
        },
        "actions": actions,
    }


def write(path, outdir, images, top):
    os.makedirs(outdir, exist_ok=True)
    seen = {}
    for rec in records(path):
        # what needs more than the flavour's kernel, the board's device tree
        # and the initramfs (a host folder, a module built on the host, a
        # device tree of the suite's own) is no job
        if rec["extras"] not in ("-", "demo"):
            continue
        if rec["extras"] == "-" and not rec["own"] and not guest_script(rec["cmd"]):
            continue
        kargs = lava_kargs(rec["kargs"], board_output(top, rec["board"]))
        suite = rec["suite"] if rec["flavour"] == "default" else "%s@%s" % (rec["suite"], rec["flavour"])
        ident = "%s-%s-%s" % (suite, rec["board"], scenario_of(rec))
        seen[ident] = seen.get(ident, 0) + 1
        if seen[ident] > 1:
            ident = "%s-%d" % (ident, seen[ident])
        data = job(rec, images, kargs, ident)
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


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "write" and len(sys.argv) == 6:
        write(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])
    elif cmd == "validate":
        sys.exit(validate(sys.argv[2:]))
    elif cmd == "kargs" and len(sys.argv) == 3:
        sys.exit(kargs(sys.argv[2]))
    elif cmd == "results" and len(sys.argv) == 3:
        sys.exit(results(sys.argv[2]))
    else:
        sys.exit(__doc__)
