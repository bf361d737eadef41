#!/usr/bin/env bash
# `hloidx --check` on a dump folder: many files in one run.
#
#   bench/files_throughput.sh [HLOIDX] [COPIES]
#
# Builds (once) $TMPDIR/hloidx_bench_files_COPIES (default /tmp, 20 copies):
# every .hlo/.txt file of the corpus (../shared/corpus, or $HLOIDX_CORPUS),
# COPIES times, each copy a file of its own (like the files of an
# --xla_dump_to folder). Times `wc -l`, `hloidx --check --jobs=1` (one file
# after the other) and `hloidx --check` (default: files side by side, one
# thread per processor) on all of them, best of $RUNS runs (default 5),
# page cache warm.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
hloidx=${1:-$root/build/hloidx}
copies=${2:-20}
runs=${RUNS:-5}
corpus=${HLOIDX_CORPUS:-$root/../shared/corpus}
dir=${TMPDIR:-/tmp}/hloidx_bench_files_$copies

[ -x "$hloidx" ] || { echo "no hloidx binary at $hloidx" >&2; exit 2; }
[ -d "$corpus" ] || { echo "no corpus at $corpus" >&2; exit 2; }
if [ ! -d "$dir" ]; then
  mapfile -t files < <(find "$corpus" -type f \( -name '*.hlo' -o -name '*.txt' \) | LC_ALL=C sort)
  [ ${#files[@]} -gt 0 ] || { echo "no .hlo/.txt files in $corpus" >&2; exit 2; }
  mkdir -p "$dir.tmp"
  for k in $(seq 1 "$copies"); do
    for f in "${files[@]}"; do cp "$f" "$dir.tmp/${k}_$(basename "$f")"; done
  done
  mv "$dir.tmp" "$dir"
fi
mapfile -t inputs < <(find "$dir" -type f | LC_ALL=C sort)
bytes=$(cat "${inputs[@]}" | wc -c) # also warms the page cache

# The inputs must be valid, or the timing would measure an early exit.
"$hloidx" --check "${inputs[@]}"

. "$root/bench/best_time.sh"

t_wc=$(best_time wc -l "${inputs[@]}")
t_one=$(best_time "$hloidx" --check --jobs=1 "${inputs[@]}")
t_all=$(best_time "$hloidx" --check "${inputs[@]}")
awk -v bytes="$bytes" -v n="${#inputs[@]}" -v tw="$t_wc" -v t1="$t_one" -v ta="$t_all" -v dir="$dir" \
    -v jobs="$(nproc)" 'BEGIN {
  mb = bytes / 1048576
  printf "input                      %s (%d files, %.1f MB)\n", dir, n, mb
  printf "wc -l                      %.3f s  %8.1f MB/s\n", tw, mb / tw
  printf "hloidx --check --jobs=1    %.3f s  %8.1f MB/s  %5.1fx wc -l\n", t1, mb / t1, t1 / tw
  printf "hloidx --check (%2d)        %.3f s  %8.1f MB/s  %5.1fx wc -l   (default --jobs: %d processors)\n", jobs, ta, mb / ta, ta / tw, jobs
}'
