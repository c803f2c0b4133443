#!/usr/bin/env bash
# The README's test command: installs dependencies, checks formatting, builds everything with
# warnings as errors, runs every test (unit, validation, CLI golden, GUI offscreen) through
# ctest, runs clang-tidy over the Qt-free code, runs the Qt-free tests again under ASan+UBSan,
# then packaging and fuzzing (ASan+UBSan on every parser).
# `.ci/run` calls exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
export QT_QPA_PLATFORM=offscreen
jobs=$(nproc 2>/dev/null || echo 2)
t0=$(date +%s)
stage() { echo "== $1 ($(( $(date +%s) - t0 )) s)"; }

stage "clang-format check"
bash packaging/check-format.sh

stage "build (Release, warnings as errors: preset ci)"
cmake --preset ci
cmake --build --preset ci -j "$jobs"
stage "ctest (preset ci)"
ctest --preset ci -j "$jobs" --output-log build/ci/ctest-console.log

# Static analysis of the Qt-free code (checks in .clang-tidy, any finding fails), then the
# Qt-free libraries and the CLI once more under AddressSanitizer + UBSan (preset asan).
stage "clang-tidy"
bash packaging/run-clang-tidy.sh build/ci "$jobs"
stage "build and ctest under ASan+UBSan (preset asan)"
cmake --preset asan
cmake --build --preset asan -j "$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  ctest --preset asan -j "$jobs" --output-log build/asan/ctest-console.log

# Packaging and hardening: build the .deb, install it with dpkg, run the installed copy, remove
# it; then every fuzz target for a bounded time (ASan+UBSan, fails on findings).
stage "package smoke test"
bash packaging/deb-smoke-test.sh build/ci
stage "fuzzers"
bash packaging/run-fuzzers.sh
stage "done"
# ctest's summaries once more, so they stay the visible result of this script.
grep -h -E '^[0-9]+% tests passed' build/asan/ctest-console.log build/ci/ctest-console.log
