#!/usr/bin/env python3
"""Writes one HLO module of a given shape and size on stdout, for
bench/scaling.sh.

    scaling_gen.py SHAPE N

SHAPE (N is the size that grows):
  concat  ROOT concatenate of N parameters f32[2,3] (one long line)
  tuple   ROOT tuple of N parameters f32[4] (a tuple shape of N elements)
  fusion  a fusion of N parameters; its fused computation adds them in a
          chain (N - 1 adds) and the ENTRY passes N parameters
  mofusion  a fusion of N parameters and N outputs (a tuple root): output
          k negates parameter k (a horizontal fusion)
  fconcat a fusion of N parameters f32[2,3] whose root concatenates them
          (a variadic op inside a fusion)
  instrs  N instructions in ENTRY: a chain of elementwise ops, broadcasts,
          transposes, slices and reductions on f32[8,16]
  calls   a call graph N deep: computation i calls computation i + 1, the
          last one negates its parameter
"""
import sys


def concat(n, w):
    w("HloModule concat_%d\n\nENTRY e {\n" % n)
    for i in range(n):
        w("  p%d = f32[2,3]{1,0} parameter(%d)\n" % (i, i))
    w("  ROOT c = f32[%d,3]{1,0} concatenate(%s), dimensions={0}\n}\n"
      % (2 * n, ", ".join("p%d" % i for i in range(n))))


def tuple_root(n, w):
    w("HloModule tuple_%d\n\nENTRY e {\n" % n)
    for i in range(n):
        w("  p%d = f32[4]{0} parameter(%d)\n" % (i, i))
    w("  ROOT t = (%s) tuple(%s)\n}\n"
      % (", ".join(["f32[4]{0}"] * n), ", ".join("p%d" % i for i in range(n))))


def fusion(n, w):
    w("HloModule fusion_%d\n\nfused {\n" % n)
    for i in range(n):
        w("  q%d = f32[8]{0} parameter(%d)\n" % (i, i))
    prev = "q0"
    for i in range(1, n):
        w("  %sa%d = f32[8]{0} add(%s, q%d)\n" % ("ROOT " if i == n - 1 else "", i, prev, i))
        prev = "a%d" % i
    if n == 1:
        w("  ROOT r = f32[8]{0} negate(q0)\n")
    w("}\n\nENTRY e {\n")
    for i in range(n):
        w("  p%d = f32[8]{0} parameter(%d)\n" % (i, i))
    w("  ROOT f = f32[8]{0} fusion(%s), kind=kLoop, calls=fused\n}\n"
      % ", ".join("p%d" % i for i in range(n)))


def mofusion(n, w):
    w("HloModule mofusion_%d\n\nfused {\n" % n)
    for i in range(n):
        w("  q%d = f32[8]{0} parameter(%d)\n  n%d = f32[8]{0} negate(q%d)\n" % (i, i, i, i))
    w("  ROOT t = (%s) tuple(%s)\n}\n\nENTRY e {\n"
      % (", ".join(["f32[8]{0}"] * n), ", ".join("n%d" % i for i in range(n))))
    for i in range(n):
        w("  p%d = f32[8]{0} parameter(%d)\n" % (i, i))
    w("  ROOT f = (%s) fusion(%s), kind=kLoop, calls=fused\n}\n"
      % (", ".join(["f32[8]{0}"] * n), ", ".join("p%d" % i for i in range(n))))


def instrs(n, w):
    w("HloModule instrs_%d\n\nadd {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n"
      "  ROOT s = f32[] add(x, y)\n}\n\nENTRY e {\n"
      "  p = f32[8,16]{1,0} parameter(0)\n  z = f32[] constant(0)\n" % n)
    prev = "p"
    for i in range(n):
        k = i % 6
        name = "i%d" % i
        if k == 0:
            w("  %s = f32[8,16]{1,0} add(%s, p)\n" % (name, prev))
        elif k == 1:
            w("  %s = f32[16,8]{1,0} transpose(%s), dimensions={1,0}\n" % (name, prev))
        elif k == 2:
            w("  %s = f32[8,16]{1,0} transpose(%s), dimensions={1,0}\n" % (name, prev))
        elif k == 3:
            w("  r%d = f32[8]{0} reduce(%s, z), dimensions={1}, to_apply=add\n" % (i, prev))
            w("  %s = f32[8,16]{1,0} broadcast(r%d), dimensions={0}\n" % (name, i))
        elif k == 4:
            w("  sl%d = f32[8,8]{1,0} slice(%s), slice={[0:8], [0:16:2]}\n" % (i, prev))
            w("  %s = f32[8,16]{1,0} concatenate(sl%d, sl%d), dimensions={1}\n" % (name, i, i))
        else:
            w("  %s = f32[8,16]{1,0} exponential(%s)\n" % (name, prev))
        prev = name
    w("  ROOT r = f32[8,16]{1,0} negate(%s)\n}\n" % prev)


def fconcat(n, w):
    w("HloModule fconcat_%d\n\nfused {\n" % n)
    for i in range(n):
        w("  q%d = f32[2,3]{1,0} parameter(%d)\n" % (i, i))
    w("  ROOT c = f32[%d,3]{1,0} concatenate(%s), dimensions={0}\n}\n\nENTRY e {\n"
      % (2 * n, ", ".join("q%d" % i for i in range(n))))
    for i in range(n):
        w("  p%d = f32[2,3]{1,0} parameter(%d)\n" % (i, i))
    w("  ROOT f = f32[%d,3]{1,0} fusion(%s), kind=kLoop, calls=fused\n}\n"
      % (2 * n, ", ".join("p%d" % i for i in range(n))))


def calls(n, w):
    w("HloModule calls_%d\n\n" % n)
    for i in range(n, 0, -1):
        w("comp%d {\n  x%d = f32[8]{0} parameter(0)\n" % (i, i))
        if i == n:
            w("  ROOT y%d = f32[8]{0} negate(x%d)\n}\n\n" % (i, i))
        else:
            w("  ROOT y%d = f32[8]{0} call(x%d), to_apply=comp%d\n}\n\n" % (i, i, i + 1))
    w("ENTRY e {\n  p = f32[8]{0} parameter(0)\n  ROOT r = f32[8]{0} call(p), to_apply=comp1\n}\n")


SHAPES = {"concat": concat, "tuple": tuple_root, "fusion": fusion, "mofusion": mofusion, "fconcat": fconcat,
          "instrs": instrs, "calls": calls}


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in SHAPES:
        sys.stderr.write(__doc__)
        sys.exit(2)
    out = sys.stdout
    SHAPES[sys.argv[1]](int(sys.argv[2]), out.write)


if __name__ == "__main__":
    main()
