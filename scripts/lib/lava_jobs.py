#!/usr/bin/python3
"""LAVA job definitions for the project's guest suites (scripts/lava-jobs.sh).

Run with Debian's /usr/bin/python3: the schema check imports lava_common
(package lava-common), which Debian installs for its own Python only.

  lava_jobs.py write RECORDS OUTDIR IMAGES   one job a recorded boot
  lava_jobs.py validate JOB...               LAVA's job schema, TAP lines
  lava_jobs.py kargs JOB                     the kernel command line of a job
  lava_jobs.py results RESULTS.yaml          lava-run's results, one a line

RECORDS holds lines "SUITE boot BOARD FLAVOUR TIMEOUT KERNEL-ARGS COMMAND
EXTRAS" (scripts/boot.sh's S5P_BOOT_RECORD, shell words).  A job is written
for a boot whose command runs a guest script (/tests/NAME.sh ARGS, or the
demo) and that needs nothing but the board's kernel, device tree and
initramfs.
"""
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
    for line in open(path):
        line = line.rstrip("\n")
        if not line or "$'" in line:      # a command of several lines: no guest script
            continue
        w = shlex.split(line)
        if len(w) != 8 or w[1] != "boot":
            continue
        yield dict(suite=w[0], board=w[2], flavour=w[3], timeout=int(w[4]),
                   kargs=w[5], cmd=w[6], extras=w[7])


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


def job(rec, images, kargs):
    board, secs = rec["board"], rec["timeout"]
    demo = rec["extras"] == "demo"
    if demo:
        scenario = "demo"
        # the demo writes its files to /host (boot.sh --share); here they
        # stay in the guest's /host, and its exit status is the result
        command = "mkdir -p /host && %s" % rec["cmd"]
    else:
        script, args = guest_script(rec["cmd"])
        name = os.path.basename(script)[:-3]
        scenario = args[0] if args and re.fullmatch(r"[a-z][a-z0-9-]*", args[0]) else name
        command = rec["cmd"]
    command = "%sSTART -; %s; %sEXIT $?" % (MARK, command, MARK)
    ident = "%s-%s-%s" % (rec["suite"], board, scenario)
    actions = [
        {"deploy": {
            "to": "tmpfs",
            "timeout": {"minutes": 5},
            "images": {
                "kernel": {"image_arg": '-kernel {kernel} -append "%s"' % kargs,
                           "url": "%s/%s/zImage" % (images, board)},
                "dtb": {"image_arg": "-dtb {dtb}",
                        "url": "%s/%s/%s.dtb" % (images, board, board)},
                "ramdisk": {"image_arg": "-initrd {ramdisk}",
                            "url": "%s/initramfs.cpio.gz" % images},
            },
        }},
        {"boot": {
            "method": "qemu",
            "media": "tmpfs",
            "timeout": timeout_block(secs),
            "prompts": [PROMPT],
        }},
        {"test": {
            "timeout": {"minutes": 1},
            "interactive": [{
                "name": "start",
                "prompts": [PROMPT],
                # (on to the monitor as soon as the script starts)
                "script": [{"command": command, "name": scenario,
                            "successes": [{"message": START}],
                            "wait_for_prompt": False}],
            }],
        }},
    ]
    if not demo:
        actions.append({"test": {
            "timeout": timeout_block(secs),
            "monitors": [{
                "name": ident,
                "start": KTAP_START,
                "end": KTAP_END,
                "pattern": KTAP_RESULT,
                "fixupdict": {"ok": "pass", "not ok": "fail"},
            }],
        }})
    actions.append({"test": {
        "timeout": timeout_block(secs if demo else 60),
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
    return ident, {
        "device_type": "qemu",
        "job_name": "s5pv210-cma %s %s %s" % (rec["suite"], board, scenario),
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
            "s5p.board": board,
            "s5p.scenario": scenario,
            "s5p.command": rec["cmd"],
            "s5p.timeout-s": str(secs),
            "s5p.source": "tests/suites/%s.sh (scripts/boot.sh, S5P_BOOT_RECORD)" % rec["suite"],
        },
        "actions": actions,
    }


def write(path, outdir, images, top):
    os.makedirs(outdir, exist_ok=True)
    seen = {}
    for rec in records(path):
        if rec["flavour"] != "default":
            continue
        if rec["extras"] == "-":
            if not guest_script(rec["cmd"]):
                continue
        elif rec["extras"] != "demo":
            continue
        kargs = lava_kargs(rec["kargs"], board_output(top, rec["board"]))
        ident, data = job(rec, images, kargs)
        seen[ident] = seen.get(ident, 0) + 1
        if seen[ident] > 1:
            data["job_name"] += " (%d)" % seen[ident]
            ident = "%s-%d" % (ident, seen[ident])
        f = os.path.join(outdir, ident + ".yaml")
        with open(f, "w") as out:
            out.write("# LAVA job written by scripts/lava-jobs.sh from %s\n"
                      "# (docs/lab.md); do not edit: generate again\n" % data["metadata"]["s5p.source"])
            yaml.safe_dump(data, out, sort_keys=False, width=1000)
        print("%s\t%s\t%s\t%s" % (f, rec["suite"], rec["board"], " ".join(rec["kargs"].split())))


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
