#!/usr/bin/env bash
# Installs the Debian (bookworm) packages Parlour needs to build, but only those
# that are missing. Prints one line and does nothing else when all are present.
# Runs apt-get as root, or through passwordless sudo; otherwise it prints the
# command to run and exits 1.
#
#   install-deps.sh          the build packages (what `make run` needs)
#   install-deps.sh --test   also what `make test` needs: clang with its sanitizer
#                            and libFuzzer runtimes (the fuzz targets), Debian's
#                            chromium for the browser tests, PostgreSQL (the
#                            storage tests start a throwaway cluster), and
#                            nodejs + npm when the `node` or `npm` command is
#                            missing (a newer Node.js installed another way is
#                            used as it is)
set -euo pipefail

mode=build
case "${1:-}" in
  "") ;;
  --test) mode=test ;;
  *) echo "usage: $0 [--test]" >&2; exit 2 ;;
esac

packages=(
  build-essential cmake pkg-config
  libboost-dev libboost-system-dev
  nlohmann-json3-dev libspdlog-dev libfmt-dev
  libsqlitecpp-dev libsqlite3-dev libjemalloc-dev libpqxx-dev libssl-dev libsodium-dev
  doctest-dev
)

if [ "$mode" = test ]; then
  packages+=(chromium fonts-dejavu-core clang libclang-rt-14-dev postgresql haproxy nginx openssl)
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    packages+=(nodejs npm)
  fi
fi

if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "install-deps: dpkg-query not found; this script installs Debian packages." >&2
  echo "install-deps: install the equivalents of these by hand: ${packages[*]}" >&2
  exit 1
fi

missing=()
for pkg in "${packages[@]}"; do
  # Captured rather than piped into grep -q, so pipefail cannot misreport.
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  if ! grep -q 'install ok installed' <<<"$status"; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  if [ "$mode" = test ]; then echo "all build and test dependencies present"; else echo "all build dependencies present"; fi
  exit 0
fi

echo "install-deps: missing packages: ${missing[*]}"

if [ "$(id -u)" -eq 0 ]; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo apt-get update
  sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
else
  echo "install-deps: cannot install them without root; please run:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi
