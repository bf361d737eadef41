#!/usr/bin/env bash
# `hloidx --all` against parse-only `hloidx --check`: time and peak RSS.
#
#   bench/all_throughput.sh [HLOIDX] [SIZE_MB]
#
# Inputs: the two largest files of the corpus (../shared/corpus, or
# $HLOIDX_CORPUS), the whole corpus in one run, and a SIZE_MB (default 100)
# file built by bench/make_input.sh (every corpus file followed
# by a "// -----" line, repeated; kept in $TMPDIR, default /tmp). Each
# command runs RUNS times (default 10), --check and --all alternated; see
# bench/measure.py for what is measured. Prints a Markdown table.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
hloidx=${1:-$root/build/hloidx}
size_mb=${2:-100}
runs=${RUNS:-10}
corpus=${HLOIDX_CORPUS:-$root/../shared/corpus}

[ -x "$hloidx" ] || { echo "no hloidx binary at $hloidx" >&2; exit 2; }
[ -d "$corpus" ] || { echo "no corpus at $corpus" >&2; exit 2; }
command -v python3 > /dev/null || { echo "python3 is needed" >&2; exit 2; }

mapfile -t files < <(find "$corpus" -type f \( -name '*.hlo' -o -name '*.txt' \) | LC_ALL=C sort)
[ ${#files[@]} -gt 0 ] || { echo "no .hlo/.txt files in $corpus" >&2; exit 2; }

big=$("$root/bench/make_input.sh" "$size_mb")

# Both commands must accept every input, or the timing would measure an
# early exit (analysis warnings under --all are fine: exit status 0).
"$hloidx" --check "${files[@]}" "$big"
"$hloidx" --all "${files[@]}" > /dev/null 2>&1 || { echo "hloidx --all fails on the inputs" >&2; exit 1; }

mapfile -t largest < <(for f in "${files[@]}"; do printf '%s %s\n' "$(stat -c %s "$f")" "$f"; done |
                       sort -rn | head -2 | cut -d' ' -f2-)
all=$(IFS=+; echo "${files[*]}")
cat "$big" > /dev/null # warm the page cache
echo "hloidx: $hloidx ($("$hloidx" --version)); $runs runs each; $(nproc) CPUs; $(date -u +%Y-%m-%d)"
python3 "$root/bench/measure.py" "$runs" "$hloidx" "${largest[@]}" "$all" "$big"
