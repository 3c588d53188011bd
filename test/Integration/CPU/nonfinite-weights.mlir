// A constant weight with a NaN is not folded at compile time (pruning refuses
// non-finite weights), and its compression at run time stops with a message
// naming the entry, exit status 1.
// RUN: vnm-opt %s --canonicalize | FileCheck %s --check-prefix=FOLD
// RUN: vnm-opt %s --vnm-lower-to-cpu-pipeline | not %run-cpu 2>&1 | FileCheck %s
// FOLD: vnm.compress
// CHECK: vnm runtime error in vnm_rt_compress_f32: dense[0][1] = 0x7fc00000 is NaN or infinite
// CHECK-NOT: Unranked Memref
func.func @main() {
  %w = arith.constant dense<[[1.0, 0x7FC00000, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]]> : tensor<1x8xf32>
  %s = vnm.compress %w : tensor<1x8xf32> -> tensor<1x8xf32, #vnm.encoding<v = 16, n = 2, m = 8>>
  %d = vnm.decompress %s : tensor<1x8xf32, #vnm.encoding<v = 16, n = 2, m = 8>> -> tensor<1x8xf32>
  %buf = bufferization.to_buffer %d : tensor<1x8xf32> to memref<1x8xf32>
  %u = memref.cast %buf : memref<1x8xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
