#!/usr/bin/env bash
# Builds the libFuzzer targets with clang, ASan and UBSan in build-asan/ (the tree
# scripts/sanitize.sh address tests in) and runs each one. A crash, a leak or a
# sanitizer report fails the run (exit 1) and leaves the input that caused it in
# build-asan/artifacts/.
#
#   scripts/fuzz.sh smoke        30 seconds of each target, side by side (what CI runs)
#   scripts/fuzz.sh runs N       N executions of each target
#   scripts/fuzz.sh seconds N    N seconds of each target
#   scripts/fuzz.sh long N       N executions of fuzz_games for each game in turn
#                                (PARLOUR_FUZZ_GAME), one process at a time, each
#                                game with its own corpus; a line per game with its
#                                executions, exec/s and coverage (cov, ft)
#   scripts/fuzz.sh long-seconds N   the same, N seconds of each game
#
# In the long modes FUZZ_GAMES="id id …" fuzzes only those games (for example
# half of them in each of two runs side by side, one a core). FUZZ_TIMEOUT sets
# the seconds one input may take before it counts as a hang (10 by default): a
# niced run on a busy machine needs more, since a thorough input of a game
# without snapshots compares every seat's view over several steps.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

mode=${1:-smoke}
count=${2:-}
case "$mode" in
  smoke) limit=(-max_total_time=30) ;;
  runs) limit=(-runs="${count:?runs needs a number}") ;;
  seconds) limit=(-max_total_time="${count:?seconds needs a number}") ;;
  long) limit=(-runs="${count:?long needs a number of runs per game}") ;;
  long-seconds) limit=(-max_total_time="${count:?long-seconds needs a number of seconds per game}") ;;
  *) echo "usage: $0 smoke | runs N | seconds N | long N | long-seconds N" >&2; exit 2 ;;
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
# fuzz TARGET NAME: one libFuzzer run of TARGET whose corpus, log and artifacts are called NAME.
fuzz() {
  local target=$1 name=$2
  local corpus="$build/corpus/$name"
  mkdir -p "$corpus"
  echo "== $name ${limit[*]}"
  local failed=0
  if ! "$build/tests/fuzz/$target" "${limit[@]}" -max_len=4096 -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$build/artifacts/$name-" "$corpus" "tests/fuzz/seeds/$target" 2>"$build/$name.log"; then
    failed=1
    tail -n 60 "$build/$name.log" >&2
  fi
  grep -E "^(stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb|Done)" "$build/$name.log" || true
  # libFuzzer's last status line: the coverage reached (cov: edges, ft: features).
  grep -E "^#[0-9]+[[:space:]]+DONE" "$build/$name.log" || true
  return $failed
}

if [ "$mode" = long ] || [ "$mode" = long-seconds ]; then
  for game in ${FUZZ_GAMES:-$(PARLOUR_FUZZ_GAME=list "$build/tests/fuzz/fuzz_games")}; do
    export PARLOUR_FUZZ_GAME=$game
    fuzz fuzz_games "fuzz_games-$game" || status=1
  done
  unset PARLOUR_FUZZ_GAME
else
  # The two targets side by side, one a core: the smoke takes 30 s, not 60. Each
  # prints its figures when it ends (a run's output is all printed at its end).
  fuzz fuzz_protocol fuzz_protocol > "$build/fuzz_protocol.summary" 2>&1 & protocol_run=$!
  fuzz fuzz_games fuzz_games || status=1
  wait "$protocol_run" || status=1
  cat "$build/fuzz_protocol.summary"
fi
exit $status
