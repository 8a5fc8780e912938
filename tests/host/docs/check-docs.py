#!/usr/bin/env python3
"""The facts README.md and docs/*.md state about the tree, checked against it.

    check-docs.py TOP [CHECK...]

Prints one TAP line per check ("ok - X" / "not ok - X", every finding as a
"# " line under it), always the same checks in the same order, so that
tests/suites/18-docs.sh has a fixed plan:

  scripts     every scripts/NAME cited exists
  paths       every path of the tree cited (boards/..., tools/..., a
              <placeholder> or * is any name) exists, and every link
              reaches its file and heading
  options     every --option given to a scripts/X.sh (or tests/run.sh) in
              a command of the docs is in that script's --help
  regions     the board defaults quoted (a "(device tree)" line of the
              boot log, a board region's size, the banks) are board.conf's
  parameters  docs/boot-parameters.md holds each kernel-parameters.txt
              entry of the series as the series writes it, nothing the
              series does not add, and the docs cite no other cma*= name
  history     no page cites an issue, a kernel patch by number, a working
              session or a branch (the series is reordered; history is in
              commit messages and bench/)
  figures     docs/figures.md gives each figure with its date, commit and
              machine, and no other page quotes a build, boot, test or
              cache figure of its own
"""
import glob
import os
import re
import shlex
import subprocess
import sys

TOP = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else '.')
ONLY = set(sys.argv[2:])
os.chdir(TOP)

DOCS = ['README.md'] + sorted(glob.glob('docs/*.md'))
TEXT = {}
for _d in DOCS:
    with open(_d, encoding='utf-8') as _f:
        TEXT[_d] = _f.read().splitlines()
# Where a path is taken from: the tree's top-level folders and files
TOPDIRS = ('boards', 'bench', 'docs', 'drivers', 'kernel-patches', 'qemu-patches',
           'rootfs', 'samples', 'scripts', 'tests', 'tools', '.ci')
TOPFILES = ('versions', 'Makefile', 'README.md')


def code_spans(line):
    return re.findall(r'`([^`]+)`', line)


def blocks(doc):
    """(line number, text) of each line of an indented or fenced code block"""
    out, fence, prev_blank = [], False, True
    for i, l in enumerate(TEXT[doc], 1):
        if l.lstrip().startswith('```'):
            fence = not fence
            continue
        if fence or (l.startswith('    ') and (prev_blank or (out and out[-1][0] == i - 1))):
            out.append((i, l))
        prev_blank = not l.strip()
    return out


def report(name, findings, what):
    findings = sorted(set(findings))
    if findings:
        print(f'not ok - {name}: {what} ({len(findings)} wrong)')
        for f in findings:
            print(f'#   {f}')
    else:
        print(f'ok - {name}: {what}')


PATH_RE = re.compile(r'(?<![\w./~$@-])((?:%s)/[\w.<>*+@/{},-]*|(?:%s)\b)' %
                     ('|'.join(re.escape(d) for d in TOPDIRS),
                      '|'.join(re.escape(f) for f in TOPFILES)))


def cited_paths():
    """(doc, line, path) of every tree path cited"""
    for doc in DOCS:
        for i, l in enumerate(TEXT[doc], 1):
            for m in PATH_RE.finditer(l):
                p = m.group(1).rstrip('.,:;)')
                # a bare top-level file name only when it is code
                if '/' not in p and f'`{p}`' not in l:
                    continue
                yield doc, i, p


# Paths of the other trees (Debian's linux-source-6.1 and qemu) that the
# docs name as theirs: files the patch series change are found in the
# patches; these are upstream's own.
UPSTREAM = ('scripts/checkpatch.pl', 'scripts/minikconf.py', 'scripts/oss-fuzz/',
            'tests/docker/', 'tests/qtest/', 'tools/include', 'tools/lib/', 'tools/testing/',
            'samples/v4l/', 'samples/kmemleak', 'drivers/misc/')
PATCHED = None


