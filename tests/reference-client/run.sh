#!/usr/bin/env bash
# Runs the reference client over every game of GAMES.md against a fresh server
# (registered in CTest as test_reference_client).
#
#   run.sh PARLOUR_BINARY BUILD_DIR SOURCE_DIR
#
# - FAILS (does not skip) when node or npm is missing: `make test` installs them
#   first (scripts/install-deps.sh --test).
# - Installs the pinned `ws` from package-lock.json into BUILD_DIR/reference-client
#   with `npm ci`, reused for as long as the lock file is unchanged.
# - Starts the built parlour on a free loopback port with a temporary database,
#   quick bots and a short pause between deals, and stops it at the end.
# - PARLOUR_REFCLIENT_GAMES=red_dog,rams plays those games only (default: all,all,all:
#   every game three times, each table with a seed of its own: 6-20 s in all);
#   PARLOUR_REFCLIENT_PARALLEL sets how many tables are played at once (default 6).
set -euo pipefail

if [ $# -ne 3 ]; then
  echo "usage: $0 PARLOUR_BINARY BUILD_DIR SOURCE_DIR" >&2
  exit 2
fi
binary=$1
build_dir=$(cd "$2" && pwd)
source_dir=$(cd "$3" && pwd)
here="$source_dir/tests/reference-client"

fail() {
  echo "test_reference_client: $*" >&2
  exit 1
}

[ -x "$binary" ] || fail "the server binary $binary does not exist; build first"
command -v node >/dev/null 2>&1 || fail "node is missing; run scripts/install-deps.sh --test (make test does)"
command -v npm >/dev/null 2>&1 || fail "npm is missing; run scripts/install-deps.sh --test (make test does)"
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 18 ] || fail "node $(node --version) is too old; 18 or newer is needed"

# -- npm packages, in the build tree ------------------------------------------
modules_root="$build_dir/reference-client"
bash "$source_dir/tests/support/npm_ci.sh" "$here" "$modules_root" test_reference_client >/dev/null ||
  fail "could not install the pinned npm packages"
export PARLOUR_NODE_MODULES="$modules_root/node_modules"

# -- the server -----------------------------------------------------------------
scratch=$(mktemp -d "${TMPDIR:-/tmp}/parlour-refclient.XXXXXX")
server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then
    kill -TERM "$server_pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 143' TERM INT HUP

port=$(node -e 'const s = require("net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });')
# Every game's table registers a name of its own: more than the default 20 an hour.
"$binary" --port "$port" --bind 127.0.0.1 --db "$scratch/parlour.db" \
  --web-root "$source_dir/web-client" --log-level warn \
  --bot-delay-ms 5 --deal-pause-ms 300 --registrations-per-ip-per-hour 1000 \
  >"$scratch/server.log" 2>&1 &
server_pid=$!
node -e '
  const url = process.argv[1];
  const deadline = Date.now() + 10000;
  (async function poll() {
    try { if ((await fetch(url)).status === 200) return; } catch {}
    if (Date.now() > deadline) { console.error("no answer from " + url); process.exit(1); }
    setTimeout(poll, 50);
  })();' "http://127.0.0.1:$port/healthz" ||
  { tail -n 40 "$scratch/server.log" >&2; fail "the server did not come up on port $port"; }

# -- the games ------------------------------------------------------------------
# ajv for the schema check of every frame (tests/schema, as the other suites).
PARLOUR_SCHEMA_MODULES=$(bash "$source_dir/tests/schema/install.sh" "$build_dir" "$source_dir") ||
  fail "could not install tests/schema's npm packages"
export PARLOUR_SCHEMA_MODULES
status=0
# Seeded, so that CI plays the same tables every run (PARLOUR_REFCLIENT_SEED to vary them).
node "$here/client.mjs" --url "ws://127.0.0.1:$port/ws" --game "${PARLOUR_REFCLIENT_GAMES:-all,all,all}" \
  --seed "${PARLOUR_REFCLIENT_SEED:-1}" \
  --parallel "${PARLOUR_REFCLIENT_PARALLEL:-6}" --timeout-s 120 || status=$?
if [ "$status" -ne 0 ]; then
  echo "test_reference_client: the server's last log lines:" >&2
  tail -n 40 "$scratch/server.log" >&2
fi
exit "$status"
