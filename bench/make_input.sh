#!/usr/bin/env bash
# Builds (once) the multi-module bench input and prints its path.
#
#   bench/make_input.sh [SIZE_MB]
#
# Every .hlo/.txt file of the corpus (../shared/corpus, or $HLOIDX_CORPUS),
# each followed by a "// -----" separator line, repeated until SIZE_MB
# (default 100) is reached; the file is $TMPDIR/hloidx_bench_SIZE_MBmb.hlo
# (default /tmp; not part of the repository) and is kept for later runs.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
size_mb=${1:-100}
corpus=${HLOIDX_CORPUS:-$root/../shared/corpus}
out=${TMPDIR:-/tmp}/hloidx_bench_${size_mb}mb.hlo

[ -d "$corpus" ] || { echo "no corpus at $corpus" >&2; exit 2; }
mapfile -t files < <(find "$corpus" -type f \( -name '*.hlo' -o -name '*.txt' \) | LC_ALL=C sort)
[ ${#files[@]} -gt 0 ] || { echo "no .hlo/.txt files in $corpus" >&2; exit 2; }

target=$((size_mb * 1024 * 1024))
if [ ! -f "$out" ] || [ "$(stat -c %s "$out")" -lt "$target" ]; then
  one=$(mktemp)
  for f in "${files[@]}"; do
    cat "$f"
    printf '\n// -----\n'
  done > "$one"
  : > "$out"
  while [ "$(stat -c %s "$out")" -lt "$target" ]; do cat "$one" >> "$out"; done
  rm -f "$one"
fi
echo "$out"
