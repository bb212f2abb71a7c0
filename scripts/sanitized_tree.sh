# Sourced by scripts/sanitize.sh and scripts/fuzz.sh: configures the sanitized
# build trees and points every sanitizer at one report folder per run.

# Prints the tree's folder after configuring it. ccache is used when present. A
# tree configured before is configured again only when a -DNAME=VALUE given here
# is not what its cache holds (an option added since, for example).
_configure_tree() {
  local build=$1
  shift
  if [ -f "$build/CMakeCache.txt" ] && _cache_holds "$build/CMakeCache.txt" "$@"; then
    echo "$build"
    return
  fi
  local launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" "${launcher[@]}" >&2
  echo "$build"
}

# Whether the cache file holds every -DNAME=VALUE given.
_cache_holds() {
  local cache=$1
  shift
  local arg name value
  for arg in "$@"; do
    [[ $arg == -D*=* ]] || continue
    name=${arg#-D}
    value=${name#*=}
    name=${name%%=*}
    grep -qxF -- "$value" <(sed -n "s/^${name}:[A-Z]*=//p" "$cache") || return 1
  done
}

# Builds TARGETS in the plain tree build/, configuring it as `make build` does
# when it is not yet. The sanitized trees take the rules (TSan) and the clients
# of a real server (test_integration, test_torture) from there.
build_plain_targets() {
  _configure_tree build >/dev/null
  cmake --build build -j"${JOBS:-2}" --target "$@" >&2
}

# clang, ASan + UBSan, the libFuzzer targets and the tests: one tree serves the
# sanitized suite and the fuzzers, so the rules are compiled for both at once.
configure_asan_tree() {
  for tool in clang clang++; do
    command -v "$tool" >/dev/null || { echo "sanitize: $tool is missing (scripts/install-deps.sh --test installs it)" >&2; return 1; }
  done
  CC=clang CXX=clang++ _configure_tree build-asan -DPARLOUR_FUZZ=ON -DBUILD_TESTING=ON -DPARLOUR_UNITY_SERVER=ON \
    -DPARLOUR_CLIENT_TESTS_DIR="$(pwd)/build/tests" "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$sanitized_asan_flags"
}

# Line tables (-g1) are all a sanitizer report needs to name files and lines,
# and they compile a third faster than full debug information; the ASan tree
# keeps -O2 for the fuzzers' speed, the TSan tree runs the server's tests only
# and compiles faster still at -O1: CI builds both trees from nothing.
sanitized_asan_flags="-O2 -g1 -DNDEBUG"
sanitized_tsan_flags="-O1 -g1 -DNDEBUG"

# The TSan tree links the plain tree's rules library (rules/CMakeLists.txt says
# why), which is built first.
configure_tsan_tree() {
  build_plain_targets parlour_rules
  _configure_tree build-tsan -DPARLOUR_TSAN=ON -DBUILD_TESTING=ON -DPARLOUR_UNITY_SERVER=ON \
    -DPARLOUR_RULES_LIBRARY="$(pwd)/build/rules/libparlour_rules.a" \
    -DPARLOUR_CLIENT_TESTS_DIR="$(pwd)/build/tests" "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$sanitized_tsan_flags"
}

# Empties the tree's report folder, sets the sanitizers' options to write there
# (and to stop at the first report) and SANITIZER_REPORTS to the folder. Call it
# in the shell that runs the tests, not in $(…): its exports must stay.
reset_sanitizer_reports() {
  SANITIZER_REPORTS="$(cd "$1" && pwd)/sanitizer-reports"
  rm -rf "$SANITIZER_REPORTS"
  mkdir -p "$SANITIZER_REPORTS"
  local reports=$SANITIZER_REPORTS
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:print_suppressions=0:log_path=$reports/asan}"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:log_path=$reports/ubsan:suppressions=$PWD/scripts/ubsan.supp}"
  export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:log_path=$reports/tsan}"
  export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$PWD/scripts/lsan.supp:print_suppressions=0}"
  # Tests that measure the server's memory or run it out of descriptors skip
  # those checks: a sanitizer's shadow memory and quarantine make them meaningless.
  export PARLOUR_SANITIZED=1
}

# Fails (and prints them) when any sanitizer wrote a report.
check_sanitizer_reports() {
  local reports=$1
  local found
  found=$(find "$reports" -type f | sort)
  [ -z "$found" ] && { echo "sanitizers: no report"; return 0; }
  echo "sanitizers: $(wc -l <<<"$found") report(s) in $reports" >&2
  while read -r file; do
    echo "== $file" >&2
    head -n 80 "$file" >&2
  done <<<"$found"
  return 1
}
