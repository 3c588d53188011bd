// vnm-lower-runtime-checks: host cf.asserts become runtime calls (one
// message global per text); an assert inside a gpu.module stays, as the
// runtime's declaration would not be visible there.
// RUN: vnm-opt %s --vnm-lower-runtime-checks | FileCheck %s

// CHECK-DAG: memref.global "private" constant @vnm_check_message{{(_[0-9]+)?}} : memref<2xi8> = dense<[111, 110]>
// CHECK-DAG: func.func private @vnm_rt_check_failed(memref<?xi8, strided<[?], offset: ?>>) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @host
// CHECK: %[[FAILED:.*]] = arith.xori %arg0, %true
// CHECK: scf.if %[[FAILED]] {
// CHECK: %[[MESSAGE:.*]] = memref.get_global @vnm_check_message
// CHECK: %[[CAST:.*]] = memref.cast %[[MESSAGE]]
// CHECK: call @vnm_rt_check_failed(%[[CAST]])
// CHECK-NOT: cf.assert
// CHECK-LABEL: gpu.func @kernel
// CHECK: cf.assert %arg0, "in a kernel"
func.func @host(%ok: i1, %ok2: i1) {
  cf.assert %ok, "on"
  cf.assert %ok2, "on"
  return
}
gpu.module @kernels {
  gpu.func @kernel(%ok: i1) kernel {
    cf.assert %ok, "in a kernel"
    gpu.return
  }
}
