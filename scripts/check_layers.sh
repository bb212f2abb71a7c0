#!/usr/bin/env bash
# The include rule of server/ (docs/architecture.md "Repository layout"): its folders are layers,
# lowest first, and a file may include headers from its own folder and from the
# folders below it, never from one above. main.cpp, at the top, may include any.
# Also: no source file in server/ grows past 800 lines. Run by ctest
# (server_layers) and so by CI; exits non-zero naming each breach.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

layers=(common persistence ledger table history cluster lobby admin net)
max_lines=800

rank() {
  local i
  for i in "${!layers[@]}"; do [ "${layers[$i]}" = "$1" ] && { echo "$i"; return; }; done
  echo -1
}

status=0
for file in server/*; do
  case "$file" in
    server/main.cpp|server/CMakeLists.txt) ;;
    *) [ -d "$file" ] && [ "$(rank "$(basename "$file")")" -ge 0 ] && continue
       echo "$file: not in a layer folder (${layers[*]})"; status=1 ;;
  esac
done
for file in $(find server -name '*.h' -o -name '*.cpp' | sort); do
  lines=$(wc -l <"$file")
  if [ "$lines" -gt "$max_lines" ]; then echo "$file: $lines lines, more than $max_lines"; status=1; fi
  [ "$file" = server/main.cpp ] && continue
  folder=$(basename "$(dirname "$file")")
  own=$(rank "$folder")
  while IFS= read -r included; do
    other=${included#server/}; other=${other%%/*}
    theirs=$(rank "$other")
    if [ "$theirs" -lt 0 ] || [ "$theirs" -gt "$own" ]; then
      echo "$file includes $included: $folder may include only ${layers[*]:0:$((own + 1))}"
      status=1
    fi
  done < <(grep -oE '^#include "server/[^"]+"' "$file" | sed -E 's/#include "(.*)"/\1/')
done
[ $status -eq 0 ] && echo "server/: ${#layers[@]} layers, every include points down, no file over $max_lines lines"
exit $status
