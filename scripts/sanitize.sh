#!/usr/bin/env bash
# The test suite under the sanitizers, each in a build folder of its own. Any
# sanitizer report fails the run, whoever made it: a test binary, or a parlour
# server that a test started (their reports are written to files, because a
# server's stderr is nobody's to read and a leak found at its exit does not
# change how the test ends).
#
#   sanitize.sh address [CTEST ARGS…]   clang with AddressSanitizer and UBSan, in
#       build-asan/ (the tree scripts/fuzz.sh fuzzes in too): the protocol,
#       storage, server and table-core tests, the integration tests and a short
#       crash torture. The rules are fuzzed there instead (scripts/fuzz.sh).
#   sanitize.sh thread [CTEST ARGS…]    GCC with ThreadSanitizer, in build-tsan/:
#       the integration tests, whose parlour servers run the I/O threads, writer,
#       reader and cluster threads for real. (The server and table-core tests
#       drive one table on one thread: ASan runs them; under TSan they cost CI
#       two minutes of compiling and running and had no thread to race.)
#       The rules are linked from the plain tree's build/ (rules/CMakeLists.txt
#       says why), which this builds first.
# Both run the plain tree's test_integration (in two halves) and test_torture (built first in
# build/) against their own sanitized parlour server: the clients are not the
# code under test, and compiling their Beast-heavy files in every tree cost CI
# minutes (tests/CMakeLists.txt, PARLOUR_CLIENT_TESTS_DIR). The servers they
# start and the `parlour verify` they run are this tree's.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/sanitized_tree.sh

mode=${1:-}
[ $# -gt 0 ] && shift
case "$mode" in
  address)
    build=$(configure_asan_tree)
    clients=(test_integration test_torture)
    targets=(parlour test_protocol test_storage test_server)
    tests='^(test_protocol|test_storage|test_server|test_integration_[12]|test_torture)$'
    ;;
  thread)
    build=$(configure_tsan_tree)
    clients=(test_integration)
    targets=(parlour)
    tests='^test_integration_[12]$'
    ;;
  *) echo "usage: $0 address|thread [ctest arguments…]" >&2; exit 2 ;;
esac

build_plain_targets "${clients[@]}"
cmake --build "$build" -j"${JOBS:-2}" --target "${targets[@]}"
reset_sanitizer_reports "$build"
reports=$SANITIZER_REPORTS
status=0
# -j2: the two halves of the integration tests run side by side (tests/CMakeLists.txt); every other test alone.
ctest --test-dir "$build" --output-on-failure --timeout 1200 -j2 -R "$tests" "$@" || status=$?
check_sanitizer_reports "$reports" || status=1
exit $status
