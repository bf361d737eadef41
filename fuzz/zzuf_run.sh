#!/usr/bin/env bash
# Mutation smoke test with zzuf: every input file, mutated, through hloidx
# in several modes, against the sanitizer build.
#
#   fuzz/zzuf_run.sh [-n RUNS] [-b BUILD] [-o OUTDIR] [-j JOBS]
#
#   -n RUNS    mutated inputs in all (default 10000)
#   -b BUILD   build folder with the ASan + UBSan hloidx (default build-asan:
#              cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DHLOIDX_SANITIZE=ON)
#   -o OUTDIR  work folder (default /tmp/hloidx-zzuf); failures are kept in
#              OUTDIR/failures/ (input, command line, stdout, stderr)
#   -j JOBS    parallel runs (default 1)
#
# Inputs: every .hlo, .map, .ss, .txt, .maps and .json input under testdata/
# (not the expected .out / .err files), every seed under BUILD/fuzz/corpus/
# (generated from testdata/ by fuzz/make_corpus.py when missing) and
# fuzz/regress/, and
# every file under ../shared/corpus/ when it exists. Run i takes file
# i mod #files; the mode, the zzuf ratio and the seed change from one pass
# over the files to the next, so each file is mutated several ways:
#     zzuf -s SEED -r RATIO < FILE > OUTDIR/work/J/NAME     (zzuf as a filter)
#     timeout 10 BUILD/hloidx MODE NAME                     (in OUTDIR/work/J)
# Modes: --map for map inputs (.map files and corpus/map, fuzz/regress/map);
# --shape-stride --grid --at=1,2 --offset=5 for layout expressions (.ss files
# and corpus/shape_stride, fuzz/regress/shape_stride);
# --compare NAME --all EXAMPLE for goldens (testdata/compare/*.maps, *.json,
# corpus/compare; EXAMPLE = testdata/examples/softmax_fusion.hlo);
# otherwise, in turn, --check, the default (indexing maps of the ENTRY root),
# --physical, --layout --all, --layout, --compare=EXAMPLE (two dumps), --all,
# --all --verify, --format=json, --list, --symbolic-tile, --tiles --all,
# --tilings and --physical=tiled.
#
# Outcomes:
#   ok        exit 0
#   rejected  exit 1, and the first diagnostic on stderr that is not a
#             warning (an earlier module's or --compare's --all walks', echo
#             and caret lines included) is a `NAME:LINE:COL: error: ` line
#   differs   --compare: exit 1 without an error on stderr (differences
#             reported; warnings of its --all walks allowed)
#   failure   anything else: a signal, a sanitizer report, a timeout (10 s),
#             exit 1 without such a line, exit 2 or 3, stdout that is not
#             clean text (valid UTF-8 without control characters other than
#             tab and newline), or stderr that is not printable ASCII (input
#             bytes are echoed as '?')
# The summary counts each outcome per mode; the exit status is 1 when there
# was any failure. Everything is deterministic: rerunning gives the same
# inputs.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD

runs=10000
build=build-asan
out=/tmp/hloidx-zzuf
jobs=1
while getopts "n:b:o:j:" opt; do
  case $opt in
  n) runs=$OPTARG ;;
  b) build=$OPTARG ;;
  o) out=$OPTARG ;;
  j) jobs=$OPTARG ;;
  *) sed -n '2,15p' "$0" >&2; exit 2 ;;
  esac
done
hloidx=$root/$build/hloidx
command -v zzuf >/dev/null || { echo "zzuf is not installed (apt-get install zzuf)" >&2; exit 2; }
[ -x "$hloidx" ] || { echo "no $hloidx (build it first)" >&2; exit 2; }

[ -d "$build/fuzz/corpus" ] || python3 fuzz/make_corpus.py "$build/fuzz/corpus" >/dev/null
mapfile -t files < <(
  {
    find testdata -type f \( -name '*.hlo' -o -name '*.map' -o -name '*.ss' -o -name '*.txt' -o -name '*.maps' -o -name '*.json' \)
    find "$build/fuzz/corpus" fuzz/regress -type f 2>/dev/null
    [ -d ../shared/corpus ] && find ../shared/corpus -type f ! -name '*.md'
  } | LC_ALL=C sort)
