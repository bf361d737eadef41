#!/usr/bin/env bash
# The tile modes on a whole dump against `hloidx --all`.
#
#   bench/tiles_throughput.sh [HLOIDX] [DUMP]
#
# DUMP defaults to the largest file of the corpus (../shared/corpus, or
# $HLOIDX_CORPUS). Dumps seldom carry tile sizes, so a copy of DUMP is
# written to $TMPDIR (default /tmp) in which every fusion gets a
# backend_config with block_level_fusion_config output_tiles (per output
# dimension the largest power of two not above 128 for the last dimension
# and 16 for the others, capped by the dimension). Times, best and median
# of RUNS runs (default 9) alternated run by run: `--all` and
# `--tiles --all` on DUMP (symbolic tiles only), the same two on the copy
# (every fusion's tiles instantiated: offsets, sizes, bytes over all tiles,
# reads per element), and `--tilings --all` on DUMP. With CALLGRIND=1 also
# the instruction counts (valgrind), steadier than times on a shared
# machine.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
hloidx=${1:-$root/build/hloidx}
corpus=${HLOIDX_CORPUS:-$root/../shared/corpus}
runs=${RUNS:-9}
if [ $# -ge 2 ]; then
  dump=$2
else
  dump=$(find "$corpus" -type f \( -name '*.hlo' -o -name '*.txt' \) -printf '%s %p\n' | sort -rn | head -1 | cut -d' ' -f2-)
fi
[ -x "$hloidx" ] || { echo "no hloidx binary at $hloidx" >&2; exit 2; }
[ -f "$dump" ] || { echo "no dump at $dump" >&2; exit 2; }
command -v python3 > /dev/null || { echo "python3 is needed" >&2; exit 2; }

sized=${TMPDIR:-/tmp}/hloidx_tiles_bench.hlo
python3 - "$dump" "$sized" <<'EOF'
import re, sys
src, dst = sys.argv[1], sys.argv[2]
shape = re.compile(r'[a-z0-9]+\[([0-9,]*)\]')
def sizes(dims):
    out = []
    for i, d in enumerate(dims):
        cap = min(d, 128 if i == len(dims) - 1 else 16)
        p = 1
        while p * 2 <= cap:
            p *= 2
        out.append(p)
    return out
n = 0
with open(src) as f, open(dst, 'w') as g:
    for line in f:
        m = re.match(r'(\s*(?:ROOT\s+)?%?[\w.-]+\s*=\s*)(.*?)\s+fusion\(', line)
        c = re.search(r'calls=%?[\w.-]+', line)
        if m and c and 'backend_config' not in line:
            tiles = []
            for s in shape.finditer(m.group(2)):
                dims = [int(x) for x in s.group(1).split(',') if x]
                tiles.append('{"sizes":[%s]}' % ','.join('"%d"' % v for v in sizes(dims)))
            cfg = ', backend_config={"fusion_backend_config":{"block_level_fusion_config":{"output_tiles":[%s]}}}' % ','.join(tiles)
            line = line[:c.end()] + cfg + line[c.end():]
            n += 1
        g.write(line)
print('%d fusions given tile sizes in %s' % (n, dst), file=sys.stderr)
EOF

# every command must accept the inputs (warnings are fine)
for args in "--all $dump" "--tiles --all $dump" "--tiles --all $sized" "--tilings --all $dump"; do
  "$hloidx" $args > /dev/null 2>&1 || { echo "hloidx $args fails" >&2; exit 1; }
done
tiled=$("$hloidx" --tiles --all "$sized" 2> /dev/null | grep -c "(backend_config)" || true)
[ "$tiled" -gt 0 ] || { echo "no fusion was tiled" >&2; exit 1; }

echo "hloidx: $hloidx; $(basename "$dump") ($(stat -c %s "$dump") bytes, $tiled fusion outputs tiled in the copy); $runs runs each; $(date -u +%Y-%m-%d)"
python3 - "$runs" "$hloidx" "$dump" "$sized" <<'EOF'
import os, statistics, subprocess, sys, time
runs, hloidx, dump, sized = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
cmds = [('--all', dump), ('--tiles --all', dump), ('--all (sized copy)', sized), ('--tiles --all (sized copy)', sized),
        ('--tilings --all', dump)]
res = {c: [] for c, _ in cmds}
for _ in range(runs):
    for c, f in cmds:
        argv = [hloidx] + c.split(' (')[0].split() + [f]
        t0 = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        res[c].append(time.perf_counter() - t0)
base = {dump: statistics.median(res['--all']), sized: statistics.median(res['--all (sized copy)'])}
print('| command | best | median | median / `--all` |')
print('| --- | ---: | ---: | ---: |')
for c, f in cmds:
    b, m = min(res[c]), statistics.median(res[c])
    print('| `%s` | %.1f ms | %.1f ms | %.2f |' % (c, b * 1e3, m * 1e3, m / base[f]))
if os.environ.get('CALLGRIND') == '1':
    print()
    print('| command | instructions (callgrind) | / `--all` |')
    print('| --- | ---: | ---: |')
    counts = {}
    for c, f in cmds:
        out = os.path.join(os.environ.get('TMPDIR', '/tmp'), 'hloidx_tiles_cg.out')
        argv = ['valgrind', '--tool=callgrind', '--callgrind-out-file=' + out, hloidx] + c.split(' (')[0].split() + [f]
        p = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        total = [l for l in p.stderr.splitlines() if 'Collected' in l]
        counts[c] = int(total[-1].split()[-1]) if total else 0
        os.remove(out)
    base = {dump: counts['--all'], sized: counts['--all (sized copy)']}
    for c, f in cmds:
        print('| `%s` | %d | %.2f |' % (c, counts[c], counts[c] / base[f] if base[f] else 0))
EOF
