#!/usr/bin/env bash
# Scaling bench: each input shape at 1x, 10x and 100x through every mode;
# prints wall time and peak RSS per size, the time ratios per 10x step and
# whether the peak RSS stays within 2x the input + 16 MB.
#
#   bench/scaling.sh [-b HLOIDX] [-s SHAPES] [-m MODES] [-r RUNS] [-t SECS]
#
#   -b HLOIDX  the binary (default build/hloidx; a release build)
#   -s SHAPES  comma-separated, of concat,tuple,fusion,mofusion,fconcat,instrs,calls (default all)
#   -m MODES   comma-separated mode names (default all; see below)
#   -r RUNS    runs per point below 1 s, best time kept (default 3)
#   -t SECS    time limit per run (default 120); a run over it is shown as >SECS
#
# Shapes (bench/scaling_gen.py; 1x size): concat, a concatenate of 1000
# operands; tuple, a ROOT tuple of 1000 operands; fusion, a fusion of 100
# parameters; mofusion, a fusion of 100 parameters and 100 outputs; fconcat,
# a fusion of 100 parameters whose root concatenates them; instrs,
# 1000 instructions in one computation; calls, a call graph 100 deep. Inputs are written once to $TMPDIR/hloidx_scaling/.
#
# Modes: check (--check), default, all (--all), verify (--all --verify),
# json (--format=json), layout (--layout --all), list (--list), compare
# (--compare=EXPECTED, EXPECTED the default mode's output written before, not
# timed), compare-dumps (--compare=FILE FILE: a dump with itself), symtile
# (--symbolic-tile of the ENTRY root), tiles (--tiles --all: every fusion),
# tilings (--tilings of the ENTRY root).
# Peak RSS is GNU time's %M (apt-get install time). Target: every ratio
# <= 15x per 10x step; RSS <= 2x input + 16 MB ("rss ok").
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

hloidx=$root/build/hloidx
shapes=concat,tuple,fusion,mofusion,fconcat,instrs,calls
modes=check,default,all,verify,json,layout,list,compare,compare-dumps,symtile,tiles,tilings
runs=3
limit=120
while getopts "b:s:m:r:t:" opt; do
  case $opt in
  b) hloidx=$OPTARG ;;
  s) shapes=$OPTARG ;;
  m) modes=$OPTARG ;;
  r) runs=$OPTARG ;;
  t) limit=$OPTARG ;;
  *) sed -n '2,24p' "$0" >&2; exit 2 ;;
  esac
