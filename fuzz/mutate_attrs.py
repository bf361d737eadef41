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
name, so that the shape cache knows its shape. For fuzz/diff_builds.sh:
the token wrapper reads such attributes and the instruction's head in one
go (COMMA_ATTR, INSTR_HEAD in parser/hlo_tokwrap.c), and the grammar must
see the same thing either way."""
import os
import random
import re
import sys

PIECES = ['{', '}', '[', ']', '(', ')', ',', '=', ' ', 'x', 'ROOT', '%a', '"s"', '1', '-1', ':', '->', '<=',
          'f32[2]{0}', 'b(', 'T(8)', 'metadata=', 'index=', '\n', 'y =', '%z =', '/*c*/', '// -----\n',
          'kLoop', '0_1x2_3', '...', '?', '#', '*', '+', '~', 'inf', '-inf', '1.5', 'true', 'S(1)', 'ENTRY',
          'HloModule', '@', '"open', 'parameter(', 'constant(', 'maximal', 'device=', 'replicated', 'sharding=',
          'nan', '0x1p3']


def main():
    seed, n, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    corpus = sys.argv[4] if len(sys.argv) > 4 else os.path.join(os.path.dirname(__file__), '../../shared/corpus')
    rnd = random.Random(seed)
    lines = []
    for root, _, files in os.walk(corpus):
        for f in sorted(files):
            with open(os.path.join(root, f), errors='replace') as fh:
                for line in fh:
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
        for _ in range(rnd.randint(1, 3)):
            pos, op, piece = rnd.randint(k, len(line)), rnd.random(), rnd.choice(PIECES)
            if op < 0.5:
                line = line[:pos] + piece + line[pos:]
            elif op < 0.8:
                line = line[:pos] + line[pos + rnd.randint(1, 3):]
            else:
                line = line[:pos] + piece + line[pos + 1:]
        with open(os.path.join(out, 'c%d.hlo' % i), 'w') as fh:
            fh.write('HloModule m\n\nENTRY e {\n' + first + '\n' + line + '\n  ROOT r = f32[] constant(0)\n}\n')


main()
