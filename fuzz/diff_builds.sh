#!/usr/bin/env bash
# Differential check of two hloidx builds: the same stdout, stderr and exit
# status on the same inputs. For changes that must not change behaviour
# (the parser's fast paths, the grammar's shape, speed work).
#
#   fuzz/diff_builds.sh OLD_HLOIDX NEW_HLOIDX [N]
#
#  1. every input file (testdata/, fuzz/regress/,
#     ../shared/corpus/) with --check, --all and --layout --all (which
#     lists every instruction, in the order of the IR);
#  2. N (default 1500) zzuf mutations of the small inputs, with --check,
#     alone and after an unmutated copy and a "// -----" line (so that the
#     mutated module meets shapes known from an earlier module);
#  3. N modules with mutated attribute values and instruction heads, and N
#     files with mutated stack-frame tables (fuzz/mutate_attrs.py), --check.
# Inputs that differ are listed (DIFF MODE FILE; mutated ones are kept in
# $TMPDIR/hloidx-diff); the exit status is 1 when any did.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
old=$(realpath "${1:?old hloidx}"); new=$(realpath "${2:?new hloidx}"); n=${3:-1500}
work=${TMPDIR:-/tmp}/hloidx-diff
rm -rf "$work" && mkdir -p "$work/mut" "$work/attrs"
runs=0 diffs=0
same() { # MODE FILE: compare the two builds on FILE
  local a b
  a=$(cd "$(dirname "$2")" && timeout 20 "$old" $1 "$(basename "$2")" 2>&1; echo "rc=$?")
  b=$(cd "$(dirname "$2")" && timeout 20 "$new" $1 "$(basename "$2")" 2>&1; echo "rc=$?")
  runs=$((runs + 1))
  if [ "$a" != "$b" ]; then diffs=$((diffs + 1)); echo "DIFF $1 $2"; return 1; fi
}
mapfile -t files < <(find "$root/testdata" "$root/fuzz/regress" "$root/../shared/corpus" \
  -type f \( -name '*.hlo' -o -name '*.txt' \) 2>/dev/null | sort)
for f in "${files[@]}"; do same --check "$f"; same --all "$f"; same "--layout --all" "$f"; done
echo "files: ${#files[@]}, runs $runs, differences $diffs"
small=()
for f in "${files[@]}"; do [ "$(stat -c %s "$f")" -lt 200000 ] && small+=("$f"); done
if command -v zzuf > /dev/null; then
  for i in $(seq 1 "$n"); do
    f=${small[$((i % ${#small[@]}))]}
    r=$(awk -v i="$i" 'BEGIN { srand(i); printf "%.4f", 0.0005 + rand() * 0.01 }')
    zzuf -s "$i" -r "$r" < "$f" > "$work/mut/m$i.hlo" 2> /dev/null
    keep=0
    same --check "$work/mut/m$i.hlo" || keep=1
    { cat "$f"; printf '\n// -----\n'; cat "$work/mut/m$i.hlo"; } > "$work/mut/p$i.hlo"
    if same --check "$work/mut/p$i.hlo"; then rm "$work/mut/p$i.hlo"; else keep=1; fi
    [ "$keep" = 1 ] || rm "$work/mut/m$i.hlo"
  done
  echo "zzuf: $n mutations, runs $runs, differences $diffs"
else
  echo "zzuf: not installed, skipped"
fi
python3 "$root/fuzz/mutate_attrs.py" 1 "$n" "$work/attrs" "$root/../shared/corpus"
for i in $(seq 0 $((n - 1))); do same --check "$work/attrs/c$i.hlo" && rm "$work/attrs/c$i.hlo"; done
echo "attribute values: $n modules, runs $runs, differences $diffs"
for i in $(seq 0 $((n - 1))); do
  [ -f "$work/attrs/t$i.hlo" ] && same --check "$work/attrs/t$i.hlo" && rm "$work/attrs/t$i.hlo"
done
echo "stack-frame tables: $n files, runs $runs, differences $diffs"
[ "$diffs" -eq 0 ]
