#!/usr/bin/env bash
# Runs Parlour's browser tests (registered in CTest as test_browser).
#
#   run.sh PARLOUR_BINARY BUILD_DIR SOURCE_DIR
#
# - FAILS (does not skip) when node, npm or chromium is missing: `make test`
#   installs them first (scripts/install-deps.sh --test).
# - Installs the pinned playwright-core from package-lock.json into
#   BUILD_DIR/browser/node_modules with `npm ci`, and reuses that install for as
#   long as the lock file is unchanged. No browser is downloaded: the tests
#   launch Debian's /usr/bin/chromium.
# - Screenshots land in BUILD_DIR/browser-shots/ (replaced on every run).
set -euo pipefail

if [ $# -ne 3 ]; then
  echo "usage: $0 PARLOUR_BINARY BUILD_DIR SOURCE_DIR" >&2
  exit 2
fi
binary=$1
build_dir=$(cd "$2" && pwd)
source_dir=$(cd "$3" && pwd)
here="$source_dir/tests/browser"
chromium=${PARLOUR_CHROMIUM:-/usr/bin/chromium}

fail() {
  echo "test_browser: $*" >&2
  exit 1
}

[ -x "$binary" ] || fail "the server binary $binary does not exist; build first"
command -v node >/dev/null 2>&1 || fail "node is missing; run scripts/install-deps.sh --test (make test does)"
command -v npm >/dev/null 2>&1 || fail "npm is missing; run scripts/install-deps.sh --test (make test does)"
[ -x "$chromium" ] || fail "$chromium is missing; run scripts/install-deps.sh --test (make test does)"
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 18 ] || fail "node $(node --version) is too old; 18 or newer is needed"

# -- npm packages, in the build tree ------------------------------------------
modules_root="$build_dir/browser"
bash "$source_dir/tests/support/npm_ci.sh" "$here" "$modules_root" test_browser >/dev/null ||
  fail "could not install the pinned npm packages"

# ajv for the schema checks of every frame the pages receive (tests/schema).
schema_modules=$(bash "$source_dir/tests/schema/install.sh" "$build_dir" "$source_dir") ||
  fail "could not install tests/schema's npm packages"

# -- run ------------------------------------------------------------------------
shots="$build_dir/browser-shots"
rm -rf "$shots"
mkdir -p "$shots"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/parlour-browser.XXXXXX")

# The test runner starts the server and Chromium itself and stops them even when
# a test fails; this is the last line of defence if the runner itself is killed.
# It runs in its own process group, which is taken down as a whole here.
runner_pid=
cleanup() {
  if [ -n "$runner_pid" ]; then
    kill -TERM -- "-$runner_pid" 2>/dev/null || true
    sleep 0.5
    kill -KILL -- "-$runner_pid" 2>/dev/null || true
  fi
  rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 143' TERM INT HUP

export PARLOUR_BINARY="$binary"
export PARLOUR_WEB_ROOT="$source_dir/web-client"
export PARLOUR_SHOTS="$shots"
export PARLOUR_SCRATCH="$scratch"
export PARLOUR_CHROMIUM="$chromium"
export PARLOUR_NODE_MODULES="$modules_root/node_modules"
export PARLOUR_SCHEMA_MODULES="$schema_modules"
export TMPDIR="$scratch" # Chromium's temporary profiles go here too

# One node process per test file, one after another: each file starts its own
# server and Chromium, so files share nothing but the screenshot folder.
start=$(date +%s)
status=0
for file in "$here"/*.test.mjs; do
  # PARLOUR_BROWSER_ONLY=rummy runs only the files whose name contains "rummy".
  case "$(basename "$file")" in *"${PARLOUR_BROWSER_ONLY:-}"*) ;; *) continue ;; esac
  echo "test_browser: $(basename "$file")"
  set +e
  setsid node --test-reporter=spec "$file" &
  runner_pid=$!
  wait "$runner_pid"
  file_status=$?
  set -e
  # Anything the runner left behind in its group (it should leave nothing).
  kill -KILL -- "-$runner_pid" 2>/dev/null || true
  runner_pid=
  if [ "$file_status" -ne 0 ]; then
    echo "test_browser: $(basename "$file") FAILED (exit $file_status)" >&2
    status=1
  fi
done
echo "test_browser: $(($(date +%s) - start)) s in all; screenshots in $shots"
exit "$status"
