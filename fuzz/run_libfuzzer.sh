#!/usr/bin/env bash
# Runs one libFuzzer target for a while, keeps going after crashes, and
# leaves the crash inputs and the grown corpus in a work folder.
#
#   fuzz/run_libfuzzer.sh TARGET SECONDS [WORKDIR] [BUILD]
#
# TARGET is parse, analysis, map, layout or shape_stride; WORKDIR defaults to
# /tmp/hloidx-fuzz/TARGET (grown corpus in WORKDIR/corpus, crash / timeout /
# oom inputs as WORKDIR/crash-*, ..., the log in WORKDIR/log.N); BUILD is a
# build folder configured with CC=clang -DHLOIDX_LIBFUZZER=ON (default
# build-fuzz). The seed corpus BUILD/fuzz/corpus/TARGET is generated from
# testdata/ (fuzz/make_corpus.py) when it is not there, and read, never
# written.
# Reproduce a crash with BUILD/fuzz/fuzz_TARGET CRASHFILE; turn it into a
# regression test by copying it to fuzz/regress/TARGET/.
set -euo pipefail
cd "$(dirname "$0")/.."
t=${1:?target: parse, analysis, map, layout or shape_stride}
secs=${2:?seconds}
work=${3:-/tmp/hloidx-fuzz/$t}
build=${4:-build-fuzz}
bin=$build/fuzz/fuzz_$t
[ -x "$bin" ] || { echo "no $bin: CC=clang cmake -S . -B $build -DHLOIDX_LIBFUZZER=ON && cmake --build $build" >&2; exit 2; }
mkdir -p "$work/corpus"
[ -d "$build/fuzz/corpus/$t" ] || python3 fuzz/make_corpus.py "$build/fuzz/corpus" >/dev/null
n=1
while [ -e "$work/log.$n" ]; do n=$((n + 1)); done
echo "fuzz_$t for ${secs}s, log $work/log.$n"
# -fork=1 with -ignore_*: a crash, a timeout (10 s) or an out-of-memory is
# saved and the fuzzing goes on. -close_fd_mask=1: the targets print nothing,
# but keep stdout quiet anyway.
"$bin" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
  -timeout=10 -rss_limit_mb=2048 -max_len=16384 -close_fd_mask=1 \
  -dict=fuzz/hlo.dict -max_total_time="$secs" -artifact_prefix="$work/" \
  "$work/corpus" "$build/fuzz/corpus/$t" >"$work/log.$n" 2>&1 || true
tail -n 3 "$work/log.$n"
ls "$work" | grep -E '^(crash|timeout|oom|leak|slow-unit)-' || echo "no crash inputs in $work"
