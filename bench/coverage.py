#!/usr/bin/env python3
"""How much of a dump hloidx can describe: runs `hloidx --all --format=json`
(plus any extra flags) on every file of a folder (default ../shared/corpus)
and counts, per direction, the (instruction, output, operand) entries whose
maps are unknown, overall and by opcode.

    coverage.py [--hloidx PATH] [--dir DIR] [--top N] [-- EXTRA HLOIDX FLAGS]

An entry is unknown when one of its maps is `unknown indexing`, or when one
of them says no more than "any element of the tensor": it has results, each
a distinct bare range variable, no dimension variable in them, no runtime
variable and no constraint. Such a map is the truth only where the op
really reads every element of the operand for every output element
(in2out: where an input element really feeds every output element); the
entry counts as known only when that is established independently of the
maps:

  - the op's definition says so: reduce (the range variables are its
    reduced dims; a full reduction, or an init value in2out), dot (the
    contracted dims), broadcast in2out (a scalar feeds every element), sort,
    topk, fft (whole rows), rng-bit-generator (the state feeds every number);
  - an in2out map from a scalar operand: the exact inverse of the scalar
    read `(d...) -> ()` of out2in, which counts as known;
  - or hloidx --verify (analysis/verify.c, the ops' definitions, which never
    look at a map) compares that entry equal, element by element, to what
    the op reads ("ok", or an "ok" on a sample; not "ok (covers)").

Every other "any element" map counts as unknown, whatever produced it: the
script does not trust the analysis to say when it is honest. Entries with
no map at all (an operand a given output does not read, for which hloidx
writes no entry: counted over outputs x operands) are known. Files
hloidx cannot parse are listed and skipped."""
import argparse
import collections
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FULL_READERS = {"reduce", "dot", "sort", "topk", "fft", "broadcast", "rng-bit-generator"}
VERIFY_LINE = re.compile(r"^# (\S+) \((out2in|in2out), (output|input operand) (\d+)[^)]*\): (.*)$")
DIMS = re.compile(r"\[([^\]]*)\]")


def shape_dims(text):
    """Dims of an array shape text ("f32[2,3]{1,0}" -> [2, 3]); None for tuples."""
    if text.startswith("("):
        return None
    m = DIMS.search(text)
    if not m or not m.group(1).strip():
        return []
    return [int(x.lstrip("<=")) if x.strip().lstrip("<=").isdigit() else -1 for x in m.group(1).split(",")]


def any_element(m):
    """The map says only "any element of the tensor"."""
    if m["unknown"] or m["known_empty"] or not m["results"]:
        return False
    if m["constraints"] or m["runtime_vars"]:
        return False
    names = [r["name"] for r in m["range_vars"]]
    if len(set(m["results"])) != len(m["results"]) or any(r not in names for r in m["results"]):
        return False
    return True


def honest_any(instr, m, direction):
    """An "any element" map the op's definition accounts for (module doc)."""
    if direction == "in2out" and not m["dims"]:
        return True
    return instr["opcode"] in FULL_READERS


def classify(instr, maps, direction, verified):
    if not maps:
        return "known"
    for m in maps:
        if m["unknown"]:
            return "unknown"
        if any_element(m) and not honest_any(instr, m, direction) and not verified:
            return "any"
    return "known"