def in_series(p):
    global PATCHED
    if PATCHED is None:
        PATCHED = set()
        for f in glob.glob('kernel-patches/**/*.patch', recursive=True) + \
                glob.glob('qemu-patches/**/*.patch', recursive=True):
            with open(f, encoding='utf-8', errors='replace') as fh:
                for l in fh:
                    if l.startswith('+++ b/'):
                        PATCHED.add(l[6:].strip())
    return p in PATCHED


def exists(p):
    if re.search(r'[0-9a-f]{16}', p):          # a name in the cache, by its hash
        return True
    if in_series(p.rstrip('/')):
        return True
    if p.startswith(UPSTREAM):
        return True
    # a build product of the source next to it (tools/jpeg/jpeg-dec-seq, x.ko)
    base = re.sub(r'\.ko$', '', p.rstrip('/'))
    if glob.glob(base + '.c') or glob.glob(base + '.py'):
        return True
    if re.search(r'/build/', p) and os.path.isdir(p.split('/build/')[0]):
        return True
    if re.search(r'/\d+$', p) and glob.glob(p + '-*'):   # tests/suites/20: a suite
        return True
    g = re.sub(r'<[^>]*>', '*', p)
    g = re.sub(r'\{[^}]*\}', '*', g)
    g = g.replace('...', '*')
    g = re.sub(r'\b[A-Z][A-Z_]+\b', '*', g)    # NAME, NN: a placeholder
    g = g.rstrip('/')
    return bool(glob.glob(g)) or os.path.exists(g)


def check_scripts():
    bad = []
    for doc, i, p in cited_paths():
        if p.startswith('scripts/') and not exists(p):
            bad.append(f'{doc}:{i}: {p}')
    report('scripts', bad, 'every scripts/... the docs cite exists')


def check_paths():
    bad = []
    n = 0
    for doc, i, p in cited_paths():
        n += 1
        if not exists(p):
            bad.append(f'{doc}:{i}: {p}')
    # links: [text](#anchor) and [text](file.md#anchor) reach a heading
    for doc in DOCS:
        for i, l in enumerate(TEXT[doc], 1):
            for m in re.finditer(r'\]\(([^)#\s]*)(?:#([^)\s]*))?\)', l):
                target, anchor = m.group(1), m.group(2)
                if re.match(r'[a-z]+:', target):
                    continue
                path = os.path.normpath(os.path.join(os.path.dirname(doc), target)) if target else doc
                n += 1
                if not os.path.exists(path):
                    bad.append(f'{doc}:{i}: link to {target}: no such file')
                elif anchor and path.endswith('.md') and anchor not in slugs(path):
                    bad.append(f'{doc}:{i}: link to {target}#{anchor}: no such heading')
    # docs/X.md, "Heading": a section named by its heading's start
    for doc in DOCS:
        text = ' '.join(TEXT[doc])
        for m in re.finditer(r'((?:docs/)?[\w-]+\.md),? +(?:section +)?"([^"]{3,80})"', text):
            target = m.group(1) if m.group(1).startswith('docs/') or m.group(1) == 'README.md' \
                else 'docs/' + m.group(1)
            if target not in TEXT:
                continue
            want = ' '.join(m.group(2).split()).lower()
            heads = [' '.join(h.split()).lower().replace('`', '') for h in headings(target)]
            n += 1
            if not any(h.startswith(want.replace('`', '')) for h in heads):
                bad.append(f'{doc}: {target}, "{m.group(2)}": no such section')
    report('paths', bad, f'every path of the tree the docs cite exists, every link reaches its heading ({n} citations)')


def headings(path):
    out, fence = [], False
    for l in TEXT[path]:
        if l.startswith('```'):
            fence = not fence
        m = re.match(r'^#{1,6} (.*)', l)
        if m and not fence:
            out.append(m.group(1).strip())
    return out


def slugs(path):
    out = set()
    with open(path, encoding='utf-8') as f:
        fence = False
        for l in f:
            if l.startswith('```'):
                fence = not fence
            m = re.match(r'^#{1,6} (.*)', l)
            if m and not fence:
                t = m.group(1).strip().lower()
                t = re.sub(r'[^\w\- ]', '', t)
                out.add(t.replace(' ', '-'))
    return out


HELP = {}


