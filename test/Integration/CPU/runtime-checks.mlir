// A failed run-time check of the generated CPU code (a dynamic bias whose
// size differs from R) prints its message to stderr and exits with status 1
// (`not`, which fails on a crash), with no stack dump and nothing on stdout.
// RUN: vnm-opt %s --vnm-lower-to-cpu-pipeline | not %run-cpu 2>%t.err >%t.out
// RUN: FileCheck %s --input-file=%t.err
// RUN: FileCheck %s --check-prefix=OUT --allow-empty --input-file=%t.out
// The pass alone: each cf.assert becomes a call of the runtime.
// RUN: vnm-opt %s --vnm-expand-storage --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --vnm-lower-to-loops --vnm-lower-runtime-checks | FileCheck %s --check-prefix=IR

// CHECK: vnm runtime check failed: vnm.storage.spmm: bias size differs from R
// CHECK-NOT: PLEASE
// CHECK-NOT: Stack dump
// OUT-NOT: {{.}}

// IR-DAG: memref.global "private" constant @vnm_check_message{{.*}} : memref<{{[0-9]+}}xi8> = dense<
// IR-DAG: func.func private @vnm_rt_check_failed(memref<?xi8, strided<[?], offset: ?>>) attributes {llvm.emit_c_interface}
// IR-NOT: cf.assert
// IR: scf.if
// IR: memref.get_global @vnm_check_message
// IR: call @vnm_rt_check_failed
func.func @main() {
  %w = arith.constant dense<1.0> : tensor<64x8xf32>
  %s = vnm.compress %w : tensor<64x8xf32> -> tensor<64x8xf32, #vnm.encoding<v = 64, n = 2, m = 8>>
  %x = arith.constant dense<1.0> : tensor<8x4xf32>
  %b0 = arith.constant dense<0.5> : tensor<63xf32>
  %b = tensor.cast %b0 : tensor<63xf32> to tensor<?xf32>
  %y = vnm.spmm %s, %x bias(%b : tensor<?xf32>)
      : tensor<64x8xf32, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<8x4xf32> -> tensor<64x4xf32>
  %buf = bufferization.to_buffer %y : tensor<64x4xf32> to memref<64x4xf32>
  %u = memref.cast %buf : memref<64x4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
