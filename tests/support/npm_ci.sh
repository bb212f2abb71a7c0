#!/usr/bin/env bash
# Installs the npm packages pinned by PACKAGE_DIR's package.json and
# package-lock.json into TARGET_DIR/node_modules with `npm ci`, once per change
# of either file (a copy of both is kept beside the install to tell), and prints
# that node_modules folder. The npm cache lives in TARGET_DIR too, so a
# read-only or missing HOME does not matter. --ignore-scripts: none of the
# suites' packages needs one, and nothing is downloaded but the packages.
# Shared by the browser, type, schema and reference-client suites.
#
#   npm_ci.sh PACKAGE_DIR TARGET_DIR LABEL
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 PACKAGE_DIR TARGET_DIR LABEL" >&2; exit 2; }
here=$(cd "$1" && pwd)
mkdir -p "$2"
root=$(cd "$2" && pwd)
label=$3
if [ -d "$root/node_modules" ] &&
   cmp -s "$here/package-lock.json" "$root/package-lock.json" &&
   cmp -s "$here/package.json" "$root/package.json"; then
  echo "$label: npm packages up to date in $root" >&2
else
  command -v npm >/dev/null 2>&1 || { echo "$label: npm is missing; run scripts/install-deps.sh --test" >&2; exit 1; }
  echo "$label: npm ci in $root" >&2
  cp "$here/package.json" "$here/package-lock.json" "$root/"
  (cd "$root" && npm_config_cache="$root/.npm-cache" \
     npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2) ||
    { echo "$label: npm ci failed (it needs the npm registry)" >&2; exit 1; }
fi
echo "$root/node_modules"