def help_of(script):
    if script not in HELP:
        try:
            r = subprocess.run([script, '--help'], capture_output=True, text=True, timeout=30,
                               stdin=subprocess.DEVNULL)
            HELP[script] = r.stdout + r.stderr
        except (OSError, subprocess.TimeoutExpired) as e:
            HELP[script] = f'({e})'
    return HELP[script]


def commands():
    """(doc, line, command) of each shell command in the docs: code block
    lines joined across backslashes and open quotes, and inline code"""
    for doc in DOCS:
        acc, start = '', 0
        for i, l in blocks(doc):
            l = l.strip()
            if not acc:
                start = i
            acc = acc + ' ' + l if acc else l
            if acc.endswith('\\'):
                acc = acc[:-1]
                continue
            try:
                shlex.split(acc, comments=True)
            except ValueError:             # an open quote: the next line goes on
                continue
            yield doc, start, acc
            acc = ''
        if acc:
            yield doc, start, acc
        for i, l in enumerate(TEXT[doc], 1):
            for c in code_spans(l):
                if 'scripts/' in c or 'tests/run.sh' in c:
                    yield doc, i, c


SCRIPT_RE = re.compile(r'(?:^|/)((?:scripts/[\w-]+\.sh)|tests/run\.sh)$')


def check_options():
    bad, n = [], 0
    for doc, i, cmd in commands():
        try:
            lex = shlex.shlex(cmd, posix=True, punctuation_chars=';&|()')
            lex.whitespace_split = True
            lex.commenters = '#'
            toks = list(lex)
        except ValueError:
            continue
        script = None
        for t in toks:
            m = SCRIPT_RE.search(t)
            if m:
                script = m.group(1)
                continue
            if t in (';', '|', '&&', '||', '&', '(', ')', '|&'):
                script = None
                continue
            if script and re.match(r'--[a-z][\w-]*', t):
                opt = re.match(r'--[a-z][\w-]*', t).group(0)
                n += 1
                if not os.path.exists(script):
                    continue                # the scripts check says it
                if not re.search(re.escape(opt) + r'(?![\w-])', help_of(script)):
                    bad.append(f'{doc}:{i}: {script} {opt} (not in its --help)')
    report('options', bad, f'every --option given to a script in the docs is in its --help ({n} uses)')


def board_conf(board):
    conf = {}
    with open(f'boards/{board}/board.conf', encoding='utf-8') as f:
        for l in f:
            m = re.match(r'^(BOARD_\w+)="?([^"]*)"?\s*$', l.rstrip('\n'))
            if m:
                conf[m.group(1)] = m.group(2)
    return conf


def memparse(s):
    m = re.match(r'(0x[0-9a-fA-F]+|\d+)([KMG]?)$', s)
    v = int(m.group(1), 0)
    return v << {'': 0, 'K': 10, 'M': 20, 'G': 30}[m.group(2)]


