#!/usr/bin/env bash
# Sets up and builds vnm, then compiles the shipped example and shows what
# came out at each stage.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${VNM_BUILD_DIR:-$ROOT/build}"
EXAMPLE="$ROOT/examples/linear_spmm.mlir"

"$ROOT/scripts/setup.sh"
VNM_OPT="$BUILD_DIR/bin/vnm-opt"

echo
echo "== 1. $EXAMPLE parsed, verified and printed by vnm-opt"
"$VNM_OPT" "$EXAMPLE"

echo
echo "== 2. encoded tensors expanded into storage arrays, then bufferized"
"$VNM_OPT" "$EXAMPLE" --vnm-expand-storage \
  --one-shot-bufferize=bufferize-function-boundaries --canonicalize

echo
echo "== 3. the kernel's tile program: its K loop as vnm-lower-to-gpu emits it, after vnm-pipeline-kernels and unrolled by vnm-unroll-kernel-loops"
STAGED="$BUILD_DIR/example-staged"
"$VNM_OPT" "$EXAMPLE" -o "$STAGED.plain.mlir" --vnm-expand-storage \
  --one-shot-bufferize=bufferize-function-boundaries --vnm-choose-config \
  --vnm-lower-to-gpu
"$VNM_OPT" "$STAGED.plain.mlir" -o "$STAGED.pipelined.mlir" --vnm-pipeline-kernels
# This kernel's blocks of 4 warps keep the loop rolled by default (rolled,
# they measured faster); factor=3, the ring's depth, shows the unrolled form
# that the default gives blocks of 8 warps.
"$VNM_OPT" "$STAGED.pipelined.mlir" -o "$STAGED.unrolled.mlir" \
  --vnm-unroll-kernel-loops=factor=3
outline() {
  # One line per run of equal tile ops: loops, copies, waits, loads, MMAs.
  grep -oE "scf\.for|scf\.yield|vnm_gpu\.(load_colloc|gather|copy_tile|load_sparse_a|load_b|mma_sp|epilogue)|vnm_gpu\.wait %[0-9a-z_]+ pending\([0-9]+\)" "$1" |
    sed -E 's/ %[0-9a-z_]+ / /' | uniq -c
}
echo "-- plain ($STAGED.plain.mlir):"
outline "$STAGED.plain.mlir"
echo "-- pipelined ($STAGED.pipelined.mlir):"
outline "$STAGED.pipelined.mlir"
echo "-- unrolled by the ring's depth (factor=3; rolled in this kernel's default), every slot a constant ($STAGED.unrolled.mlir):"
outline "$STAGED.unrolled.mlir"
echo "-- the tile program, unrolled, run on the CPU: convert-vnm-gpu-to-loops gives"
"$VNM_OPT" "$STAGED.unrolled.mlir" --convert-vnm-gpu-to-loops |
  grep -oE "func\.func @[a-z0-9_]+_cpu\([^)]*\)"

echo
echo "== 4. GPU code: the spmm as a sparse-tensor-core kernel (PTX for sm_90)"
GPU_DIR="$BUILD_DIR/example-gpu"
rm -rf "$GPU_DIR"
"$VNM_OPT" "$EXAMPLE" -o "$GPU_DIR.mlir" \
  --vnm-lower-to-nvvm-pipeline="chip=sm_90 features=+ptx85 format=isa dump-dir=$GPU_DIR"
ls -l "$GPU_DIR"
echo "-- key instructions in $GPU_DIR/vnm_kernels.ptx:"
grep -oE "mma\.sp::ordered_metadata[a-z0-9.:]*|ldmatrix[a-z0-9.]*|cp\.async\.cg\.shared\.global" \
  "$GPU_DIR/vnm_kernels.ptx" | sort | uniq -c
PTXAS="$(command -v ptxas || true)"
[[ -z "$PTXAS" && -x /usr/local/cuda/bin/ptxas ]] && PTXAS=/usr/local/cuda/bin/ptxas
if [[ -n "$PTXAS" ]]; then
  echo "-- ptxas -arch=sm_90:"
  "$PTXAS" -arch=sm_90 -v "$GPU_DIR/vnm_kernels.ptx" -o "$GPU_DIR/vnm_kernels.cubin" 2>&1
fi
echo "-- launch contract $GPU_DIR/spmm_0.json:"
cat "$GPU_DIR/spmm_0.json"

echo
echo "== 5. the weight's format: storage sizes and pruning statistics"
"$BUILD_DIR/bin/vnm-format-info" --rows=4096 --cols=4096 --type=f16 \
  --v=64 --n=2 --m=8
