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

# The Python the build's tests run (ctest vnm-pytest, lit's generators): the
# first python3 on PATH, as CMake would find it, passed to CMake explicitly so
# both agree. Its packages for pytest come from Debian when it is Debian's own
# (pip refuses to install there), else from pip at pinned versions.
PYTHON="${VNM_PYTHON:-$(command -v python3 || echo /usr/bin/python3)}"
PYTHON_PACKAGES=(numpy==2.3.5 pytest==8.4.2 jax==0.10.2)
python_has_test_packages() {
  "$PYTHON" -c 'import numpy, pytest, jax' 2>/dev/null
}
# vnm.torch.lower (test/python/test_torch_lower.py): torch-mlir has this one
# version on PyPI and works with the torch of the same month. PyPI's Linux
# torch pulls in its CUDA libraries (about 3 GB of wheels, 5.7 GB installed,
# about a minute); the CPU-only wheels live on another index.
# transformers: stock Hugging Face models in test/python/test_torch_bert.py
# (small random configurations, nothing downloaded).
TORCH_PACKAGES=(torch==2.15.0 torch-mlir==20261001 transformers==5.24.0)
python_has_torch_packages() {
  "$PYTHON" -c 'import torch, torch_mlir, transformers' 2>/dev/null
}
python_is_externally_managed() {
  "$PYTHON" -c 'import os, sys, sysconfig
sys.exit(not os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")))' 2>/dev/null
}
# scripts/sanitize.sh (run by scripts/test.sh) builds with clang and its
# sanitizer and libFuzzer runtimes, and symbolizes reports.
if [[ "${VNM_WITH_SANITIZERS:-0}" == 1 ]]; then
  DEBIAN_PACKAGES+=(clang-22 libclang-rt-22-dev llvm-22)
fi
if [[ ! -x "$PYTHON" ]] || python_is_externally_managed; then
  DEBIAN_PACKAGES+=(python3-numpy python3-pytest python3-pip)
fi

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

PYTHON="$(command -v "$PYTHON")"
if python_is_externally_managed; then
  # numpy and pytest came from Debian above; Debian has no jax, torch or
  # torch-mlir, and pip refuses this Python, so those tests are skipped.
  python_has_test_packages && python_has_torch_packages ||
    echo "setup: $PYTHON is Debian's own: the jax and torch tests will be skipped"
else
  if ! python_has_test_packages; then
    echo "setup: installing ${PYTHON_PACKAGES[*]} for $PYTHON"
    "$PYTHON" -m pip install --disable-pip-version-check "${PYTHON_PACKAGES[@]}"
  fi
  if ! python_has_torch_packages; then
    echo "setup: installing ${TORCH_PACKAGES[*]} for $PYTHON"
    "$PYTHON" -m pip install --disable-pip-version-check "${TORCH_PACKAGES[@]}"
  fi
fi

# ptxas and nvdisasm for the static SASS budget of the K loops (ctest
# vnm-sass-budget, bench/sass_budget.py): pinned, as SASS differs between
# ptxas versions; only the two binaries are taken from NVIDIA's PyPI wheels
# (no CUDA install, no GPU needed).
CUDA_TOOLS_VERSION=13.5.37
CUDA_TOOLS_DIR="$BUILD_DIR/cuda-tools"
if ! "$CUDA_TOOLS_DIR/ptxas" --version 2>/dev/null | grep -q "V$CUDA_TOOLS_VERSION" ||
   ! "$CUDA_TOOLS_DIR/nvdisasm" --version 2>/dev/null | grep -q "V$CUDA_TOOLS_VERSION"; then
  echo "setup: fetching ptxas and nvdisasm $CUDA_TOOLS_VERSION into $CUDA_TOOLS_DIR"
  wheels="$(mktemp -d)"
  "$PYTHON" -m pip download --disable-pip-version-check --no-deps \
    --only-binary=:all: -d "$wheels" \
    "nvidia-cuda-nvcc==$CUDA_TOOLS_VERSION" "nvidia-cuda-nvdisasm==$CUDA_TOOLS_VERSION"
  mkdir -p "$CUDA_TOOLS_DIR"
  "$PYTHON" - "$wheels" "$CUDA_TOOLS_DIR" <<'PY'
import glob, os, sys, zipfile
wheels, out = sys.argv[1:]
for wheel in glob.glob(os.path.join(wheels, "*.whl")):
    with zipfile.ZipFile(wheel) as z:
        for name in z.namelist():
            tool = os.path.basename(name)
            if "/bin/" in name and tool in ("ptxas", "nvdisasm"):
                path = os.path.join(out, tool)
                with open(path, "wb") as f:
                    f.write(z.read(name))
                os.chmod(path, 0o755)
PY
  rm -rf "$wheels"
fi

cmake -G Ninja -S "$ROOT" -B "$BUILD_DIR" \
  -DCMAKE_BUILD_TYPE=Release \
  -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
  -DPython3_EXECUTABLE="$PYTHON"
ninja -C "$BUILD_DIR"
# Dialect and pass reference pages, generated from the ODS definitions.
ninja -C "$BUILD_DIR" mlir-doc
