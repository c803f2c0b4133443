#!/usr/bin/env bash
# The README's test command: installs dependencies, checks formatting, builds everything with
# warnings as errors, runs every test (unit, validation, CLI golden, GUI offscreen) through
# ctest, then packaging and fuzzing (ASan+UBSan on every parser).
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

# Not part of this command yet: clang-tidy (packaging/run-clang-tidy.sh BUILD_DIR, .clang-tidy)
# still reports findings on the Qt-free code, and the sanitizer ctest pass (preset asan) has not
# run clean over the whole tree; both are run by hand (docs/ARCHITECTURE.md, "Checks").

# Packaging and hardening: build the .deb, install it with dpkg, run the installed copy, remove
# it; then every fuzz target for a bounded time (ASan+UBSan, fails on findings).
stage "package smoke test"
bash packaging/deb-smoke-test.sh build/ci
stage "fuzzers"
bash packaging/run-fuzzers.sh
stage "done"
# ctest's summaries once more, so they stay the visible result of this script.
grep -E '^[0-9]+% tests passed' build/ci/ctest-console.log
