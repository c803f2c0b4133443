#!/usr/bin/env bash
# The README's test command: installs dependencies, builds everything and runs every test
# (unit, validation, CLI golden, GUI offscreen) through ctest. `.ci/run` calls exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
export QT_QPA_PLATFORM=offscreen
jobs=$(nproc 2>/dev/null || echo 2)
cmake --preset release
cmake --build --preset release -j "$jobs"
ctest --preset release -j "$jobs"
