// vnm-opt lists the vnm passes next to the upstream ones a user chains.
// RUN: vnm-opt --help | FileCheck %s

// CHECK-DAG: --vnm-expand-storage {{ *}}- Rewrite encoded tensors into their three storage tensors
// CHECK-DAG: --vnm-sparsify {{ *}}- Rewrite linalg matmuls
// CHECK-DAG: --vnm-lower-to-loops {{ *}}- Lower vnm storage ops on memrefs to loops and runtime calls
// CHECK-DAG: --vnm-lower-to-gpu {{ *}}- Build the vnm_gpu tile program of each vnm.storage.spmm
// CHECK-DAG: --vnm-pipeline-kernels {{ *}}- Software-pipeline the K loops of tile programs
// CHECK-DAG: --vnm-unroll-kernel-loops {{ *}}- Unroll pipelined K loops so that ring slots become constants
// CHECK-DAG: --convert-vnm-gpu-to-nvvm {{ *}}- Lower vnm_gpu tile programs to NVVM
// CHECK-DAG: --vnm-choose-config {{ *}}- Pick the GPU kernel tiling (vnm.config) of each spmm
// CHECK-DAG: --vnm-dump-kernels {{ *}}- Write GPU binaries and launch contracts to files
// CHECK-DAG: --vnm-lower-to-cpu-pipeline {{ *}}- Lower vnm ops on tensors to the LLVM dialect for the CPU
// CHECK-DAG: --vnm-lower-to-nvvm-pipeline {{ *}}- Compile vnm.spmm to sparse-tensor-core kernels
// CHECK-DAG: --one-shot-bufferize
// CHECK-DAG: --convert-gpu-to-nvvm
// CHECK-DAG: --gpu-kernel-outlining
// CHECK-DAG: --nvvm-attach-target
// CHECK-DAG: --gpu-module-to-binary
// CHECK-DAG: --gpu-lower-to-nvvm-pipeline
// CHECK-DAG: --convert-nvgpu-to-nvvm
