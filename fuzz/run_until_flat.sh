#!/usr/bin/env bash
# Runs one libFuzzer target until its coverage has been flat for a while:
# one fuzzing process (the grown corpus in WORKDIR/corpus, a crash,
# timeout or out-of-memory input kept in WORKDIR and the run stopped on
# it), stopped once the edge count (`cov:` in libFuzzer's status lines:
# edges of the target's code covered) has not grown for FLAT minutes, or
# after MAX minutes. Not -fork: there the `cov:` of the status lines is
# another count (equal to the features at the start, later past the
# target's number of edges), which cannot say when coverage is flat.
#
#   fuzz/run_until_flat.sh TARGET [FLAT_MIN] [MAX_MIN] [WORKDIR] [BUILD]
#
# Defaults: 15, 240, /tmp/hloidx-fuzz/TARGET, build-fuzz. EXTRA_SEEDS
# (directories, space-separated) are read as more seeds, never written: a
# grown corpus of another target that reads the same input (analysis and
# tiles both take HLO text) starts this one past what it shares. Prints a line
# per coverage change (minute, edges, features) and at the end the crash
# inputs found; reproduce one with BUILD/fuzz/fuzz_TARGET FILE and keep it
# as a regression in fuzz/regress/TARGET/.
# Stop it rather than pause it (SIGSTOP, e.g. to time a benchmark): on
# resume libFuzzer's alarm counts the pause against the input it was
# running and writes a false timeout-* input, which ends the run.
set -uo pipefail
cd "$(dirname "$0")/.."
t=${1:?target}
flat=${2:-15}
max=${3:-240}
work=${4:-/tmp/hloidx-fuzz/$t}
build=${5:-build-fuzz}
bin=$build/fuzz/fuzz_$t
[ -x "$bin" ] || { echo "no $bin: CC=clang cmake -S . -B $build -DHLOIDX_LIBFUZZER=ON && cmake --build $build" >&2; exit 2; }
mkdir -p "$work/corpus"
log=$work/flat.log
seeds=$build/fuzz/corpus/$t
[ -d "$seeds" ] || python3 fuzz/make_corpus.py "$build/fuzz/corpus" >/dev/null
[ -d "$seeds" ] || seeds=$(mktemp -d)
read -r -a extra <<<"${EXTRA_SEEDS:-}"
# its own process group: stopped as a whole
setsid "$bin" -timeout=10 -rss_limit_mb=2048 -max_len=16384 -close_fd_mask=1 \
  -dict=fuzz/hlo.dict -max_total_time=$((max * 60)) -artifact_prefix="$work/" \
  "$work/corpus" "$seeds" "${extra[@]}" >"$log" 2>&1 &
pid=$!
start=$(date +%s)
last_cov=-1
last_change=$start
while kill -0 "$pid" 2>/dev/null; do
  sleep 20
  line=$(grep -E 'cov: [0-9]+' "$log" | tail -n 1)
  cov=$(sed -nE 's/.*cov: ([0-9]+).*/\1/p' <<<"$line")
  ft=$(sed -nE 's/.*ft: ([0-9]+).*/\1/p' <<<"$line")
  now=$(date +%s)
  if [ -n "$cov" ] && [ "$cov" != "$last_cov" ]; then
    last_cov=$cov
    last_change=$now
    printf '%s: minute %d: cov %s ft %s\n' "$t" $(((now - start) / 60)) "$cov" "${ft:-?}"
  fi
  if [ $((now - last_change)) -ge $((flat * 60)) ]; then
    printf '%s: coverage flat for %d minutes at cov %s (after %d minutes)\n' "$t" "$flat" "$last_cov" \
      $(((now - start) / 60))
    kill -- "-$pid" 2>/dev/null
    break
  fi
done
wait "$pid" 2>/dev/null
ls "$work" | grep -E '^(crash|timeout|oom|leak|slow-unit)-' || echo "$t: no crash inputs in $work"