def verified_entries(hloidx, path, name, extra):
    """(direction, id, entry) of the entries hloidx --verify finds exact."""
    p = subprocess.run([hloidx, "--verify", "--instr=" + name] + extra + [path], capture_output=True, text=True)
    ok = set()
    for line in p.stdout.splitlines():
        m = VERIFY_LINE.match(line)
        if not m or m.group(1) != name:
            continue
        for part in m.group(5).split("; "):
            label, _, status = part.partition(": ")
            # exact, by enumeration or on a sample; "ok (covers)" is only coverage
            if status.startswith("ok") and "cover" not in status:
                ok.add((m.group(2), int(m.group(4)), int(label.split()[-1])))
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hloidx", default=os.path.join(HERE, "..", "build", "hloidx"))
    ap.add_argument("--dir", default=os.path.join(HERE, "..", "..", "shared", "corpus"))
    ap.add_argument("--top", type=int, default=40, help="opcodes listed per direction")
    ap.add_argument("extra", nargs="*", help="more hloidx flags (after --)")
    a = ap.parse_args()
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(a.dir) for f in fs if not f.endswith(".md"))
    tot = {d: collections.Counter() for d in ("out2in", "in2out")}
    by_op = {d: collections.defaultdict(collections.Counter) for d in ("out2in", "in2out")}
    errors = collections.Counter()
    failed = []
    for path in files:
        p = subprocess.run([a.hloidx, "--all", "--format=json"] + a.extra + [path], capture_output=True)
        try:
            doc = json.loads(p.stdout)
        except ValueError:
            failed.append((path, p.returncode, p.stderr.decode(errors="replace").splitlines()[:1]))
            continue
        if p.returncode != 0:
            failed.append((path, p.returncode, p.stderr.decode(errors="replace").splitlines()[:1]))
        for mod in doc["modules"]:
            for ins in mod["instructions"]:
                op = ins["opcode"]
                entries = []
                for blk in ins.get("out2in", []):
                    if blk["error"]:
                        errors[(op, blk["error"].split(":")[0])] += 1
                    entries += [("out2in", blk["output"], e["operand"], e["maps"]) for e in blk["operands"]]
                for blk in ins.get("in2out", []):
                    entries += [("in2out", blk["operand"], e["output"], e["maps"]) for e in blk["outputs"]]
                suspect = any(any_element(m) and not honest_any(ins, m, d) for d, _, _, ms in entries for m in ms)
                ok = verified_entries(a.hloidx, path, ins["name"], a.extra) if suspect else set()
                for d, i, k, maps in entries:
                    c = classify(ins, maps, d, (d, i, k) in ok)
                    tot[d][c] += 1
                    by_op[d][op][c] += 1
                # hloidx writes no entry for an operand an output does not
                # read (a tuple's output reads one operand): known, counted
                # here for every block analysed (a block with an error is
                # counted under "blocks not analyzed" instead)
                n_out, n_opd = len(ins.get("out2in", [])), len(ins.get("in2out", []))
                for d, key, n in (("out2in", "operands", n_opd), ("in2out", "outputs", n_out)):
                    for blk in ins.get(d, []):
                        absent = 0 if blk["error"] else n - len(blk[key])
                        tot[d]["known"] += absent
                        by_op[d][op]["known"] += absent
    print(f"files: {len(files)}, flags: --all --format=json {' '.join(a.extra)}")
    for d in ("out2in", "in2out"):
        t = tot[d]
        n = sum(t.values())
        bad = t["unknown"] + t["any"]
        print(f"\n{d}: {n} entries, unknown {bad} ({100.0 * bad / max(n, 1):.1f} %): "
              f"`unknown indexing` {t['unknown']}, only 'any element' {t['any']}")
        rows = sorted(by_op[d].items(), key=lambda kv: -(kv[1]["unknown"] + kv[1]["any"]))
        for op, c in rows[: a.top]:
            b = c["unknown"] + c["any"]
            if b == 0:
                break
            print(f"  {op:28s} {b:6d} of {sum(c.values()):6d}   (unknown {c['unknown']}, any {c['any']})")
    if errors:
        print("\nblocks not analyzed (opcode, reason):")
        for (op, why), n in errors.most_common():
            print(f"  {n:5d} {op}: {why}")
    if failed:
        print("\nfiles with a non-zero exit status:")
        for path, rc, msg in failed:
            print(f"  {os.path.relpath(path, a.dir)}: exit {rc} {msg[0] if msg else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
