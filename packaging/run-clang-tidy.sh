#!/usr/bin/env bash
# Runs clang-tidy (checks in .clang-tidy, every finding an error) over the Qt-free code — the
# libraries every front end uses (sim, catalog, service, CLI, remote runner, the probes' host
# code) — that the given build compiled, using its compile_commands.json. The Qt front ends are
# held to -Werror and the sanitizer pass instead: parsing Qt's headers would double CI's time.
#   usage: packaging/run-clang-tidy.sh BUILD_DIR [JOBS]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:?usage: run-clang-tidy.sh BUILD_DIR [JOBS]}"
jobs="${2:-$(nproc 2>/dev/null || echo 2)}"
command -v clang-tidy >/dev/null || { echo "run-clang-tidy: clang-tidy not found (apt-get install clang-tidy)" >&2; exit 1; }
[ -f "$build/compile_commands.json" ] || { echo "run-clang-tidy: no $build/compile_commands.json (configure first)" >&2; exit 1; }
files=()
while IFS= read -r f; do
  # Only what this build compiled (the probes exist only where CUDA was found).
  grep -qF "$(pwd)/$f\"" "$build/compile_commands.json" && files+=("$f")
done < <(git ls-files 'sim/*.cpp' 'catalog/*.cpp' 'app/service/*.cpp' 'app/cli/*.cpp' \
                      'app/remote/*.cpp' 'probes/*.cpp')
log="$build/clang-tidy.log"
: >"$log"
start=$(date +%s)
printf '%s\n' "${files[@]}" | xargs -P "$jobs" -n 4 clang-tidy -p "$build" --quiet \
  --extra-arg=-Wno-unknown-warning-option >>"$log" 2>&1 || status=$?
# GCC-only flags in the build (-Wno-restrict) are not clang's business, hence the extra argument.
# A finding is any diagnostic, with or without a file in front, and any file clang could not parse.
pattern='(^|: )(fatal )?(warning|error): |^Error while processing'
findings=$(grep -cE "$pattern" "$log" || true)
echo "run-clang-tidy: ${#files[@]} files in $(( $(date +%s) - start )) s, $findings findings"
if [ "${status:-0}" -ne 0 ] || [ "$findings" -ne 0 ]; then
  grep -E "$pattern" "$log" | sort -u | head -50
  [ "$findings" -ne 0 ] || echo "run-clang-tidy: clang-tidy exited with status $status (log: $log)" >&2
  exit 1
fi
