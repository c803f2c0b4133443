#!/usr/bin/env bash
# Builds the .deb (and .tar.gz) from a configured, built build directory, installs the .deb
# into this machine with dpkg (apt-get pulls missing dependencies), runs the INSTALLED copy
# (`--version`, `catalog list` against an empty data dir), checks the package contents, and
# removes the package again. CI runs it after ctest; run as root (or with sudo).
#   usage: packaging/deb-smoke-test.sh [BUILD_DIR]   (default: build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${1:-build/release}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive

fail() { echo "deb-smoke-test: FAILED: $*" >&2; exit 1; }

[ -f "$build_dir/CPackConfig.cmake" ] || fail "$build_dir is not a configured build directory"
version=$(sed -n 's/^set(CPACK_PACKAGE_VERSION "\(.*\)")$/\1/p' "$build_dir/CPackConfig.cmake")
[ -n "$version" ] || fail "no CPACK_PACKAGE_VERSION in $build_dir/CPackConfig.cmake"

echo "== cpack (DEB, TGZ) in $build_dir"
rm -f "$build_dir"/clusterplan_*.deb
(cd "$build_dir" && cpack -G "DEB;TGZ" >cpack.log 2>&1) || { cat "$build_dir/cpack.log"; fail "cpack"; }
deb=$(ls "$build_dir"/clusterplan_"${version}"_*.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || fail "cpack produced no clusterplan_${version}_*.deb"
echo "package: $deb ($(stat -c %s "$deb") bytes)"
dpkg-deb -f "$deb" Package Version Depends

echo "== contents"
contents=$(dpkg-deb -c "$deb")
for path in ./usr/bin/clusterplan \
            ./usr/share/applications/clusterplan.desktop \
            ./usr/share/icons/hicolor/scalable/apps/clusterplan.svg \
            ./usr/share/metainfo/io.github.clusterplan.ClusterPlan.metainfo.xml; do
  grep -q " ${path}\$" <<<"$contents" || fail "$deb lacks $path"
  echo "ok  ${path#.}"
done
if grep -q ' ./usr/bin/clusterplan-probe$' <<<"$contents"; then echo "ok  /usr/bin/clusterplan-probe"; fi

if dpkg -s clusterplan >/dev/null 2>&1; then
  fail "a clusterplan package is already installed; remove it first (dpkg -r clusterplan)"
fi
work=$(mktemp -d)
cleanup() { $SUDO dpkg -r clusterplan >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT

echo "== dpkg -i"
if ! $SUDO dpkg -i "$deb" >"$work/dpkg.log" 2>&1; then
  # Unmet dependencies leave the package unconfigured; apt resolves and configures it.
  $SUDO apt-get install -f -y --no-install-recommends >>"$work/dpkg.log" 2>&1 \
    || { cat "$work/dpkg.log"; fail "dependencies of $deb could not be installed"; }
fi
[ "$(dpkg-query -W -f='${Status}' clusterplan)" = "install ok installed" ] || fail "clusterplan is not installed"

app=/usr/bin/clusterplan
missing=$(ldd "$app" | grep 'not found' || true)
[ -z "$missing" ] || fail "installed $app misses libraries: $missing"

echo "== run the installed copy"
out=$(env -u CLUSTERPLAN_DATA_DIR "$app" --version) || fail "$app --version exited $?"
echo "$out"
[ "$out" = "clusterplan $version" ] || fail "$app --version printed '$out', expected 'clusterplan $version'"

data_dir="$work/data"
mkdir -p "$data_dir"
set +e
CLUSTERPLAN_DATA_DIR="$data_dir" QT_QPA_PLATFORM=offscreen "$app" catalog list >"$work/list.out" 2>"$work/list.err"
rc=$?
set -e
head -n 5 "$work/list.out"
rows=$(wc -l <"$work/list.out")
echo "... ($rows lines)"
if [ "$rc" -ne 0 ] || [ "$rows" -lt 2 ]; then
  cat "$work/list.err" >&2
  fail "'$app catalog list' exited $rc with $rows lines of output"
fi

# The GUI from the installed copy: the offscreen platform plugin and every library it loads at
# run time must be there, so the window is still up after a few seconds (timeout's 124).
if dpkg-deb -f "$deb" Depends | grep -q libqt6widgets6; then
  set +e
  CLUSTERPLAN_DATA_DIR="$data_dir" QT_QPA_PLATFORM=offscreen timeout 6 "$app" >"$work/gui.log" 2>&1
  rc=$?
  set -e
  if [ "$rc" -ne 124 ]; then cat "$work/gui.log" >&2; fail "the installed GUI exited with $rc within 6 s"; fi
  echo "ok  GUI starts (offscreen) and keeps running"
fi

echo "== dpkg -r"
$SUDO dpkg -r clusterplan >/dev/null
[ ! -e "$app" ] || fail "$app still exists after dpkg -r"
trap - EXIT
rm -rf "$work"
echo "deb-smoke-test: OK ($deb installed, ran, removed)"
