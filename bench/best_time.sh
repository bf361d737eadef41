# Sourced by the bench scripts: best_time prints the best wall time in
# seconds of "$@" over $runs runs (stdout to /dev/null).
best_time() {
  local b="" t0 t1
  for _ in $(seq "$runs"); do
    t0=$(date +%s.%N)
    "$@" > /dev/null
    t1=$(date +%s.%N)
    b=$(awk -v a="$t0" -v z="$t1" -v b="$b" 'BEGIN { t = z - a; if (b == "" || t < b) b = t; printf "%.6f", b }')
  done
  echo "$b"
}
