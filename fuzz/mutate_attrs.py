#!/usr/bin/env python3
"""Writes N one-instruction modules whose attribute values (and, one time in
three, other parts of the line) are mutated.

    fuzz/mutate_attrs.py SEED N OUTDIR [CORPUS]

Lines of real dumps (CORPUS, default ../shared/corpus) that carry an
attribute other than metadata, or that are a parameter or a constant, are
taken at random; one to three edits (insert, delete or replace) go after
the start of one of their attributes (or anywhere in the line), with
pieces of HLO syntax that end, nest, or break values. Each line goes into a
module of its own (OUTDIR/cN.hlo), after the line unchanged under another
name, so that the shape cache knows its shape (SHAPE_TOK). For
fuzz/diff_builds.sh: two builds must report the same on each.

Also writes N whole files with a stack-frame table (FileNames ... before
the first computation) edited inside that table (OUTDIR/tN.hlo)."""
import os
import random
import re
import sys

PIECES = ['{', '}', '[', ']', '(', ')', ',', '=', ' ', 'x', 'ROOT', '%a', '"s"', '1', '-1', ':', '->', '<=',
          'f32[2]{0}', 'b(', 'T(8)', 'metadata=', 'index=', '\n', 'y =', '%z =', '/*c*/', '// -----\n',
          'kLoop', '0_1x2_3', '...', '?', '#', '*', '+', '~', 'inf', '-inf', '1.5', 'true', 'S(1)', 'ENTRY',
          'HloModule', '@', '"open', 'parameter(', 'constant(', 'maximal', 'device=', 'replicated', 'sharding=',
          'nan', '0x1p3', 'file_name_id=', 'FileLocations\n', 'StackFrames\n', '2 {', '{{',
          '99999999999999999999', 'backend_config=', 'frontend_attributes=', ',}', '[0:2]', ':0]', ', ']


def edit(rnd, text, lo, hi):
    """One to three random edits of TEXT between offsets LO and HI (HI moves
    with the edits when it is the end)."""
    for _ in range(rnd.randint(1, 3)):
        pos, op, piece = rnd.randint(lo, hi if hi is not None else len(text)), rnd.random(), rnd.choice(PIECES)
        if op < 0.5:
            text = text[:pos] + piece + text[pos:]
        elif op < 0.8:
            text = text[:pos] + text[pos + rnd.randint(1, 3):]
        else:
            text = text[:pos] + piece + text[pos + 1:]
    return text


def main():
    seed, n, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    corpus = sys.argv[4] if len(sys.argv) > 4 else os.path.join(os.path.dirname(__file__), '../../shared/corpus')
    rnd = random.Random(seed)
    lines, tables = [], []
    for root, _, files in os.walk(corpus):
        for f in sorted(files):
            with open(os.path.join(root, f), errors='replace') as fh:
                text = fh.read()
                if 'FileLocations\n' in text and 'FileNames' in text and len(text) < 100000:
                    tables.append(text)
                for line in text.splitlines(True):
                    if ' = ' in line and len(line) < 400 and (re.search(r', (?!metadata)[a-z_]+=', line) or
                                                              re.search(r' (parameter|constant)\(', line)):
                        lines.append(line.rstrip('\n'))
    if not lines:
        sys.exit('no attribute lines under ' + corpus)
    os.makedirs(out, exist_ok=True)
    for i in range(n):
        line = rnd.choice(lines)
        first = re.sub(r'^(\s*)(ROOT\s+)?%?[\w.\-]+', r'\1%shape_first', line, count=1)
        starts = [m.end() for m in re.finditer(r', [a-z_]+=', line)]
        k = rnd.choice(starts) if starts and rnd.random() < 2 / 3 else 0
        line = edit(rnd, line, k, None)
        with open(os.path.join(out, 'c%d.hlo' % i), 'w') as fh:
            fh.write('HloModule m\n\nENTRY e {\n' + first + '\n' + line + '\n  ROOT r = f32[] constant(0)\n}\n')
    for i in range(n if tables else 0):
        text = rnd.choice(tables)
        a = text.index('FileNames')
        b = min(x for x in (text.find('\n%', a), text.find('\nENTRY', a), len(text)) if x >= 0)
        text = edit(rnd, text, a, b)
        with open(os.path.join(out, 't%d.hlo' % i), 'w') as fh:
            fh.write(text)


main()
