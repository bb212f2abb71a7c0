#!/usr/bin/env bash
# Installs tests/schema's pinned npm packages (ajv; package-lock.json) into
# BUILD_DIR/schema/node_modules with `npm ci`, once per change of the lock file,
# and prints that folder. Used by run.sh (the frame log check) and by
# tests/browser/run.sh (the browser tests validate what the pages receive).
#
#   install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 BUILD_DIR SOURCE_DIR" >&2; exit 2; }
build_dir=$(cd "$1" && pwd)
here="$(cd "$2" && pwd)/tests/schema"
exec bash "$(dirname "${BASH_SOURCE[0]}")/../support/npm_ci.sh" "$here" "$build_dir/schema" schema
