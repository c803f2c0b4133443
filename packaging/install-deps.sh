#!/usr/bin/env bash
# Installs every Debian bookworm package ClusterPlan needs to build, test and package.
# Run as root (or with sudo). CUDA/NCCL are not from apt: probes build only when
# /usr/local/cuda is present.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends \
  build-essential cmake ninja-build pkg-config git ca-certificates file dpkg-dev \
  qt6-base-dev qt6-base-dev-tools qt6-charts-dev qt6-svg-dev libqt6opengl6-dev \
  libqt6svg6 qt6-qpa-plugins libxkbcommon-dev libgl-dev libvulkan-dev \
  libsqlite3-dev sqlite3 libcurl4-openssl-dev libeigen3-dev nlohmann-json3-dev catch2 libfmt-dev libbenchmark-dev \
  poppler-utils fonts-dejavu-core xvfb xauth clang libclang-rt-14-dev clang-format clang-tidy openssh-client
# Packaging and hardening: metadata validators (ctest), llvm-symbolizer for fuzzer stack traces.
$SUDO apt-get install -y --no-install-recommends desktop-file-utils appstream libxml2-utils llvm-14
