#!/usr/bin/env bash
# Builds the whole project with AddressSanitizer and UBSan (GCC) in build-asan/
# and runs the test suite there (the browser tests aside). Any sanitizer report
# fails the run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=build-asan
if [ ! -f "$build/CMakeCache.txt" ]; then
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPARLOUR_SANITIZE=ON "${launcher[@]}" >/dev/null
fi
cmake --build "$build" -j"${JOBS:-2}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
ctest --test-dir "$build" --output-on-failure --timeout 1200 -E "test_browser|fuzz_smoke|sanitized_suite" "$@"
