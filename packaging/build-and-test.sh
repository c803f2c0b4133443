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
ctest --preset release -j "$jobs" --output-log build/release/ctest-console.log
# Packaging and hardening (issue 7): build the .deb, install it with dpkg, run the installed
# copy, remove it; then every fuzz target for a bounded time (ASan+UBSan, fails on findings).
bash packaging/deb-smoke-test.sh build/release
bash packaging/run-fuzzers.sh
# ctest's summary once more, so it stays the visible result of this script.
grep -E '^[0-9]+% tests passed' build/release/ctest-console.log
