// End to end on the CPU: each matmul vnm-sparsify rewrites is checked
// against the same matmul left dense. The weights already fit the format (at
// most two nonzeros per row in each group of four columns), so pruning keeps
// them whole and both sides compute the same product.
// RUN: vnm-opt %s --vnm-sparsify | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s

// CHECK-COUNT-7: vnm-compare {{[0-9]}}: PASS
// CHECK-NOT: FAIL

#x_wt = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
         affine_map<(m, n, k) -> (m, n)>]

module {
  func.func private @vnm_test_fill_random(memref<?x?xf32>)
      attributes {llvm.emit_c_interface}
  func.func private @vnm_test_compare(i64, memref<?x?xf32>, memref<?x?xf32>, f64)
      attributes {llvm.emit_c_interface}

  func.func @random(%rows: index, %cols: index) -> tensor<?x?xf32> {
    %buf = memref.alloc(%rows, %cols) : memref<?x?xf32>
    func.call @vnm_test_fill_random(%buf) : (memref<?x?xf32>) -> ()
    %t = bufferization.to_tensor %buf restrict : memref<?x?xf32> to tensor<?x?xf32>
    return %t : tensor<?x?xf32>
  }

  func.func @check(%id: i64, %actual: tensor<?x?xf32>, %expected: tensor<?x?xf32>) {
    %a = bufferization.to_buffer %actual read_only : tensor<?x?xf32> to memref<?x?xf32>
    %e = bufferization.to_buffer %expected read_only : tensor<?x?xf32> to memref<?x?xf32>
    %tol = arith.constant 1.0e-5 : f64
    func.call @vnm_test_compare(%id, %a, %e, %tol)
        : (i64, memref<?x?xf32>, memref<?x?xf32>, f64) -> ()
    return
  }

  // x @ W.T with W an annotated argument: callers compress what they pass.
  func.func @linear(%x: tensor<5x12xf32>,
      %w: tensor<20x12xf32> {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 4>})
      -> tensor<5x20xf32> {
    %e = tensor.empty() : tensor<5x20xf32>
    %y = linalg.matmul indexing_maps = #x_wt
        ins(%x, %w : tensor<5x12xf32>, tensor<20x12xf32>)
        outs(%e : tensor<5x20xf32>) -> tensor<5x20xf32>
    return %y : tensor<5x20xf32>
  }

  // x @ W with W an annotated K x R argument: compressed on entry.
  func.func @dense(%x: tensor<5x12xf32>,
      %w: tensor<12x20xf32> {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 4>},
      %acc: tensor<5x20xf32>) -> tensor<5x20xf32> {
    %y = linalg.matmul ins(%x, %w : tensor<5x12xf32>, tensor<12x20xf32>)
        outs(%acc : tensor<5x20xf32>) -> tensor<5x20xf32>
    return %y : tensor<5x20xf32>
  }

  func.func @main() {
    %c2 = arith.constant 2 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    %c12 = arith.constant 12 : index
    %c20 = arith.constant 20 : index
    %xd = func.call @random(%c5, %c12) : (index, index) -> tensor<?x?xf32>
    %x = tensor.cast %xd : tensor<?x?xf32> to tensor<5x12xf32>
    %accd = func.call @random(%c5, %c20) : (index, index) -> tensor<?x?xf32>
    %acc = tensor.cast %accd : tensor<?x?xf32> to tensor<5x20xf32>
    %zero = arith.constant 0.0 : f32
    %e520 = tensor.empty() : tensor<5x20xf32>
    %z520 = linalg.fill ins(%zero : f32) outs(%e520 : tensor<5x20xf32>) -> tensor<5x20xf32>
    %w_rk = arith.constant dense<[[-0.50, 0.00, 0.25, 0.00, 0.00, 0.00, -1.00, -0.50, 0.00, -1.75, 0.00, -1.00], [-1.00, 0.00, -1.75, 0.00, -0.75, 0.00, 0.00, 1.75, 0.00, -1.25, -0.50, 0.00], [0.00, -0.50, 0.00, -1.00, 0.00, 0.00, 2.00, 1.50, 0.00, -0.50, -0.75, 0.00], [0.00, 0.00, 1.50, 1.25, 0.75, 0.00, 0.00, 0.75, 0.00, 1.50, 0.00, -0.50], [0.00, 0.00, 2.00, -0.50, 0.00, 2.00, -0.25, 0.00, 0.00, 0.00, 1.50, -2.00], [-1.00, 0.00, -2.00, 0.00, 2.00, 0.00, -1.75, 0.00, 1.75, 0.00, 0.00, 0.75], [0.00, 0.00, 1.75, 1.75, -1.00, -0.75, 0.00, 0.00, 1.25, 0.75, 0.00, 0.00], [1.50, 0.00, 0.00, 0.75, 1.75, 1.75, 0.00, 0.00, 0.25, -0.50, 0.00, 0.00], [0.00, -0.50, 0.00, 0.25, -0.50, 0.00, 0.00, 0.25, 0.75, 0.00, 0.00, 1.50], [0.00, 2.00, -0.50, 0.00, 0.00, -0.50, 0.00, 0.50, 0.00, 0.00, 2.00, -0.25], [0.00, 0.75, -1.25, 0.00, 1.50, 0.00, -1.50, 0.00, 0.00, 1.00, -1.00, 0.00], [0.00, 0.00, 1.50, -1.00, 2.00, 0.00, 0.00, 1.00, 0.00, -1.00, 1.50, 0.00], [1.00, 0.00, 0.00, 1.00, 0.00, 0.00, 0.50, -2.00, -2.00, -1.75, 0.00, 0.00], [0.50, 0.00, 2.00, 0.00, -2.00, -0.25, 0.00, 0.00, 0.00, 1.50, -0.75, 0.00], [-0.75, 0.00, 0.00, 1.00, 1.00, 1.00, 0.00, 0.00, 0.00, -1.50, 0.75, 0.00], [0.00, 0.00, -0.25, 0.75, -0.75, 0.00, 0.00, -0.75, 0.00, 0.00, 2.00, -0.25], [-1.00, 0.00, -1.25, 0.00, 0.25, 0.00, 0.00, -2.00, 0.00, 0.00, -1.25, 2.00], [0.00, 1.00, 0.75, 0.00, 0.50, 0.00, 0.00, 2.00, 0.00, -1.00, 0.00, 0.50], [0.00, 0.75, 0.75, 0.00, 0.75, 0.00, 0.00, -1.75, 1.75, 1.75, 0.00, 0.00], [0.00, 0.50, 0.00, 0.25, 0.00, 0.00, 2.00, -1.75, 0.00, 0.00, 0.50, -1.00]]> : tensor<20x12xf32>
    %w_kr = arith.constant dense<[[-0.50, -1.00, 0.00, 0.00, 0.00, -1.00, 0.00, 1.50, 0.00, 0.00, 0.00, 0.00, 1.00, 0.50, -0.75, 0.00, -1.00, 0.00, 0.00, 0.00], [0.00, 0.00, -0.50, 0.00, 0.00, 0.00, 0.00, 0.00, -0.50, 2.00, 0.75, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 1.00, 0.75, 0.50], [0.25, -1.75, 0.00, 1.50, 2.00, -2.00, 1.75, 0.00, 0.00, -0.50, -1.25, 1.50, 0.00, 2.00, 0.00, -0.25, -1.25, 0.75, 0.75, 0.00], [0.00, 0.00, -1.00, 1.25, -0.50, 0.00, 1.75, 0.75, 0.25, 0.00, 0.00, -1.00, 1.00, 0.00, 1.00, 0.75, 0.00, 0.00, 0.00, 0.25], [0.00, -0.75, 0.00, 0.75, 0.00, 2.00, -1.00, 1.75, -0.50, 0.00, 1.50, 2.00, 0.00, -2.00, 1.00, -0.75, 0.25, 0.50, 0.75, 0.00], [0.00, 0.00, 0.00, 0.00, 2.00, 0.00, -0.75, 1.75, 0.00, -0.50, 0.00, 0.00, 0.00, -0.25, 1.00, 0.00, 0.00, 0.00, 0.00, 0.00], [-1.00, 0.00, 2.00, 0.00, -0.25, -1.75, 0.00, 0.00, 0.00, 0.00, -1.50, 0.00, 0.50, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 2.00], [-0.50, 1.75, 1.50, 0.75, 0.00, 0.00, 0.00, 0.00, 0.25, 0.50, 0.00, 1.00, -2.00, 0.00, 0.00, -0.75, -2.00, 2.00, -1.75, -1.75], [0.00, 0.00, 0.00, 0.00, 0.00, 1.75, 1.25, 0.25, 0.75, 0.00, 0.00, 0.00, -2.00, 0.00, 0.00, 0.00, 0.00, 0.00, 1.75, 0.00], [-1.75, -1.25, -0.50, 1.50, 0.00, 0.00, 0.75, -0.50, 0.00, 0.00, 1.00, -1.00, -1.75, 1.50, -1.50, 0.00, 0.00, -1.00, 1.75, 0.00], [0.00, -0.50, -0.75, 0.00, 1.50, 0.00, 0.00, 0.00, 0.00, 2.00, -1.00, 1.50, 0.00, -0.75, 0.75, 2.00, -1.25, 0.00, 0.00, 0.50], [-1.00, 0.00, 0.00, -0.50, -2.00, 0.75, 0.00, 0.00, 1.50, -0.25, 0.00, 0.00, 0.00, 0.00, 0.00, -0.25, 2.00, 0.50, 0.00, -1.00]]> : tensor<12x20xf32>

    // 1. x @ W, W held K x R (JAX), with an accumulator.
    %y1 = linalg.matmul {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 4>}
        ins(%x, %w_kr : tensor<5x12xf32>, tensor<12x20xf32>)
        outs(%acc : tensor<5x20xf32>) -> tensor<5x20xf32>
    %r1 = linalg.matmul ins(%x, %w_kr : tensor<5x12xf32>, tensor<12x20xf32>)
        outs(%acc : tensor<5x20xf32>) -> tensor<5x20xf32>
    %a1 = tensor.cast %y1 : tensor<5x20xf32> to tensor<?x?xf32>
    %e1 = tensor.cast %r1 : tensor<5x20xf32> to tensor<?x?xf32>
    %id1 = arith.constant 1 : i64
    func.call @check(%id1, %a1, %e1) : (i64, tensor<?x?xf32>, tensor<?x?xf32>) -> ()

    // 2. x @ W.T through transposed maps (W held R x K).
    %y2 = linalg.matmul indexing_maps = #x_wt
        {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 4>}
        ins(%x, %w_rk : tensor<5x12xf32>, tensor<20x12xf32>)
        outs(%z520 : tensor<5x20xf32>) -> tensor<5x20xf32>
    %r2 = linalg.matmul ins(%x, %w_kr : tensor<5x12xf32>, tensor<12x20xf32>)
        outs(%z520 : tensor<5x20xf32>) -> tensor<5x20xf32>
    %a2 = tensor.cast %y2 : tensor<5x20xf32> to tensor<?x?xf32>
    %e2 = tensor.cast %r2 : tensor<5x20xf32> to tensor<?x?xf32>
    %id2 = arith.constant 2 : i64
    func.call @check(%id2, %a2, %e2) : (i64, tensor<?x?xf32>, tensor<?x?xf32>) -> ()

    // 3. x @ W.T through a linalg.transpose of W (Torch-MLIR), accumulating.
    %e1220 = tensor.empty() : tensor<12x20xf32>
    %w_t = linalg.transpose ins(%w_rk : tensor<20x12xf32>)
        outs(%e1220 : tensor<12x20xf32>) permutation = [1, 0]
    %y3 = linalg.matmul {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 4>}
        ins(%x, %w_t : tensor<5x12xf32>, tensor<12x20xf32>)
        outs(%acc : tensor<5x20xf32>) -> tensor<5x20xf32>
    %a3 = tensor.cast %y3 : tensor<5x20xf32> to tensor<?x?xf32>
    %id3 = arith.constant 3 : i64
    func.call @check(%id3, %a3, %e1) : (i64, tensor<?x?xf32>, tensor<?x?xf32>) -> ()

    // 4. W @ x, weight on the left, accumulating.
    %x2d = func.call @random(%c12, %c7) : (index, index) -> tensor<?x?xf32>
    %x2 = tensor.cast %x2d : tensor<?x?xf32> to tensor<12x7xf32>
    %acc2d = func.call @random(%c20, %c7) : (index, index) -> tensor<?x?xf32>
    %acc2 = tensor.cast %acc2d : tensor<?x?xf32> to tensor<20x7xf32>
    %y4 = linalg.matmul {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 4>}
        ins(%w_rk, %x2 : tensor<20x12xf32>, tensor<12x7xf32>)
        outs(%acc2 : tensor<20x7xf32>) -> tensor<20x7xf32>
    %r4 = linalg.matmul ins(%w_rk, %x2 : tensor<20x12xf32>, tensor<12x7xf32>)
        outs(%acc2 : tensor<20x7xf32>) -> tensor<20x7xf32>
    %a4 = tensor.cast %y4 : tensor<20x7xf32> to tensor<?x?xf32>
    %e4 = tensor.cast %r4 : tensor<20x7xf32> to tensor<?x?xf32>
    %id4 = arith.constant 4 : i64
    func.call @check(%id4, %a4, %e4) : (i64, tensor<?x?xf32>, tensor<?x?xf32>) -> ()

    // 5. batch_matmul with a B x K x R constant weight.
    %xbd = func.call @random(%c6, %c6) : (index, index) -> tensor<?x?xf32>
    %xbd8 = func.call @random(%c6, %c2) : (index, index) -> tensor<?x?xf32>
    %xb6 = tensor.cast %xbd : tensor<?x?xf32> to tensor<6x6xf32>
    %xb2 = tensor.cast %xbd8 : tensor<?x?xf32> to tensor<6x2xf32>
    %eb = tensor.empty() : tensor<6x8xf32>
    %xb68 = tensor.insert_slice %xb6 into %eb[0, 0] [6, 6] [1, 1] : tensor<6x6xf32> into tensor<6x8xf32>
    %xb68b = tensor.insert_slice %xb2 into %xb68[0, 6] [6, 2] [1, 1] : tensor<6x2xf32> into tensor<6x8xf32>
    %xb = tensor.expand_shape %xb68b [[0, 1], [2]] output_shape [2, 3, 8]
        : tensor<6x8xf32> into tensor<2x3x8xf32>
    %w_b = arith.constant dense<[[[1.25, 0.00, 0.50, -0.50, 0.00, 0.00], [0.00, 0.00, 0.00, 0.00, 0.25, -1.75], [0.00, 0.25, -0.50, -1.25, -1.25, 0.00], [-0.75, 0.50, 0.00, 0.00, 0.00, 1.75], [0.75, 0.00, 0.75, -1.25, -2.00, 0.00], [0.00, -1.25, 0.00, 0.00, 0.00, 0.00], [1.25, 0.00, 0.00, 0.00, -0.25, -1.00], [0.00, -0.50, 1.75, 1.00, 0.00, 1.00]], [[0.00, 1.25, 1.50, 0.00, 0.00, 0.00], [0.25, 0.00, 1.00, 1.00, -1.75, 0.00], [0.00, -1.25, 0.00, -2.00, 0.00, 0.75], [-0.25, 0.00, 0.00, 0.00, -1.25, 0.75], [1.75, -0.75, -1.50, 0.00, 0.00, 0.75], [0.00, 2.00, -0.25, -0.50, 0.00, 0.00], [-0.25, 0.00, 0.00, 0.50, -0.50, -1.00], [0.00, 0.00, 0.00, 0.00, -1.75, 0.00]]]> : tensor<2x8x6xf32>
    %e236 = tensor.empty() : tensor<2x3x6xf32>
    %z236 = linalg.fill ins(%zero : f32) outs(%e236 : tensor<2x3x6xf32>) -> tensor<2x3x6xf32>
    %y5 = linalg.batch_matmul {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 4>}
        ins(%xb, %w_b : tensor<2x3x8xf32>, tensor<2x8x6xf32>)
        outs(%z236 : tensor<2x3x6xf32>) -> tensor<2x3x6xf32>
    %r5 = linalg.batch_matmul ins(%xb, %w_b : tensor<2x3x8xf32>, tensor<2x8x6xf32>)
        outs(%z236 : tensor<2x3x6xf32>) -> tensor<2x3x6xf32>
    %y5c = tensor.collapse_shape %y5 [[0, 1], [2]] : tensor<2x3x6xf32> into tensor<6x6xf32>
    %r5c = tensor.collapse_shape %r5 [[0, 1], [2]] : tensor<2x3x6xf32> into tensor<6x6xf32>
    %a5 = tensor.cast %y5c : tensor<6x6xf32> to tensor<?x?xf32>
    %e5 = tensor.cast %r5c : tensor<6x6xf32> to tensor<?x?xf32>
    %id5 = arith.constant 5 : i64
    func.call @check(%id5, %a5, %e5) : (i64, tensor<?x?xf32>, tensor<?x?xf32>) -> ()

    // 6. An annotated R x K argument, compressed by the caller.
    %y6 = func.call @linear(%x, %w_rk) : (tensor<5x12xf32>, tensor<20x12xf32>) -> tensor<5x20xf32>
    %a6 = tensor.cast %y6 : tensor<5x20xf32> to tensor<?x?xf32>
    %id6 = arith.constant 6 : i64
    func.call @check(%id6, %a6, %e2) : (i64, tensor<?x?xf32>, tensor<?x?xf32>) -> ()

    // 7. An annotated K x R argument, compressed on entry.
    %y7 = func.call @dense(%x, %w_kr, %acc)
        : (tensor<5x12xf32>, tensor<12x20xf32>, tensor<5x20xf32>) -> tensor<5x20xf32>
    %a7 = tensor.cast %y7 : tensor<5x20xf32> to tensor<?x?xf32>
    %id7 = arith.constant 7 : i64
    func.call @check(%id7, %a7, %e1) : (i64, tensor<?x?xf32>, tensor<?x?xf32>) -> ()
    return
  }
}