def check_regions():
    boards = sorted(os.path.basename(os.path.dirname(p)) for p in glob.glob('boards/*/board.conf'))
    confs = {b: board_conf(b) for b in boards}
    sizes, bases, banks, regs = {}, {}, {}, {}
    for b, c in confs.items():
        for r in c.get('BOARD_CMA', '').split(';'):
            m = re.match(r'([\w-]+)=(\w+)(?:@(0x[0-9a-f]+))?', r)
            if m:
                sizes.setdefault(m.group(1), set()).add(memparse(m.group(2)))
                if m.group(3):
                    bases.setdefault(m.group(1), set()).add(int(m.group(3), 16))
        regs[b] = {}
        for r in c.get('BOARD_CMA', '').split(';'):
            m = re.match(r'([\w-]+)=(\w+)(?:@(0x[0-9a-f]+))?(?:/(\w+))?', r)
            if m:
                regs[b][m.group(1)] = (memparse(m.group(2)), int(m.group(3) or '0', 16),
                                       memparse(m.group(4)) if m.group(4) else 4096)
        bk = c.get('BOARD_BANKS', '').split()
        banks[b] = {(int(bk[j], 16), int(bk[j + 1], 16)) for j in range(0, len(bk) - 1, 2)}
    bad, n = [], 0
    unit = {'KiB': 10, 'MiB': 20, 'GiB': 30}
    for doc in DOCS:
        for i, l in enumerate(TEXT[doc], 1):
            # the boot log's line of the defaults
            if '(device tree)' in l:
                for par, key in (('cma', 'BOARD_CMA'), ('cma_map', 'BOARD_CMA_MAP'),
                                 ('cma_movable', 'BOARD_CMA_MOVABLE')):
                    m = re.search(r'\b%s=(\S*)\s+\(device tree\)' % par, l)
                    if m:
                        n += 1
                        v = m.group(1)
                        if not any(c.get(key) == v or (v.endswith('...') and
                                                       c.get(key, '').startswith(v[:-3]))
                                   for c in confs.values()):
                            bad.append(f'{doc}:{i}: {par}={v} is no board\'s {key}')
            # `cam` ... 24 MiB ... at 0x4e000000: a board region quoted
            for m in re.finditer(r'`(%s)`(?:,| region| is| \()\s*(?:(\d+) (KiB|MiB|GiB)(?! aligned| of))?(?:,? at (0x[0-9a-f]+))?'
                                 % '|'.join(re.escape(r) for r in sizes), l):
                if m.group(2):
                    n += 1
                    if int(m.group(2)) << unit[m.group(3)] not in sizes[m.group(1)]:
                        bad.append(f'{doc}:{i}: `{m.group(1)}` {m.group(2)} {m.group(3)} (board.conf: '
                                   + ', '.join(f'{s >> 20} MiB' for s in sorted(sizes[m.group(1)])) + ')')
                if m.group(4):
                    n += 1
                    if int(m.group(4), 16) not in bases.get(m.group(1), ()):
                        bad.append(f'{doc}:{i}: `{m.group(1)}` at {m.group(4)} (no board places it there)')
            # Goni 80 MiB at 0x30000000, 256 MiB at ...: the banks
            for b in boards:
                name = confs[b].get('BOARD_MODEL', b)
                for m in re.finditer(r'\b%s\b((?:,? (?:and )?\d+ MiB at 0x[0-9a-f]+)+)' % re.escape(name), l):
                    for s, a in re.findall(r'(\d+) MiB at (0x[0-9a-f]+)', m.group(1)):
                        n += 1
                        if (int(a, 16), int(s) << 20) not in banks[b]:
                            bad.append(f'{doc}:{i}: {name} {s} MiB at {a} is no bank of boards/{b}/board.conf')
            # tables: | goni | `cam` | 0x4e000000 | 24 MiB | 4 KiB | (regions),
            # | goni | 1 (DMC1) | 0x40000000 | 256 MiB | ... (banks)
            cells = [c.strip() for c in l.strip().strip('|').split('|')] if l.startswith('|') else []
            b = cells[0] if cells and cells[0] in confs else None
            if b and len(cells) >= 4:
                m = re.fullmatch(r'`([\w-]+)`', cells[1])
                if m and m.group(1) in regs[b]:
                    size, base, align = regs[b][m.group(1)]
                    a = re.search(r'0x[0-9a-f]+', cells[2])
                    sz = re.fullmatch(r'(\d+) (KiB|MiB)', cells[3])
                    n += 1
                    if not a or int(a.group(0), 16) != base:
                        bad.append(f'{doc}:{i}: {b} `{m.group(1)}` base {cells[2]} (board.conf: {base:#x})')
                    if not sz or int(sz.group(1)) << unit[sz.group(2)] != size:
                        bad.append(f'{doc}:{i}: {b} `{m.group(1)}` size {cells[3]} (board.conf: {size >> 10} KiB)')
                    al = re.fullmatch(r'(\d+) (KiB|MiB)', cells[4]) if len(cells) > 4 else None
                    if al and int(al.group(1)) << unit[al.group(2)] != align:
                        bad.append(f'{doc}:{i}: {b} `{m.group(1)}` alignment {cells[4]} (board.conf: {align >> 10} KiB)')
                elif re.fullmatch(r'\d \(DMC\d\)', cells[1]):
                    a = re.fullmatch(r'0x[0-9a-f]+', cells[2])
                    sz = re.fullmatch(r'(\d+) MiB', cells[3])
                    n += 1
                    if not a or not sz or (int(a.group(0), 16), int(sz.group(1)) << 20) not in banks[b]:
                        bad.append(f'{doc}:{i}: {b} bank {cells[2]} {cells[3]} is no bank of boards/{b}/board.conf')
                # codec-a 0x4f800000 in a board's row: that region's base
                for rn, ra in re.findall(r'\b([\w-]+) (0x[0-9a-f]{8})\b', l):
                    if rn in regs[b]:
                        n += 1
                        if int(ra, 16) != regs[b][rn][1]:
                            bad.append(f'{doc}:{i}: {b} {rn} at {ra} (board.conf: {regs[b][rn][1]:#x})')
    report('regions', bad, f'the board facts the docs quote are board.conf\'s ({n} quoted)')


