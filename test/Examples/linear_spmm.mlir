// The shipped example compiles through each stage the main job shows.
// RUN: vnm-opt %vnm_src_root/examples/linear_spmm.mlir | FileCheck %s --check-prefix=PARSED
// RUN: vnm-opt %vnm_src_root/examples/linear_spmm.mlir --vnm-expand-storage --one-shot-bufferize=bufferize-function-boundaries --canonicalize | FileCheck %s --check-prefix=BUFFERS

// PARSED-LABEL: func.func @linear
// PARSED: vnm.spmm %{{.*}}, %{{.*}} bias(%{{.*}} : tensor<4096xf16>) {activation = #vnm.activation<relu>}

// BUFFERS-LABEL: func.func @compress_weight
// BUFFERS-SAME: -> (memref<4096x1024xf16>, memref<64x512x4xi8>, memref<4096x1024xi8>)
// BUFFERS: vnm.storage.compress
// BUFFERS-LABEL: func.func @linear
// BUFFERS: %[[OUT:.*]] = memref.alloc(%{{.*}}) {{.*}} : memref<4096x?xf16>
// BUFFERS: vnm.storage.spmm {{.*}} outs(%[[OUT]] : memref<4096x?xf16>) {activation = #vnm.activation<relu>
// BUFFERS: return %[[OUT]]
