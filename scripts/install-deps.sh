#!/usr/bin/env bash
# Installs the Debian (bookworm) packages Parlour needs to build and test, but
# only those that are missing. Prints one line and does nothing else when all
# are present. Runs apt-get as root, or through passwordless sudo; otherwise it
# prints the command to run and exits 1.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  libboost-dev libboost-system-dev
  nlohmann-json3-dev libspdlog-dev libfmt-dev
  libsqlitecpp-dev libsqlite3-dev
  doctest-dev
)

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
  echo "all build dependencies present"
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
