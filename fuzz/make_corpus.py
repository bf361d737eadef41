#!/usr/bin/env python3
"""Builds the seed corpus OUT/TARGET/ of the fuzz targets from our testdata/.

    python3 fuzz/make_corpus.py OUT

parse     every testdata/**/*.hlo file as is
analysis  the .hlo files of testdata/indexing, examples and layout, and the
          parser's accept_* files (valid modules the analysis can walk)
tiles     the .hlo files of testdata/tiles, symtile and examples, and those of
          testdata/indexing that hold a fusion
map       every map of every testdata/**/*.map file, one map per seed (the
          files are split at blank lines as hloidx --map splits them)
layout    the .hlo files of testdata/layout, plus every distinct shape text
          written in a testdata .hlo file, one per seed (fuzz_layout wraps a
          one-line input into a module as the parameter's shape)
shape_stride  every line of every testdata/**/*.ss file (layout expressions), one
          per seed, the shape texts of the layout seeds, and every distinct
          word of the testdata .hlo files (split at blanks and punctuation)
          inside a shape's brackets, "f32[WORD]", 64 lines per seed: an XLA
          shape is read by the HLO lexer, whose words the fuzzer would
          otherwise find one DFA state at a time
compare   the goldens of testdata/compare (.maps and .json files)

The corpus is generated, never committed: CTest builds it in the build
folder (fuzz/corpus, the fixture of the fuzz/replay_* tests), and the fuzz
scripts and .ci/run build it where they need it. Seed names are derived
from the source file names, so a rebuild gives the same tree."""
import hashlib
import os
import re
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTDATA = os.path.join(ROOT, "testdata")
CORPUS = None  # the output folder (main)

SHAPE = re.compile(
    rb"\b(?:pred|[suf](?:1|2|4|8|16|32|64)|bf16|f8e\w+|f6e\w+|f4e\w+|c64|c128)"
    rb"\[[0-9<=?, ]*\](?:\{[^{}\n]*\})?")

WORD_SPLIT = re.compile(rb"[ \t\n\r,()\[\]{}=]+")


def files(sub, ext):
    out = []
    for d, _, names in os.walk(os.path.join(TESTDATA, sub)):
        out += [os.path.join(d, n) for n in names if n.endswith(ext)]
    return sorted(out)


def seed_name(path, suffix=""):
    rel = os.path.relpath(path, TESTDATA)
    return re.sub(r"[^A-Za-z0-9_.-]", "_", rel.replace(os.sep, "_")) + suffix


def write(target, name, data):
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def split_maps(text):
    """The chunks hloidx --map reads: maps separated by blank lines."""
    chunks, cur = [], []
    for line in text.split(b"\n"):
        if line.strip(b" \t\r\f\v") == b"":
            if cur:
                chunks.append(b"\n".join(cur) + b"\n")
                cur = []
        else:
            cur.append(line)
    if cur:
        chunks.append(b"\n".join(cur) + b"\n")
    return [c for c in chunks if any(not l.strip().startswith(b"//") for l in c.split(b"\n") if l.strip())]


def main():
    global CORPUS
    if len(sys.argv) != 2:
        sys.stderr.write("usage: make_corpus.py OUT\n")
        return 2
    CORPUS = sys.argv[1]
    if os.path.isdir(CORPUS):
        shutil.rmtree(CORPUS)
    hlo = files("", ".hlo")
    for p in hlo:
        write("parse", seed_name(p), read(p))
        rel = os.path.relpath(p, TESTDATA)
        if rel.startswith(("indexing", "examples", "layout")) or os.path.basename(p).startswith("accept_"):
            write("analysis", seed_name(p), read(p))
        if rel.startswith(("tiles", "symtile", "examples")) or (rel.startswith("indexing") and b"fusion(" in read(p)):
            write("tiles", seed_name(p), read(p))
        if rel.startswith("layout"):
            write("layout", seed_name(p), read(p))
    for p in files("", ".map"):
        for i, chunk in enumerate(split_maps(read(p))):
            write("map", seed_name(p, "_%d" % i), chunk)
    for p in files("compare", ".maps") + files("compare", ".json"):
        write("compare", seed_name(p), read(p))
    shapes, words = set(), set()
    for p in hlo:
        text = read(p)
        shapes.update(m.group(0) for m in SHAPE.finditer(text))
        words.update(w[:48] for w in WORD_SPLIT.split(text) if w and b"\x00" not in w)
    for s in sorted(shapes):
        name = "shape_" + hashlib.sha1(s).hexdigest()[:12]
        write("layout", name, s)
        write("shape_stride", name, s + b"\n")  # read as an XLA shape: tl_analyze and ss_from_xla
    words = sorted(words)
    for i in range(0, len(words), 64):
        write("shape_stride", "words_%04d" % (i // 64), b"".join(b"f32[" + w + b"]\n" for w in words[i:i + 64]))
    for p in files("", ".ss"):
        for i, line in enumerate(read(p).split(b"\n")):
            if line.strip() and not line.strip().startswith(b"//"):
                write("shape_stride", seed_name(p, "_%d" % i), line + b"\n")
    for t in sorted(os.listdir(CORPUS)):
        print("%-12s %4d seeds" % (t, len(os.listdir(os.path.join(CORPUS, t)))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
