#!/usr/bin/env bash
# Type-checks the browser client (registered in CTest as test_types):
# tsc --noEmit -p web-client, with web-client/jsconfig.json and the wire types in
# web-client/types/. Nothing is built or emitted: the client stays plain ES modules.
#
#   run.sh BUILD_DIR SOURCE_DIR
#
# - FAILS (does not skip) when node or npm is missing: `make test` installs them
#   first (scripts/install-deps.sh --test).
# - Installs the pinned typescript from package-lock.json into
#   BUILD_DIR/types/node_modules with `npm ci`, and reuses that install for as long
#   as the lock file is unchanged (as tests/browser/run.sh does).
set -euo pipefail

if [ $# -ne 2 ] && [ $# -ne 3 ]; then
  echo "usage: $0 BUILD_DIR SOURCE_DIR [FRAME_LOG]" >&2
  exit 2
fi
frame_log=${3:-}
build_dir=$(cd "$1" && pwd)
source_dir=$(cd "$2" && pwd)
here="$source_dir/tests/types"

fail() {
  echo "test_types: $*" >&2
  exit 1
}

command -v node >/dev/null 2>&1 || fail "node is missing; run scripts/install-deps.sh --test (make test does)"
command -v npm >/dev/null 2>&1 || fail "npm is missing; run scripts/install-deps.sh --test (make test does)"
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 18 ] || fail "node $(node --version) is too old; 18 or newer is needed"

# -- npm packages, in the build tree ------------------------------------------
modules_root="$build_dir/types"
bash "$source_dir/tests/support/npm_ci.sh" "$here" "$modules_root" test_types >/dev/null ||
  fail "could not install the pinned npm packages"

# -- check ----------------------------------------------------------------------
start=$(date +%s)
# With a frame log (types_frames): the wire types against real frames (check_frames.mjs).
if [ -n "$frame_log" ]; then
  [ -f "$frame_log" ] || fail "$frame_log does not exist (test_integration writes it, with PARLOUR_FRAME_LOG set)"
  out="$modules_root/frames"
  rm -rf "$out"
  node "$here/check_frames.mjs" "$frame_log" "$out" || fail "could not sample $frame_log"
  if "$modules_root/node_modules/.bin/tsc" --pretty false -p "$out"; then
    echo "types_frames: the frames are of the wire's types ($(($(date +%s) - start)) s)"
    exit 0
  fi
  echo "types_frames: a frame the wire types do not describe (above; the frames are in $out/frames_check.ts)" >&2
  exit 1
fi
echo "test_types: $("$modules_root/node_modules/.bin/tsc" --version), tsc --noEmit -p web-client"
# --pretty false: one line per error, file(line,col), readable in ctest's log.
if "$modules_root/node_modules/.bin/tsc" --noEmit --pretty false -p "$source_dir/web-client"; then
  echo "test_types: no type errors ($(($(date +%s) - start)) s)"
else
  echo "test_types: type errors above ($(($(date +%s) - start)) s)" >&2
  exit 1
fi
