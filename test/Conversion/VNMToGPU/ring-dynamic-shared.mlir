// Rings beyond 48 KiB (stages = 4 here: 64 KiB) live in dynamic shared
// memory: an external shared array, a contract with dynamic_shared_bytes for
// the host, and a pipeline that keeps three gathers in flight.
// RUN: vnm-opt %s --vnm-choose-config="stages=4" --vnm-lower-to-gpu --vnm-pipeline-kernels | FileCheck %s

// CHECK: vnm.launch_contracts = [{
// CHECK-SAME: dynamic_shared_bytes = 65536
// CHECK-SAME: stages = 4
// CHECK-SAME: static_shared_bytes = 0
// CHECK: llvm.mlir.global external @spmm_0_ring() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<0 x i8>
// Prologue: three gathers.
// CHECK-COUNT-3: nvvm.cp.async.commit.group
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 2
// CHECK-NEXT: gpu.barrier
// Epilogue: four pairs left.
// CHECK: scf.yield
// CHECK-COUNT-4: nvvm.cp.async.wait.group 0
func.func @spmm(%v: memref<4096x1024xf16>, %c: memref<64x512x4xi8>,
                %m: memref<4096x1024xi8>, %x: memref<4096x?xf16>,
                %y: memref<4096x?xf32>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<4096x1024xf16>,
                       memref<64x512x4xi8>, memref<4096x1024xi8>,
                       memref<4096x?xf16>)
      outs(%y : memref<4096x?xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}
