// vnm-opt lists the vnm passes next to the upstream ones a user chains.
// RUN: vnm-opt --help | FileCheck %s

// CHECK-DAG: --vnm-expand-storage {{ *}}- Rewrite encoded tensors into their three storage tensors
// CHECK-DAG: --one-shot-bufferize
// CHECK-DAG: --convert-gpu-to-nvvm
// CHECK-DAG: --gpu-kernel-outlining
// CHECK-DAG: --nvvm-attach-target
// CHECK-DAG: --gpu-module-to-binary
// CHECK-DAG: --gpu-lower-to-nvvm-pipeline
// CHECK-DAG: --convert-nvgpu-to-nvvm
