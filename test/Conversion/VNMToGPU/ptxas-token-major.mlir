// ptxas assembles the token-major f16/bf16 kernels (M = 8 with the
// selecting B load, M = 4 with ldmatrix without .trans) for sm_80 and sm_90
// without spills at its own register choice. Skipped (UNSUPPORTED) without
// ptxas.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90 blocks-per-sm=0 register-gather=true dump-dir=%t/sm90" -o /dev/null
// RUN: %ptxas -arch=sm_90 -v %t/sm90/vnm_kernels.ptx -o %t/sm90.cubin 2>&1 | FileCheck %s
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_80 blocks-per-sm=0 register-gather=true dump-dir=%t/sm80" -o /dev/null
// RUN: %ptxas -arch=sm_80 -v %t/sm80/vnm_kernels.ptx -o %t/sm80.cubin 2>&1 | FileCheck %s

// recipe=wgmma-sp-ws reads both token-major too (M = 8 run as 2:4): x is
// handed over as it is (no transpose left), B is a K-major TMA box of 256
// tokens x 64 K values (trans-b 0 in every wgmma.sp), and ptxas assembles
// both kernels for sm_90a without spills.
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90a recipe=wgmma-sp-ws dump-dir=%t/ws" | FileCheck %s --check-prefix=WS-IR
// RUN: FileCheck %s --check-prefix=WS-JSON < %t/ws/spmm_0.json
// RUN: FileCheck %s --check-prefix=WS-PTX < %t/ws/vnm_kernels.ptx
// RUN: %ptxas -arch=sm_90a -v %t/ws/vnm_kernels.ptx -o %t/ws.cubin 2>&1 | FileCheck %s
// WS-IR-NOT: linalg.transpose
// WS-IR-COUNT-2: memref.transpose
// WS-JSON: "op_m": 8,
// WS-JSON: "rhs_layout": "token_major"
// WS-JSON: "rhs": {
// WS-JSON-NEXT: "box_cols": 64,
// WS-JSON-NEXT: "box_rows": 256,
// WS-JSON-NEXT: "cols": 512,
// WS-JSON-NEXT: "element_bytes": 2,
// WS-JSON-NEXT: "ld": "ldb",
// WS-JSON-NEXT: "rows": "n",
// WS-JSON-NEXT: "swizzle_bytes": 128
// WS-PTX-NOT: p, 1, 1, 1;
// WS-PTX: wgmma.mma_async.sp.sync.aligned.m64n256k32.f32.f16.f16 {{.*}}, p, 1, 1, 0;
// WS-PTX-NOT: p, 1, 1, 1;

// CHECK-COUNT-2: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: spill stores
!w8 = tensor<256x512xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
!w4 = tensor<200x512xbf16, #vnm.encoding<v = 16, n = 2, m = 4>>
func.func @linear(%w: !w8, %x: tensor<?x512xf16>, %v: !w4, %z: tensor<?x512xbf16>)
    -> (tensor<256x?xf16>, tensor<200x?xbf16>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x512xf16>
  %e = tensor.empty(%n) : tensor<512x?xf16>
  %xt = linalg.transpose ins(%x : tensor<?x512xf16>) outs(%e : tensor<512x?xf16>) permutation = [1, 0]
  %y = vnm.spmm %w, %xt : !w8, tensor<512x?xf16> -> tensor<256x?xf16>
  %m = tensor.dim %z, %c0 : tensor<?x512xbf16>
  %f = tensor.empty(%m) : tensor<512x?xbf16>
  %zt = linalg.transpose ins(%z : tensor<?x512xbf16>) outs(%f : tensor<512x?xbf16>) permutation = [1, 0]
  %u = vnm.spmm %v, %zt : !w4, tensor<512x?xbf16> -> tensor<200x?xbf16>
  return %y, %u : tensor<256x?xf16>, tensor<200x?xbf16>
}
