// vnm-widen-math: math ops on f16 and bf16 compute in f32, rounded once;
// f32 and f64 math and non-math ops stay.
// RUN: vnm-opt %s --allow-unregistered-dialect --vnm-widen-math | FileCheck %s

// CHECK-LABEL: func.func @widen
//  CHECK-SAME: (%[[H:.*]]: f16, %[[B:.*]]: bf16, %[[F:.*]]: f32)
//       CHECK:   %[[HW:.*]] = arith.extf %[[H]] : f16 to f32
//  CHECK-NEXT:   %[[E:.*]] = math.erf %[[HW]] : f32
//  CHECK-NEXT:   %[[EN:.*]] = arith.truncf %[[E]] : f32 to f16
//       CHECK:   %[[BW:.*]] = arith.extf %[[B]] : bf16 to f32
//  CHECK-NEXT:   %[[BW2:.*]] = arith.extf %[[B]] : bf16 to f32
//  CHECK-NEXT:   %[[P:.*]] = math.powf %[[BW]], %[[BW2]] fastmath<nnan> : f32
//  CHECK-NEXT:   %[[PN:.*]] = arith.truncf %[[P]] : f32 to bf16
//       CHECK:   %[[R:.*]] = math.rsqrt %[[F]] : f32
//       CHECK:   %[[A:.*]] = arith.addf %[[EN]], %[[H]] : f16
//       CHECK:   return %[[A]], %[[PN]], %[[R]]
func.func @widen(%h: f16, %b: bf16, %f: f32) -> (f16, bf16, f32) {
  %e = math.erf %h : f16
  %p = math.powf %b, %b fastmath<nnan> : bf16
  %r = math.rsqrt %f : f32
  %a = arith.addf %e, %h : f16
  return %a, %p, %r : f16, bf16, f32
}

// Ops of unregistered dialects (no Dialect object) pass through, here and
// in vnm-lower-to-loops (found by the robustness run under ASan).
// RUN: vnm-opt %s --allow-unregistered-dialect --vnm-widen-math --vnm-lower-to-loops | FileCheck %s --check-prefix=FOREIGN
// FOREIGN-LABEL: func.func @foreign
// FOREIGN: "foreign.op"
func.func @foreign(%h: f16) -> f16 {
  %r = "foreign.op"(%h) : (f16) -> f16
  return %r : f16
}
