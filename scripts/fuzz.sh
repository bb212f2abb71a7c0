#!/usr/bin/env bash
# Builds the libFuzzer targets with clang, ASan and UBSan in build-asan/ (the tree
# scripts/sanitize.sh address tests in) and runs each one. A crash, a leak or a
# sanitizer report fails the run (exit 1) and leaves the input that caused it in
# build-asan/artifacts/.
#
#   scripts/fuzz.sh smoke        30 seconds of each target (what CI runs)
#   scripts/fuzz.sh runs N       N executions of each target
#   scripts/fuzz.sh seconds N    N seconds of each target
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

mode=${1:-smoke}
count=${2:-}
case "$mode" in
  smoke) limit=(-max_total_time=30) ;;
  runs) limit=(-runs="${count:?runs needs a number}") ;;
  seconds) limit=(-max_total_time="${count:?seconds needs a number}") ;;
  *) echo "usage: $0 smoke | runs N | seconds N" >&2; exit 2 ;;
esac

source scripts/sanitized_tree.sh
build=$(configure_asan_tree)
cmake --build "$build" -j"${JOBS:-2}" --target fuzz_protocol fuzz_games

mkdir -p "$build/artifacts"
# No allocation stack traces: they cost a fifth of the run, and a crash is
# reproduced from its saved input anyway.
export ASAN_OPTIONS="${ASAN_OPTIONS:-malloc_context_size=0:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
status=0
for target in fuzz_protocol fuzz_games; do
  corpus="$build/corpus/$target"
  mkdir -p "$corpus"
  seeds="tests/fuzz/seeds/$target"
  echo "== $target ${limit[*]}"
  if ! "$build/tests/fuzz/$target" "${limit[@]}" -max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$build/artifacts/$target-" "$corpus" "$seeds" 2>"$build/$target.log"; then
    status=1
    tail -n 60 "$build/$target.log" >&2
  fi
  grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|Done)" "$build/$target.log" || true
done
exit $status