def series_patches():
    """the kernel series' patches in the order its series files give (the
    top-level kernel-patches/series, then any series file below it, each
    naming patches relative to its folder), then any patch none names"""
    pdir = 'kernel-patches'
    order = []
    sfiles = sorted(glob.glob(f'{pdir}/**/series', recursive=True),
                    key=lambda f: (f != f'{pdir}/series', f))
    for sfile in sfiles:
        base = os.path.dirname(sfile)
        with open(sfile, encoding='utf-8') as f:
            for l in f:
                l = l.split('#', 1)[0].strip()
                if l:
                    order.append(os.path.normpath(os.path.join(base, l.split()[0])))
    rest = sorted(set(glob.glob(f'{pdir}/**/*.patch', recursive=True)) - set(order))
    seen, out = set(), []
    for p in order + rest:
        if p not in seen and os.path.exists(p) and not os.path.basename(p).startswith('0000-'):
            seen.add(p)
            out.append(p)
    return out


def series_runs():
    """(patch, old lines, new lines, context line before) of each run of
    changed lines in the series' hunks of kernel-parameters.txt"""
    kp = 'Documentation/admin-guide/kernel-parameters.txt'
    runs = []
    for p in series_patches():
        with open(p, encoding='utf-8', errors='replace') as f:
            lines = f.read().split('\n')
        infile, hunks = False, []
        for l in lines:
            if l.startswith('diff --git '):
                infile = l.endswith(' b/' + kp)
                continue
            if not infile:
                continue
            if l.startswith('@@'):
                hunks.append([])
            elif hunks and l[:1] in (' ', '+', '-') and not l.startswith(('+++', '---')):
                hunks[-1].append(l)
        for h in hunks:
            j = 0
            while j < len(h):
                if h[j][0] == ' ':
                    j += 1
                    continue
                k = j
                while k < len(h) and h[k][0] != ' ':
                    k += 1
                run = h[j:k]
                runs.append((p, [x[1:] for x in run if x[0] == '-'], [x[1:] for x in run if x[0] == '+'],
                             h[j - 1][1:] if j > 0 else None))
                j = k
    return runs


def apply_run(entries, run):
    """apply one run to the entries; False when it does not apply yet"""
    _, old, new, before = run
    if old:
        hits = [e for e, t in entries.items() if '\n'.join(old) in t]
        if len(hits) != 1:
            return False
        e = hits[0]
        entries[e] = entries[e].replace('\n'.join(old), '\n'.join(new), 1)
        return True
    if new and re.match(r'^\t\S', new[0]):
        cur = None
        for x in new:
            m = re.match(r'^\t([^\s=]+=?)', x)
            if m:
                cur = m.group(1)
                entries[cur] = x
            elif cur is not None and x.strip():
                entries[cur] += '\n' + x
        return True
    hits = [e for e, t in entries.items() if before is not None and before in t.split('\n')]
    if len(hits) != 1:
        return False
    e = hits[0]
    entries[e] = entries[e].replace(before, '\n'.join([before] + new), 1)
    return True


