#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks to build and test vnm, then
# configures and builds it in build/. Safe to run again: installed packages
# are kept, and the build is incremental.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${VNM_BUILD_DIR:-$ROOT/build}"

DEBIAN_PACKAGES=(
  build-essential cmake ninja-build python3
  libgtest-dev
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
)

missing=()
for pkg in "${DEBIAN_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$pkg")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi

cmake -G Ninja -S "$ROOT" -B "$BUILD_DIR" \
  -DCMAKE_BUILD_TYPE=Release \
  -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir
ninja -C "$BUILD_DIR"
# Dialect and pass reference pages, generated from the ODS definitions.
ninja -C "$BUILD_DIR" mlir-doc
