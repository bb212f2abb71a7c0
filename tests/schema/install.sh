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
root="$build_dir/schema"
mkdir -p "$root"
if [ -d "$root/node_modules/ajv" ] &&
   cmp -s "$here/package-lock.json" "$root/package-lock.json" &&
   cmp -s "$here/package.json" "$root/package.json"; then
  :
else
  command -v npm >/dev/null 2>&1 || { echo "schema: npm is missing; run scripts/install-deps.sh --test" >&2; exit 1; }
  cp "$here/package.json" "$here/package-lock.json" "$root/"
  (cd "$root" && npm_config_cache="$root/.npm-cache" \
     npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2) ||
    { echo "schema: npm ci failed (it needs the npm registry)" >&2; exit 1; }
fi
echo "$root/node_modules"
