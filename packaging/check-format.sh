#!/usr/bin/env bash
# Fails when a tracked C++/CUDA source differs from .clang-format (clang-format 14, Debian's).
# Fix with: git ls-files '*.cpp' '*.h' '*.hpp' '*.cu' | xargs clang-format -i
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "check-format: clang-format not found (apt-get install clang-format)" >&2; exit 1; }
mapfile -t files < <(git ls-files '*.cpp' '*.h' '*.hpp' '*.cu')
if ! clang-format --dry-run --Werror "${files[@]}" 2>build-format.log; then
  grep -E '^[^ ].*: (warning|error):' build-format.log | cut -d: -f1 | sort -u | sed 's/^/  needs clang-format: /'
  rm -f build-format.log
  echo "check-format: sources differ from .clang-format (see the list above)" >&2
  exit 1
fi
rm -f build-format.log
echo "check-format: ${#files[@]} sources match .clang-format"
