#!/usr/bin/env bash
# Throughput of `hloidx --check` against `wc -l` on one large multi-module file.
#
#   bench/check_throughput.sh [HLOIDX] [SIZE_MB]
#
# Builds a SIZE_MB (default 100) file in $TMPDIR (default /tmp) with
# bench/make_input.sh: every HLO file of the corpus (../shared/corpus, or
# $HLOIDX_CORPUS), modules separated by "// -----" lines, repeated until the
# size is reached. `wc -l`, `hloidx --check --jobs=1` (one thread) and
# `hloidx --check` (default: one thread per processor) run RUNS times
# (default 5) on the cached file (read again before each run); the best
# time of each is reported, with MB/s and the ratio to `wc -l`.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
hloidx=${1:-$root/build/hloidx}
size_mb=${2:-100}
runs=${RUNS:-5}

[ -x "$hloidx" ] || { echo "no hloidx binary at $hloidx" >&2; exit 2; }
out=$("$root/bench/make_input.sh" "$size_mb")
bytes=$(stat -c %s "$out")

# The input must be valid, or the timing would measure an early exit.
"$hloidx" --check "$out"

. "$root/bench/best_time.sh"

warm=$out # read before each timed run (best_time.sh): the page cache stays warm
jobs=$(nproc)
t_wc=$(best_time wc -l "$out")
t_one=$(best_time "$hloidx" --check --jobs=1 "$out")
t_check=$(best_time "$hloidx" --check "$out")
# awk, not bc: minimal systems may lack bc
awk -v bytes="$bytes" -v tw="$t_wc" -v t1="$t_one" -v tc="$t_check" -v out="$out" -v jobs="$jobs" \
    -v mods="$(grep -c '^// -----$' "$out")" 'BEGIN {
  mb = bytes / 1048576
  printf "input                  %s (%.1f MB, %d modules)\n", out, mb, mods
  printf "wc -l                  %.3f s  %8.1f MB/s\n", tw, mb / tw
  printf "hloidx --check --jobs=1 %.3f s  %8.1f MB/s  %5.1fx wc -l\n", t1, mb / t1, t1 / tw
  printf "hloidx --check (%2d)    %.3f s  %8.1f MB/s  %5.1fx wc -l   (default --jobs: %d processors)\n", jobs, tc, mb / tc, tc / tw, jobs
}'