nfiles=${#files[@]}
[ "$nfiles" -gt 0 ] || { echo "no input files" >&2; exit 2; }

rm -rf "$out"
mkdir -p "$out/failures" "$out/work"
ratios=(0.0001 0.0005 0.002 0.005 0.01 0.03)
example=$root/testdata/examples/softmax_fusion.hlo
hlo_modes=("--check" "" "--physical" "--layout --all" "--layout" "--compare=$example" "--all" "--all --verify"
  "--format=json" "--list" "--symbolic-tile" "--tiles --all" "--tilings" "--physical=tiled")

is_golden() {
  case $1 in
  *.maps | *.json | */corpus/compare/* | fuzz/regress/compare/*) return 0 ;;
  *) return 1 ;;
  esac
}

is_map() {
  case $1 in
  *.map | */corpus/map/* | fuzz/regress/map/*) return 0 ;;
  *) return 1 ;;
  esac
}

is_ss() {
  case $1 in
  *.ss | */corpus/shape_stride/* | fuzz/regress/shape_stride/*) return 0 ;;
  *) return 1 ;;
  esac
}

# One run: prints "OUTCOME<TAB>MODE" on stdout.
one() {
  local i=$1 j=$2
  local pass=$((i / nfiles)) f=${files[$((i % nfiles))]}
  local ratio=${ratios[$((pass % ${#ratios[@]}))]} seed=$((i + 1)) mode
  local after=""
  if is_map "$f"; then
    mode="--map"
  elif is_ss "$f"; then
    mode="--shape-stride --grid --at=1,2 --offset=5"
  elif is_golden "$f"; then
    mode="--all --compare" after=$example
  else
    mode=${hlo_modes[$(((pass + i) % ${#hlo_modes[@]}))]}
  fi
  local dir=$out/work/$j name
  name=$(basename "$f")
  name=${name//[^A-Za-z0-9_.-]/_}
  rm -rf "$dir"
  mkdir -p "$dir"
  zzuf -s "$seed" -r "$ratio" <"$f" >"$dir/$name"
  local rc=0
  # shellcheck disable=SC2086
  (cd "$dir" && ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 timeout 10 "$hloidx" $mode "$name" $after >stdout 2>stderr) || rc=$?
  local outcome=ok why=""
  if grep -qE 'ERROR: (Address|Leak|UndefinedBehavior)Sanitizer|runtime error:' "$dir/stderr"; then
    outcome=failure why="sanitizer report"
  elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    outcome=failure why="timeout (10 s)"
  elif [ "$rc" -eq 1 ] && [[ $mode == *--compare* ]] && ! grep -q "error:" "$dir/stderr"; then
    outcome=differs
  elif [ "$rc" -eq 1 ]; then
    outcome=rejected
    # the first diagnostic but warnings; sed reads to the end (under pipefail,
    # head would end the pipe early and fail the grep before it: SIGPIPE)
    local first
    first=$(grep -E "^$name:[0-9]+:[0-9]+: [a-z]+: " "$dir/stderr" | grep -vE "^$name:[0-9]+:[0-9]+: warning: " | sed -n 1p)
    if ! grep -qE "^$name:[0-9]+:[0-9]+: error: " <<<"$first"; then
      outcome=failure why="exit 1 without a FILE:LINE:COL: error: line"
    fi
  elif [ "$rc" -ne 0 ]; then
    outcome=failure why="exit status $rc"
  fi
  if [ "$outcome" != failure ]; then
    if ! iconv -f UTF-8 -t UTF-8 "$dir/stdout" >/dev/null 2>&1; then
      outcome=failure why="stdout is not valid UTF-8"
    elif LC_ALL=C grep -qaP '[\x00-\x08\x0b-\x1f\x7f]' "$dir/stdout"; then
      outcome=failure why="control characters on stdout"
    elif LC_ALL=C grep -qaP '[^\x09\x0a\x20-\x7e]' "$dir/stderr"; then
      outcome=failure why="stderr is not printable ASCII"
    fi
  fi
  if [ "$outcome" = failure ]; then
    local keep=$out/failures/$i
    mkdir -p "$keep"
    cp "$dir/$name" "$dir/stdout" "$dir/stderr" "$keep/"
    printf 'input:   %s\nmutated: zzuf -s %s -r %s < %s > %s\ncommand: hloidx %s %s\nexit:    %s\nwhy:     %s\n' \
      "$f" "$seed" "$ratio" "$f" "$name" "$mode" "$name $after" "$rc" "$why" >"$keep/README"
  fi
  local label=${mode:-(default)}
  label=${label/$example/EXAMPLE}
  printf '%s\t%s\n' "$outcome" "$label"
}

echo "zzuf: $runs runs over $nfiles files, hloidx = $hloidx, $jobs job(s)"
start=$(date +%s)
results=$out/results.tsv
if [ "$jobs" -le 1 ]; then
  for ((i = 0; i < runs; i++)); do
    one "$i" 0
    if (((i + 1) % 1000 == 0)); then echo "  $((i + 1)) runs" >&2; fi
  done >"$results"
else
  # each job gets its own work folder: run i goes to job i mod JOBS
  for ((j = 0; j < jobs; j++)); do
    (
      for ((i = j; i < runs; i += jobs)); do one "$i" "$j"; done >"$out/results.$j"
    ) &
  done
  wait
  cat "$out"/results.* >"$results"
fi
secs=$(($(date +%s) - start))

echo
echo "zzuf summary: $runs runs, $nfiles input files, ${secs}s"
awk -F'\t' '
  { n[$1]++; m[$2]++; c[$2 "\t" $1]++ }
  END {
    printf "  %-16s %7s %9s %8s %8s\n", "mode", "ok", "rejected", "differs", "failure"
    for (k in m) printf "  %-16s %7d %9d %8d %8d\n", k, c[k "\tok"], c[k "\trejected"], c[k "\tdiffers"], c[k "\tfailure"]
    printf "  %-16s %7d %9d %8d %8d\n", "total", n["ok"], n["rejected"], n["differs"], n["failure"]
  }' "$results"
nfail=$(grep -c '^failure' "$results" || true)
if [ "$nfail" -gt 0 ]; then
  echo "FAILURES: $nfail (details in $out/failures/*/README)"
  for d in "$out"/failures/*/; do sed -n 's/^why: *//p' "$d/README"; done | sort | uniq -c
  exit 1
fi
echo "no failures"
