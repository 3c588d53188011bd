// A linear layer's whole token-major form: y[N][R] = x[N][K] W^T arrives
// as W times the transpose of x, transposed back. vnm-fold-transposed-rhs
// hands the kernel x itself (f16 at M = 4) and vnm-fold-transposed-result
// lets it store y itself: no copy is left, the epilogue stores the tile
// transposed (each element alone, at c * ldc + r) and the contract says
// out_layout = "token_major". The K x N kernel (M = 8) stores y[N][R] too.
// Between two layers the transposes cancel (canonicalize): the second
// kernel reads the first one's R x N result as its K x N rhs, no copy.
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90 format=isa dump-dir=%t" | FileCheck %s --check-prefix=HOST
// RUN: FileCheck %s --input-file=%t/vnm_kernels.ptx --check-prefix=PTX
// RUN: vnm-opt %s --canonicalize --vnm-expand-storage --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --vnm-choose-config --vnm-fold-transposed-rhs --vnm-fold-transposed-result --vnm-lower-to-gpu | FileCheck %s

// HOST-NOT: linalg.transpose
// HOST: kernel = "spmm_0"
// HOST-SAME: out_layout = "token_major"
// HOST-SAME: requirements = "{{[^"]*}}out token-major: y[n][R] with row pitch ldc >= R
// HOST-SAME: rhs_layout = "token_major"
// HOST: kernel = "spmm_1"
// HOST-SAME: out_layout = "token_major"
// HOST-SAME: rhs_layout = "k_by_n"
// HOST: kernel = "spmm_2"
// HOST-SAME: out_layout = "r_by_n"
// HOST-SAME: rhs_layout = "token_major"
// HOST: kernel = "spmm_3"
// HOST-SAME: out_layout = "token_major"
// HOST-SAME: rhs_layout = "k_by_n"
// HOST-LABEL: func.func @layer4
// HOST: %[[Y:.*]] = memref.alloc(%{{.*}}) {{.*}}: memref<?x256xf16>
// HOST: %[[V:.*]] = memref.transpose %[[Y]] (d0, d1) -> (d1, d0) : memref<?x256xf16> to memref<256x?xf16, strided<[1, 256]>>
// HOST: vnm.storage.spmm {{.*}} outs(%[[V]] : memref<256x?xf16, strided<[1, 256]>>)
// HOST: return %[[Y]]
// HOST-LABEL: func.func @layer8
// HOST: memref.transpose %{{.*}} : memref<?x192xf32> to memref<192x?xf32, strided<[1, 192]>>
// HOST-LABEL: func.func @two_layers
// HOST: %[[H:.*]] = memref.alloc(%{{.*}}) {{.*}}: memref<256x?xf16>
// HOST: vnm.storage.spmm {{.*}} outs(%[[H]] : memref<256x?xf16>)
// HOST: vnm.storage.spmm ins(%{{.*}}, %{{.*}}, %{{.*}}, %[[H]] :

// CHECK-LABEL: gpu.func @spmm_0
// CHECK: vnm_gpu.epilogue {{.*}} {transposed}
// CHECK-LABEL: gpu.func @spmm_1
// CHECK: vnm_gpu.epilogue {{.*}} {transposed}
// CHECK-LABEL: gpu.func @spmm_2
// CHECK-NOT: transposed
// CHECK: vnm_gpu.epilogue
// CHECK-NOT: transposed
// CHECK-LABEL: gpu.func @spmm_3

// The transposed f16 store is one 2-byte store per element, the f32 one
// 4 bytes; the row-major f16 kernel stores column pairs (4 bytes).
// PTX-LABEL: .entry spmm_0
// PTX-NOT: st.global.b32
// PTX: st.global.b16
// PTX-LABEL: .entry spmm_1
// PTX-NOT: st.global.v2
// PTX: st.global.b32
// PTX-LABEL: .entry spmm_2
// PTX: st.global.b32
!w4 = tensor<256x512xf16, #vnm.encoding<v = 64, n = 2, m = 4>>
!w8 = tensor<192x256xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
func.func @layer4(%w: !w4, %x: tensor<?x512xf16>) -> tensor<?x256xf16> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x512xf16>
  %e = tensor.empty(%n) : tensor<512x?xf16>
  %xt = linalg.transpose ins(%x : tensor<?x512xf16>) outs(%e : tensor<512x?xf16>) permutation = [1, 0]
  %yt = vnm.spmm %w, %xt : !w4, tensor<512x?xf16> -> tensor<256x?xf16>
  %f = tensor.empty(%n) : tensor<?x256xf16>
  %y = linalg.transpose ins(%yt : tensor<256x?xf16>) outs(%f : tensor<?x256xf16>) permutation = [1, 0]
  return %y : tensor<?x256xf16>
}
func.func @layer8(%v: !w8, %h: tensor<?x256xf16>) -> tensor<?x192xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %h, %c0 : tensor<?x256xf16>
  %g = tensor.empty(%n) : tensor<256x?xf16>
  %ht = linalg.transpose ins(%h : tensor<?x256xf16>) outs(%g : tensor<256x?xf16>) permutation = [1, 0]
  %zt = vnm.spmm %v, %ht : !w8, tensor<256x?xf16> -> tensor<192x?xf32>
  %k = tensor.empty(%n) : tensor<?x192xf32>
  %z = linalg.transpose ins(%zt : tensor<192x?xf32>) outs(%k : tensor<?x192xf32>) permutation = [1, 0]
  return %z : tensor<?x192xf32>
}
func.func @two_layers(%w: !w4, %x: tensor<?x512xf16>, %v: !w8) -> tensor<?x192xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x512xf16>
  %e = tensor.empty(%n) : tensor<512x?xf16>
  %xt = linalg.transpose ins(%x : tensor<?x512xf16>) outs(%e : tensor<512x?xf16>) permutation = [1, 0]
  %yt = vnm.spmm %w, %xt : !w4, tensor<512x?xf16> -> tensor<256x?xf16>
  %f = tensor.empty(%n) : tensor<?x256xf16>
  %y = linalg.transpose ins(%yt : tensor<256x?xf16>) outs(%f : tensor<?x256xf16>) permutation = [1, 0]
  %g = tensor.empty(%n) : tensor<256x?xf16>
  %h = linalg.transpose ins(%y : tensor<?x256xf16>) outs(%g : tensor<256x?xf16>) permutation = [1, 0]
  %zt = vnm.spmm %v, %h : !w8, tensor<256x?xf16> -> tensor<192x?xf32>
  %k = tensor.empty(%n) : tensor<?x192xf32>
  %z = linalg.transpose ins(%zt : tensor<192x?xf32>) outs(%k : tensor<?x192xf32>) permutation = [1, 0]
  return %z : tensor<?x192xf32>
}