done
[ -x "$hloidx" ] || { echo "no $hloidx (build it first)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "GNU time is needed for the peak RSS (apt-get install time)" >&2; exit 2; }

dir=${TMPDIR:-/tmp}/hloidx_scaling
mkdir -p "$dir"
rm -f "$dir"/*.expected # written again by this binary

base_of() {
  case $1 in
  concat | tuple | instrs) echo 1000 ;;
  fusion | mofusion | fconcat | calls) echo 100 ;;
  *) echo "unknown shape '$1'" >&2; exit 2 ;;
  esac
}

args_of() {
  case $1 in
  check) echo "--check --jobs=1" ;;
  default) echo "" ;;
  all) echo "--all" ;;
  verify) echo "--all --verify" ;;
  json) echo "--format=json" ;;
  layout) echo "--layout --all" ;;
  list) echo "--list" ;;
  compare) echo "--compare=$2.expected" ;;
  compare-dumps) echo "--compare=$2" ;;
  symtile) echo "--symbolic-tile" ;;
  tiles) echo "--tiles --all" ;;
  tilings) echo "--tilings" ;;
  *) echo "unknown mode '$1'" >&2; exit 2 ;;
  esac
}

# One run: prints "SECONDS RSS_KB RC".
one() {
  local file=$1 mode=$2 args t0 t1 rc
  args=$(args_of "$mode" "$file")
  if [ "$mode" = compare ] && [ ! -s "$file.expected" ]; then "$hloidx" "$file" >"$file.expected" 2>/dev/null; fi
  t0=$(date +%s%N)
  # shellcheck disable=SC2086
  /usr/bin/time -f %M -o "$dir/rss" timeout "$limit" "$hloidx" $args "$file" >/dev/null 2>"$dir/stderr"
  rc=$?
  t1=$(date +%s%N)
  printf '%s %s %s\n' "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }')" \
    "$(tail -n 1 "$dir/rss" | tr -dc 0-9)" "$rc"
}

# Bytes the run reads: the file; with compare also the expected output,
# with compare-dumps the file twice.
input_size() {
  local n
  n=$(stat -c %s "$1")
  case $2 in
  compare) n=$((n + $(stat -c %s "$1.expected"))) ;;
  compare-dumps) n=$((2 * n)) ;;
  esac
  echo "$n"
}

# Best of RUNS (one run when it takes 1 s or more): "SECONDS RSS_KB RC".
best() {
  local file=$1 mode=$2 i t rss rc bt="" brss=0 brc=0
  for ((i = 0; i < runs; i++)); do
    read -r t rss rc < <(one "$file" "$mode")
    if [ -z "$bt" ] || awk -v a="$t" -v b="$bt" 'BEGIN { exit !(a < b) }'; then bt=$t; fi
    [ "${rss:-0}" -gt "$brss" ] && brss=${rss:-0}
    brc=$rc
    if [ "$rc" -eq 124 ] || awk -v a="$t" 'BEGIN { exit !(a >= 1) }'; then break; fi
  done
  echo "$bt $brss $brc"
}

printf '| shape | mode | 1x | 10x | 100x | ratios | peak RSS (MB) 1x / 10x / 100x | input 100x (MB) | rss |\n'
printf '| --- | --- | ---: | ---: | ---: | --- | --- | ---: | --- |\n'
IFS=, read -r -a shape_list <<<"$shapes"
IFS=, read -r -a mode_list <<<"$modes"
fail=0
for shape in "${shape_list[@]}"; do
  b=$(base_of "$shape") || exit 2
  files=()
  for s in 1 10 100; do
    f=$dir/${shape}_$((b * s)).hlo
    [ -s "$f" ] || python3 "$root/bench/scaling_gen.py" "$shape" $((b * s)) >"$f"
    files+=("$f")
  done
  for mode in "${mode_list[@]}"; do
    args_of "$mode" x >/dev/null || exit 2
    times=() rsss=() ok=yes cells=() rcs=""
    for f in "${files[@]}"; do
      read -r t rss rc < <(best "$f" "$mode")
      size=$(input_size "$f" "$mode")
      if [ "$rc" -eq 124 ]; then
        cells+=(">${limit} s")
        times+=("")
      else
        cells+=("$(printf '%.3f s' "$t")")
        times+=("$t")
      fi
      [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && rcs="$rcs exit $rc"
      rsss+=("$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')")
      if [ "$rss" -gt $(((2 * size + 16 * 1024 * 1024) / 1024)) ]; then ok=no; fi
    done
    ratios=$(awk -v a="${times[0]}" -v b="${times[1]}" -v c="${times[2]}" 'BEGIN {
      if (a == "" || b == "") r1 = "-"; else r1 = sprintf("%.1fx", b / a)
      if (b == "" || c == "") r2 = "-"; else r2 = sprintf("%.1fx", c / b)
      print r1 ", " r2 }')
    for r in ${ratios//,/ }; do
      case $r in -) fail=1 ;; *) awk -v x="${r%x}" 'BEGIN { exit !(x > 15) }' && fail=1 ;; esac
    done
    [ $ok = no ] && fail=1
    [ -n "$rcs" ] && fail=1
    mb=$(awk -v s="$(input_size "${files[2]}" "$mode")" 'BEGIN { printf "%.1f", s / 1048576 }')
    printf '| %s %s | %s | %s | %s | %s | %s | %s / %s / %s | %s | %s%s |\n' "$shape" "$((b))" "$mode" \
      "${cells[0]}" "${cells[1]}" "${cells[2]}" "$ratios" "${rsss[0]}" "${rsss[1]}" "${rsss[2]}" "$mb" \
      "$([ $ok = yes ] && echo ok || echo OVER)" "$rcs"
  done
done
exit $fail
