// The math ops that frontends write for transformers (LayerNorm's rsqrt,
// GELU's erf and tanh, softmax's exp) run on the CPU pipeline, in f32 and
// on 16-bit floats (computed in f32: libm has neither rsqrtf nor 16-bit
// functions).
// RUN: vnm-opt %s --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %x = arith.constant dense<[4.0, 0.25, 0.5, -1.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %abs = math.absf %in : f32
    %rs = math.rsqrt %abs : f32
    %erf = math.erf %in : f32
    %h = arith.truncf %in : f32 to f16
    %th = math.tanh %h : f16
    %t = arith.extf %th : f16 to f32
    %b = arith.truncf %in : f32 to bf16
    %eb = math.exp %b : bf16
    %ex = arith.extf %eb : bf16 to f32
    %v = scf.index_switch %i -> f32
    case 0 { scf.yield %rs : f32 }
    case 1 { scf.yield %erf : f32 }
    case 2 { scf.yield %t : f32 }
    default { scf.yield %ex : f32 }
    linalg.yield %v : f32
  } -> tensor<4x4xf32>
  %m = bufferization.to_buffer %r : tensor<4x4xf32> to memref<4x4xf32>
  %u = memref.cast %m : memref<4x4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
// rsqrt |x|, erf x, tanh in f16, exp in bf16 (each rounded once to its
// 16-bit type):
// CHECK: [0.5, 2, 1.41421, 1]
// CHECK: [1, 0.276326, 0.5205, -0.842701]
// CHECK: [0.999512, 0.244873, 0.462158, -0.761719]
// CHECK: [54.5, 1.28125, 1.64844, 0.367188]