def series_entries():
    """{name: entry text} of the kernel-parameters.txt entries the series
    adds, as the whole series leaves them, and the errors.  A run that
    does not apply yet (topic series in another order) is tried again
    after the others, until none applies."""
    entries, pending = {}, series_runs()
    while pending:
        left = [r for r in pending if not apply_run(entries, r)]
        if len(left) == len(pending):
            break
        pending = left
    errors = [f'{r[0]}: a hunk of kernel-parameters.txt applies to no entry of the series: '
              f'{(r[1] or r[2] or [""])[0].strip()!r}' for r in pending]
    return entries, errors


def norm(text):
    return [' '.join(l.split()) for l in text.split('\n') if l.strip()]


def check_parameters():
    page = 'docs/boot-parameters.md'
    entries, bad = series_entries()
    if not entries:
        bad.append('no kernel-parameters.txt entry found in the series (kernel-patches/)')
    if page not in TEXT:
        bad.append(f'{page} is missing')
        report('parameters', bad, 'the boot parameters reference is the series\' kernel-parameters.txt')
        return
    doc = norm('\n'.join(l for _, l in blocks(page)))
    for name, text in entries.items():
        want = norm(text)
        ok = any(doc[k:k + len(want)] == want for k in range(len(doc)))
        if not ok:
            bad.append(f'{page}: the series\' entry {name} is not there as the series writes it: '
                       + ' / '.join(want[:2]))
    # the page's entries: a code block line "NAME=..." at its start
    names = set(entries) | {n.rstrip('=') for n in entries}
    for i, l in blocks(page):
        m = re.match(r'^    ([a-z_][\w.]*=?)\S*\s*$', l)
        if m and l[4:5] != ' ' and re.match(r'^\s+\[', TEXT[page][i] if i < len(TEXT[page]) else ''):
            if m.group(1) not in names and m.group(1).rstrip('=') not in names \
                    and '(mainline)' not in TEXT[page][i]:
                bad.append(f'{page}:{i}: {m.group(1)} is no entry of the series (mark a mainline one "(mainline)")')
    # every cma*= / bigphysarea= the docs cite is one the series or 6.1 has
    known = {n.rstrip('=') for n in entries} | {'cma', 'cma_pernuma'}
    for d in DOCS:
        for i, l in enumerate(TEXT[d], 1):
            for m in re.finditer(r'(?<![\w./-])(cma_[a-z_]+|bigphysarea)=', l):
                if m.group(1) not in known:
                    bad.append(f'{d}:{i}: {m.group(1)}= is no boot parameter of the series')
    report('parameters', bad, f'{page} has the series\' {len(entries)} kernel-parameters.txt entries, '
           'and the docs cite no other')


FIG_PAGE = 'docs/figures.md'
DATE_RE = re.compile(r'\b20\d\d-\d\d-\d\d\b')
COMMIT_RE = re.compile(r'\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b')
# a figure the project measures: a duration or a size in GB
LIMIT_RE = re.compile(r'\b(more than|less than|at most|at least|up to|to|plus|timeout|limit|every|default|within|after|for|over)\s+(about\s+)?$')
MEASURE_RE = re.compile(r'\b(took|takes|take|costs?|median|wall|CPU|measured|ran in|runs in|spent|about)\b')
FIGURE_RE = re.compile(r'(?<![/.\d])\b\d+(?:\.\d+)?\s?(?:min|minutes|hours?|GB|s|seconds)\b')


