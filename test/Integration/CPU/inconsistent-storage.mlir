// Storage arrays whose contents contradict the format stop the program with
// the format library's message before any of them is used to index memory.
// RUN: split-file %s %t
// RUN: vnm-opt %t/descending-meta.mlir --vnm-lower-to-cpu-pipeline | not %run-cpu 2>&1 | FileCheck %s --check-prefix=META
// RUN: vnm-opt %t/colidx-range.mlir --vnm-lower-to-cpu-pipeline | not %run-cpu 2>&1 | FileCheck %s --check-prefix=COLIDX
// RUN: vnm-opt %t/padding-value.mlir --vnm-lower-to-cpu-pipeline | not %run-cpu 2>&1 | FileCheck %s --check-prefix=PADDING

// META: vnm runtime error in vnm_rt_verify_storage_f32: meta[0][1] = 1 is not greater than the first position of its pair 3
// META-NOT: Unranked Memref
// COLIDX: vnm runtime error in vnm_rt_verify_storage_f32: colidx[0][0][3] = 9 is not below m = 8
// COLIDX-NOT: Unranked Memref
// PADDING: vnm runtime error in vnm_rt_verify_storage_f32: values[0][1] = 0x40000000 is not zero but maps to padding column 7 (K = 6)
// PADDING-NOT: Unranked Memref

//--- descending-meta.mlir
// meta pair (3, 1) is not ascending.
func.func @main() {
  %v = arith.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  %c = arith.constant dense<[[[0, 1, 2, 3]]]> : tensor<1x1x4xi8>
  %m = arith.constant dense<[[3, 1]]> : tensor<1x2xi8>
  %s = vnm.assemble %v, %c, %m : tensor<1x2xf32>, tensor<1x1x4xi8>, tensor<1x2xi8>
      -> tensor<1x8xf32, #vnm.encoding<v = 16, n = 2, m = 8>>
  %d = vnm.decompress %s : tensor<1x8xf32, #vnm.encoding<v = 16, n = 2, m = 8>> -> tensor<1x8xf32>
  %buf = bufferization.to_buffer %d : tensor<1x8xf32> to memref<1x8xf32>
  %u = memref.cast %buf : memref<1x8xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

//--- colidx-range.mlir
// offset 9 does not exist in a group of 8 columns: reading it would index
// past the rhs.
func.func @main() {
  %v = arith.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  %c = arith.constant dense<[[[0, 1, 2, 9]]]> : tensor<1x1x4xi8>
  %m = arith.constant dense<[[0, 3]]> : tensor<1x2xi8>
  %x = arith.constant dense<1.0> : tensor<8x4xf32>
  %s = vnm.assemble %v, %c, %m : tensor<1x2xf32>, tensor<1x1x4xi8>, tensor<1x2xi8>
      -> tensor<1x8xf32, #vnm.encoding<v = 16, n = 2, m = 8>>
  %y = vnm.spmm %s, %x : tensor<1x8xf32, #vnm.encoding<v = 16, n = 2, m = 8>>, tensor<8x4xf32> -> tensor<1x4xf32>
  %buf = bufferization.to_buffer %y : tensor<1x4xf32> to memref<1x4xf32>
  %u = memref.cast %buf : memref<1x4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

//--- padding-value.mlir
// K = 6 in a group of 8: offset 7 is padding, so its value must be zero.
func.func @main() {
  %v = arith.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  %c = arith.constant dense<[[[0, 1, 2, 7]]]> : tensor<1x1x4xi8>
  %m = arith.constant dense<[[0, 3]]> : tensor<1x2xi8>
  %x = arith.constant dense<1.0> : tensor<6x4xf32>
  %s = vnm.assemble %v, %c, %m : tensor<1x2xf32>, tensor<1x1x4xi8>, tensor<1x2xi8>
      -> tensor<1x6xf32, #vnm.encoding<v = 16, n = 2, m = 8>>
  %y = vnm.spmm %s, %x : tensor<1x6xf32, #vnm.encoding<v = 16, n = 2, m = 8>>, tensor<6x4xf32> -> tensor<1x4xf32>
  %buf = bufferization.to_buffer %y : tensor<1x4xf32> to memref<1x4xf32>
  %u = memref.cast %buf : memref<1x4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
