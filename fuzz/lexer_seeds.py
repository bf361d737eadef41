#!/usr/bin/env python3
"""Seeds that walk every state of the HLO lexer's main automaton.

    python3 fuzz/lexer_seeds.py OUT [PREFIX] [SUFFIX]

Runs `re2c -D` on lexer/hlo_lexer.re (its automata as Graphviz), takes the
largest one (lex_dfa's) and, for each state, a shortest input reaching it
followed by every byte but '\\n', then by "\\x01" (a byte no rule continues
with) or by nothing: each line is PREFIX + that + SUFFIX, 64 lines a file
(OUT/lexer_NNNNN). The defaults, "f32[" and "]", make lines of
fuzz_shape_stride's input: an XLA shape there is read by the HLO lexer, and
its automaton (some 6,700 edges in the fuzz build) is reached by mutation
one state at a time, for hours. A seed folder, not a corpus: minimise it
into one with `fuzz_TARGET -merge=1 NEW_DIR OUT`."""
import collections
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EDGE = re.compile(r'(\d+) -> (\d+)(?: \[label="((?:[^"\\]|\\.)*)"\])?', re.S)
# the byte a label's range is walked with: the first of these in it
PREFERRED = (b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
             b"_-.:;+*?<>=!@#$%^&|~,/\\'\" \t\x01\x80\xff[](){}\x00")


def label_ranges(label):
    """The byte ranges of a transition label such as [0x00-/][:-\\\\]."""
    out, i = [], 0

    def byte(j):
        if label.startswith("0x", j):
            return int(label[j + 2:j + 4], 16), j + 4
        if label[j] == "\\":
            return ord(label[j + 1]), j + 2
        return ord(label[j]), j + 1

    while i < len(label):
        lo, i = byte(i + 1)  # past '['
        hi = lo
        if label[i] == "-" and label[i + 1] != "]":
            hi, i = byte(i + 1)
        i += 1  # past ']'
        out.append((lo, hi))
    return out


def walk_byte(lo, hi):
    for c in PREFERRED:
        if lo <= c <= hi and c != 10:
            return bytes([c])
    return next((bytes([c]) for c in range(lo, hi + 1) if c != 10), None)


def shortest_paths(block):
    """State -> a shortest input reaching it from the automaton's start."""
    succ, start = collections.defaultdict(list), None
    for m in EDGE.finditer(block):
        s, t, label = int(m.group(1)), int(m.group(2)), m.group(3)
        start = s if start is None else start
        if label is None or not label.startswith("["):  # an action, a yyaccept branch
            continue
        for lo, hi in label_ranges(label):
            c = walk_byte(lo, hi)
            if c is not None:
                succ[s].append((c, t))
    path, queue = {start: b""}, collections.deque([start])
    while queue:
        s = queue.popleft()
        for c, t in succ[s]:
            if t not in path:
                path[t] = path[s] + c
                queue.append(t)
    return path


def main():
    if not 2 <= len(sys.argv) <= 4:
        sys.stderr.write("usage: lexer_seeds.py OUT [PREFIX] [SUFFIX]\n")
        return 2
    out = sys.argv[1]
    prefix = sys.argv[2].encode() if len(sys.argv) > 2 else b"f32["
    suffix = sys.argv[3].encode() if len(sys.argv) > 3 else b"]"
    with tempfile.TemporaryDirectory() as tmp:
        dot = os.path.join(tmp, "lexer.dot")
        subprocess.run(["re2c", "-D", "-o", dot, os.path.join(ROOT, "lexer", "hlo_lexer.re")], check=True)
        with open(dot, encoding="latin-1") as f:
            blocks = re.findall(r"digraph re2c \{(.*?)\n\}", f.read(), re.S)
    path = shortest_paths(max(blocks, key=len))
    lines = sorted({prefix + p + bytes([b]) + tail + suffix
                    for p in path.values() for b in range(256) if b != 10 for tail in (b"\x01", b"")})
    os.makedirs(out, exist_ok=True)
    for i in range(0, len(lines), 64):
        with open(os.path.join(out, "lexer_%05d" % (i // 64)), "wb") as f:
            f.write(b"\n".join(lines[i:i + 64]) + b"\n")
    print("%d states, %d lines, %d files in %s" % (len(path), len(lines), (len(lines) + 63) // 64, out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