def check_figures():
    bad = []
    rows = 0
    if FIG_PAGE not in TEXT:
        bad.append(f'{FIG_PAGE} is missing')
    else:
        git = os.path.exists('.git')
        for i, l in enumerate(TEXT[FIG_PAGE], 1):
            if not l.startswith('|') or set(l) <= set('|- :') or l.startswith('| figure'):
                continue
            cells = [c.strip() for c in l.strip('|').split('|')]
            if len(cells) != 6:
                bad.append(f'{FIG_PAGE}:{i}: a row of 6 cells (figure, value, command, date, commit, machine)')
                continue
            rows += 1
            _, value, cmd, date, commit, machine = cells
            if not re.fullmatch(r'20\d\d-\d\d-\d\d', date):
                bad.append(f'{FIG_PAGE}:{i}: date {date!r} is no YYYY-MM-DD')
            c = commit.strip('`')
            if not re.fullmatch(r'[0-9a-f]{7,40}', c):
                bad.append(f'{FIG_PAGE}:{i}: commit {commit!r} is no commit id')
            elif git and subprocess.run(['git', 'cat-file', '-e', c + '^{commit}'],
                                        capture_output=True).returncode != 0:
                bad.append(f'{FIG_PAGE}:{i}: commit {c} is not in the history')
            if not cmd or not machine or not value:
                bad.append(f'{FIG_PAGE}:{i}: a figure needs its value, command and machine')
        if not rows:
            bad.append(f'{FIG_PAGE}: no figure rows')
    for d in DOCS:
        if d == FIG_PAGE:
            continue
        fence = False
        lines = TEXT[d]
        dated_section = False
        for i, l in enumerate(lines, 1):
            if l.startswith('#'):
                dated_section = bool(DATE_RE.search(l) and COMMIT_RE.search(l))
            if l.lstrip().startswith('```'):
                fence = not fence
            if fence or l.startswith('    ') or 'figures.md' in l or dated_section:
                continue
            # a page's own measurements carry their date and commit, in their
            # paragraph or their section's heading: "(2026-12-07, at abc1234, ..."
            a = i - 1
            while a > 0 and lines[a - 1].strip():
                a -= 1
            b = i
            while b < len(lines) and lines[b].strip():
                b += 1
            para = ' '.join(lines[a:b])
            # a table's date and commit may be in its caption, the
            # paragraph right before it
            if l.startswith('|') and a >= 2:
                c = a - 1
                while c > 0 and lines[c - 1].strip():
                    c -= 1
                para += ' ' + ' '.join(lines[c:a])
            if DATE_RE.search(para) and COMMIT_RE.search(para):
                continue
            for m in FIGURE_RE.finditer(re.sub(r'`[^`]*`', '', l)):
                # seconds: a figure when the line measures (a timeout,
                # a run's length asked for, is none)
                if re.search(r'\d ?(s|seconds)$', m.group(0)) and not (
                        l.startswith('|') or MEASURE_RE.search(l)):
                    continue
                # a limit or a setting, not a result: "more than 2 minutes"
                if LIMIT_RE.search(re.sub(r'`[^`]*`', '', l)[:m.start()][-24:]):
                    continue
                bad.append(f'{d}:{i}: "{m.group(0)}": a measured figure goes in {FIG_PAGE}, once')
    report('figures', bad, f'{FIG_PAGE} dates each of its {rows} figures, no page has one of its own')


# The project's own history in a page: its issues, its kernel patches by
# number (the series is reordered; a patch is named by its subject), its
# working sessions and branches
HISTORY_RE = re.compile(r'\b[Ii]ssues?\s+\d+|\b(?:[Kk]ernel\s+)?[Pp]atch(?:es)?\s+\d{1,4}\b(?!\s*(?:of|to) (?:the )?QEMU)'
                        r'|\b(?:first|second|third|fourth|fifth|sixth|this|that|a later|an earlier) session\b'
                        r'|\bbranch `[\w-]+`|\b(?:the )?other engineers\b')


def check_history():
    bad = []
    for d in DOCS:
        lines = TEXT[d]
        for i, l in enumerate(lines, 1):
            if 'qemu-patches' in l or 'QEMU patch' in l:
                continue
            # with the next line's start: "kernel patches\n41-42"
            both = l + ' ' + (lines[i].strip() if i < len(lines) else '')
            for m in HISTORY_RE.finditer(both):
                if m.start() >= len(l):
                    continue
                bad.append(f'{d}:{i}: "{m.group(0)}": history goes to commit messages and bench/')
    report('history', bad, 'no page tells the project\'s history (issues, kernel patch numbers, sessions, branches)')


CHECKS = [('scripts', check_scripts), ('paths', check_paths), ('options', check_options),
          ('regions', check_regions), ('parameters', check_parameters), ('figures', check_figures),
          ('history', check_history)]
for _name, _fn in CHECKS:
    if not ONLY or _name in ONLY:
        try:
            _fn()
        except Exception as e:      # a checker bug is a failure, not a crash
            print(f'not ok - {_name}: the check ran ({type(e).__name__}: {e})')
