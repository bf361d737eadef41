# Sourced by the bench scripts: best_time prints the best wall time in
# seconds of "$@" over $runs runs (stdout to /dev/null). When $warm names a
# file, it is read just before each run, untimed: some machines (the
# development VM among them) drop file pages from the page cache within
# seconds, and every command is to be timed on a cached input.
best_time() {
  local b="" t0 t1
  for _ in $(seq "$runs"); do
    if [ -n "${warm:-}" ]; then cat "$warm" > /dev/null; fi
    t0=$(date +%s.%N)
    "$@" > /dev/null
    t1=$(date +%s.%N)
    b=$(awk -v a="$t0" -v z="$t1" -v b="$b" 'BEGIN { t = z - a; if (b == "" || t < b) b = t; printf "%.6f", b }')
  done
  echo "$b"
}
