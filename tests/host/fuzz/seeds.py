#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Seed corpus for fuzz-cma: every cma= / cma_map= / cma_movable= example the project has.

    seeds.py OUTDIR FILE...

Writes one fuzz-cma input per example into OUTDIR (named by its hash, so
the same example found twice is one file) and prints how many it found
in each file.  What counts as an example:

- text (Markdown, reStructuredText, kernel-parameters.txt, shell, the
  cover letter): each line's `cma=VALUE`, `cma_map=VALUE` and
  `cma_movable=VALUE` words (a
  value ends at white space, a quote, a backtick or '|'); the words of one
  line make one input, so a table row or an --append gives both at once;
- traces (*.trace): their `cma STRING` / `cma_map STRING` lines;
- C: every string (adjacent literals joined, string macros expanded) that
  holds '=' becomes a cma= input and a cma_map= input; an initializer
  { "compatible", CMA, MAP } (the board defaults) becomes one input with
  both;
- patches: the lines a patch adds, each by the kind of its file.

fuzz-cma's input format is in fuzz-cma.c: one parameter a line.
"""
import hashlib
import os
import re
import sys

WORD = re.compile(r'(?<![A-Za-z0-9_])(cma|cma_map|cma_movable)=([^\s`\'"|]*)')
TRACE = re.compile(r'^(cma|cma_map) (\S.*)$')
C_TOKEN = re.compile(r'"((?:[^"\\\n]|\\.)*)"|/\*.*?\*/|//[^\n]*|'
                     r'^[ \t]*#[ \t]*define[ \t]+(\w+)(?:[ \t]|\\\n)+((?:"(?:[^"\\\n]|\\.)*"[ \t]*(?:\\\n[ \t]*)?)+)$|'
                     r'^[ \t]*#(?:\\\n|[^\n])*|([A-Za-z_]\w*)|(\S)', re.S | re.M)
C_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def text_seeds(lines):
    for line in lines:
        words = ['%s=%s' % m.groups() for m in WORD.finditer(line)]
        if words:
            yield '\n'.join(words) + '\n'


def trace_seeds(lines):
    words = []
    for line in lines:
        m = TRACE.match(line.strip())
        if m:
            words.append('%s=%s' % m.groups())
    if words:
        yield '\n'.join(words) + '\n'


def c_unescape(s):
    return re.sub(r'\\(.)', lambda m: {'n': '\n', 't': '\t'}.get(m.group(1), m.group(1)), s)


def c_seeds(lines):
    macros, toks = {}, []
    for m in C_TOKEN.finditer('\n'.join(lines)):
        s, mname, mbody, ident, punct = m.groups()
        if mname:		# #define NAME "..." "...": a string macro
            macros[mname] = ''.join(c_unescape(x) for x in C_STRING.findall(mbody))
            continue
        if s is None and ident is None and punct is None:
            continue		# a comment or another preprocessor line
        if s is not None or ident in macros:
            val = c_unescape(s) if s is not None else macros[ident]
            if toks and toks[-1][0] == 'str':	# adjacent strings are one
                toks[-1] = ('str', toks[-1][1] + val)
            else:
                toks.append(('str', val))
        elif ident:
            toks.append(('id', ident))
        else:
            toks.append(('p', punct))
    for kind, val in toks:
        if kind == 'str' and '=' in val and '\n' not in val and len(val) < 600:
            yield 'cma=%s\n' % val
            yield 'cma_map=%s\n' % val
    # { "compatible", CMA, MAP }: the board defaults.
    for i in range(len(toks) - 6):
        t = toks[i:i + 7]
        if ([k for k, _ in t] == ['p', 'str', 'p', 'str', 'p', 'str', 'p'] and
                t[0][1] == '{' and t[2][1] == ',' and t[4][1] == ',' and t[6][1] == '}'
                and '=' in t[3][1] and '=' in t[5][1]):
            yield 'cma=%s\ncma_map=%s\n' % (t[3][1], t[5][1])


def kind_of(path):
    if path.endswith(('.c', '.h')):
        return c_seeds
    if path.endswith('.trace'):
        return trace_seeds
    return text_seeds


def patch_seeds(lines):
    """The lines each file of a patch gains, by the kind of that file."""
    files, cur = {}, '(commit message)'
    files[cur] = []
    for line in lines:
        m = re.match(r'^diff --git a/(\S+) b/(\S+)', line)
        if m:
            cur = m.group(2)
            files.setdefault(cur, [])
        elif line.startswith('+') and not line.startswith('+++'):
            files[cur].append(line[1:])
        elif cur == '(commit message)':
            files[cur].append(line)
    for path, added in files.items():
        yield from kind_of(path)(added)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip())
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    total = set()
    for path in sys.argv[2:]:
        try:
            with open(path, encoding='utf-8', errors='replace') as f:
                lines = f.read().split('\n')
        except OSError as e:
            sys.exit('seeds.py: %s' % e)
        gen = patch_seeds if path.endswith('.patch') else kind_of(path)
        found = set(gen(lines))
        for seed in found:
            data = seed.encode('utf-8', errors='replace')
            name = hashlib.sha1(data).hexdigest()[:16]
            with open(os.path.join(out, 'seed-' + name), 'wb') as f:
                f.write(data)
        total |= found
        if found:
            print('%5d %s' % (len(found), path))
    print('%5d seeds in all' % len(total))


if __name__ == '__main__':
    main()
