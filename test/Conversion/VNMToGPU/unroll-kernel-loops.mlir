// vnm-unroll-kernel-loops unrolls each pipelined K loop by its kernel's
// vnm_gpu.unroll (the tiling's `unroll`, here 3 = the ring's stages, set
// through vnm-choose-config: this kernel's blocks of 4 warps keep their
// loop rolled by default: TWO's kernel has no vnm_gpu.unroll): the 4096-column
// 64:2:8 weight has 32 k-tile pairs, so the pipelined loop runs
// 29 iterations, 27 of them as 9 of the unrolled loop (step 3) and the last
// 2 unrolled completely after it. Every slot is then a constant: copy i of
// the body reads slot i and fills slot (i + 2) mod 3; no remainder is left.
// A stays in registers (staged-a=0), so that the ring keeps 3 stages.
// RUN: vnm-opt %s --pass-pipeline="builtin.module(vnm-expand-storage,one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},vnm-choose-config{unroll=3 staged-a=0},vnm-lower-to-gpu,vnm-pipeline-kernels,vnm-unroll-kernel-loops)" | FileCheck %s
// unroll=1 keeps the rolled loop with its two remainders per iteration.
// RUN: vnm-opt %s --pass-pipeline="builtin.module(vnm-expand-storage,one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},vnm-choose-config{unroll=1 staged-a=0},vnm-lower-to-gpu,vnm-pipeline-kernels,vnm-unroll-kernel-loops)" | FileCheck %s --check-prefix=ROLLED
// The pass's factor overrides the kernel's: 2 is no multiple of the 3
// stages, so the slots stay remainders of the induction variable.
// RUN: vnm-opt %s --pass-pipeline="builtin.module(vnm-expand-storage,one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},vnm-choose-config{staged-a=0},vnm-lower-to-gpu,vnm-pipeline-kernels,vnm-unroll-kernel-loops{factor=2})" | FileCheck %s --check-prefix=TWO

// CHECK: gpu.func @spmm_0
// CHECK-SAME: vnm_gpu.unroll = 3 : i64
// CHECK-NOT: arith.remui
// CHECK: scf.for %{{.*}} = %c0 to %c27 step %c3
// CHECK: vnm_gpu.wait %{{.*}} pending(1)
// CHECK: vnm_gpu.gather {{.*}} into %{{.*}}[%c2_i32{{.*}}]
// CHECK: vnm_gpu.load_b %{{.*}}[%c0_i32{{.*}}] offset(0)
// CHECK: vnm_gpu.wait %{{.*}} pending(1)
// CHECK: vnm_gpu.gather {{.*}} into %{{.*}}[%c0_i32{{.*}}]
// CHECK: vnm_gpu.load_b %{{.*}}[%c1_i32{{.*}}] offset(0)
// CHECK: vnm_gpu.wait %{{.*}} pending(1)
// CHECK: vnm_gpu.gather {{.*}} into %{{.*}}[%c1_i32{{.*}}]
// CHECK: vnm_gpu.load_b %{{.*}}[%c2_i32{{.*}}] offset(0)
// CHECK: scf.yield
// Iterations 27 and 28 after the loop, then the pipeline's epilogue.
// CHECK: vnm_gpu.wait %{{.*}} pending(1)
// CHECK: vnm_gpu.gather {{.*}} into %{{.*}}[%c2_i32{{.*}}]
// CHECK: vnm_gpu.load_b %{{.*}}[%c0_i32{{.*}}] offset(0)
// CHECK: vnm_gpu.wait %{{.*}} pending(1)
// CHECK: vnm_gpu.gather {{.*}} into %{{.*}}[%c0_i32{{.*}}]
// CHECK: vnm_gpu.load_b %{{.*}}[%c1_i32{{.*}}] offset(0)
// CHECK-NOT: scf.for
// CHECK-NOT: arith.remui
// CHECK: vnm_gpu.wait %{{.*}} pending(0)
// CHECK: gpu.return

// ROLLED: gpu.func @spmm_0
// ROLLED-NOT: vnm_gpu.unroll
// ROLLED: scf.for %{{.*}} = %c0 to %{{.*}} step %c1
// ROLLED-COUNT-2: arith.remui %{{.*}}, %c3_i32
// ROLLED: scf.yield

// TWO: gpu.func @spmm_0
// TWO-SAME: nvvm.minctasm = 4 : i32} {
// TWO: scf.for %{{.*}} = %c0 to %c28 step %c2
// TWO: arith.remui
// TWO: scf.yield
!w = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
func.func @spmm(%w: !w, %x: tensor<4096x?xf16>) -> tensor<4096x?xf16> {
  %y = vnm.spmm %w, %x : !w, tensor<4096x?xf16> -> tensor<4096x?xf16>
  return %y : tensor<4096x?xf16>
}
