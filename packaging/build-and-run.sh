#!/usr/bin/env bash
# The README's run command: installs dependencies, builds, and starts the GUI. Without a
# display it runs a short CLI demo instead (catalog, simulate, recommend).
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
cmake --preset release
cmake --build --preset release -j "$jobs" --target clusterplan
app=build/release/app/clusterplan
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec "$app"
fi
echo "No display found: running the CLI demo (set DISPLAY to open the GUI)."
export CLUSTERPLAN_DATA_DIR="${CLUSTERPLAN_DATA_DIR:-$(mktemp -d)}"
set -x
"$app" --version
"$app" catalog list --family P4d
"$app" catalog show p4d.24xlarge
"$app" simulate resources/scenarios/gpt3-175b-p4d.json
"$app" recommend resources/scenarios/llama3-8b-any.json --top 5
