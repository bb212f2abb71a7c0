#!/usr/bin/env bash
# The ctest test schema_frames: checks the frame log that test_integration wrote
# (PARLOUR_FRAME_LOG, tests/support/ws_client.h) against protocol/schema, and that the
# committed schema files are what protocol/schema/build.mjs writes.
#
#   run.sh BUILD_DIR SOURCE_DIR FRAME_LOG
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 BUILD_DIR SOURCE_DIR FRAME_LOG" >&2; exit 2; }
command -v node >/dev/null 2>&1 || { echo "schema_frames: node is missing; run scripts/install-deps.sh --test" >&2; exit 1; }
modules=$(bash "$2/tests/schema/install.sh" "$1" "$2")
PARLOUR_SCHEMA_MODULES="$modules" exec node "$2/tests/schema/validate_frames.mjs" "$3"
