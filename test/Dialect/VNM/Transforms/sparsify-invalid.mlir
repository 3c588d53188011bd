// RUN: vnm-opt %s --vnm-sparsify -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// Annotated arguments.
//===----------------------------------------------------------------------===//

// The dialect's attribute verifier rejects this before the pass runs.
// expected-error@+1 {{'vnm.encoding' on argument 0 must be a #vnm.encoding<...>, got "64:2:8"}}
func.func @not_an_encoding(%w: tensor<64x32xf16> {vnm.encoding = "64:2:8"}) -> tensor<64x32xf16> {
  return %w : tensor<64x32xf16>
}

// -----

// A batch of weights has no encoded type.
// expected-error@+1 {{vnm-sparsify: argument 1 of @batched_argument: the weight must be a rank-2 (R x K) tensor without encoding (encoding C4), got 'tensor<2x8x16xf32>'}}
func.func @batched_argument(%x: tensor<2x4x8xf32>, %w: tensor<2x8x16xf32> {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>},
                            %c: tensor<2x4x16xf32>) -> tensor<2x4x16xf32> {
  %y = linalg.batch_matmul ins(%x, %w : tensor<2x4x8xf32>, tensor<2x8x16xf32>)
      outs(%c : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return %y : tensor<2x4x16xf32>
}

// -----

// expected-error@+1 {{vnm-sparsify: argument 0 of @buffer_argument: the weight must be a rank-2 (R x K) tensor without encoding (encoding C4), got 'memref<16x8xf32>'}}
func.func @buffer_argument(%w: memref<16x8xf32> {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>},
                           %x: memref<8x4xf32>, %c: memref<16x4xf32>) {
  linalg.matmul ins(%w, %x : memref<16x8xf32>, memref<8x4xf32>)
      outs(%c : memref<16x4xf32>)
  return
}

// -----

// expected-error@+1 {{vnm-sparsify: argument 0 of @f64_argument: element type 'f64' cannot be encoded (encoding C6: f16, bf16, f32, i8 or i4)}}
func.func @f64_argument(%w: tensor<16x8xf64> {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>},
                        %x: tensor<8x4xf64>, %c: tensor<16x4xf64>) -> tensor<16x4xf64> {
  %y = linalg.matmul ins(%w, %x : tensor<16x8xf64>, tensor<8x4xf64>)
      outs(%c : tensor<16x4xf64>) -> tensor<16x4xf64>
  return %y : tensor<16x4xf64>
}

// -----

// x @ W.T: dimension 1 of W is K.
// expected-error@+1 {{vnm-sparsify: argument 1 of @dynamic_k: dimension 1 (K) of the weight is dynamic (encoding C5: encoded tensors have a static shape)}}
func.func @dynamic_k(%x: tensor<4x?xf32>, %w: tensor<16x?xf32> {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>},
                     %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %y = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<4x?xf32>, tensor<16x?xf32>)
      outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// x @ W with W held K x R: dimension 1 of W is R.
// expected-error@+1 {{vnm-sparsify: argument 1 of @dynamic_r: dimension 1 (R) of the weight is dynamic (encoding C5: encoded tensors have a static shape)}}
func.func @dynamic_r(%x: tensor<4x8xf32>, %w: tensor<8x?xf32> {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>},
                     %c: tensor<4x?xf32>) -> tensor<4x?xf32> {
  %y = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x?xf32>)
      outs(%c : tensor<4x?xf32>) -> tensor<4x?xf32>
  return %y : tensor<4x?xf32>
}

// -----

// Read R x K by one matmul and K x R by another, dimension 0 is both.
// expected-error@+1 {{vnm-sparsify: argument 0 of @dynamic_mixed: dimension 0 of the weight is dynamic (encoding C5: encoded tensors have a static shape)}}
func.func @dynamic_mixed(%w: tensor<?x16xf32> {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>},
                         %x: tensor<16x4xf32>, %c: tensor<?x4xf32>, %z: tensor<4x?xf32>,
                         %d: tensor<4x16xf32>) -> (tensor<?x4xf32>, tensor<4x16xf32>) {
  %y = linalg.matmul ins(%w, %x : tensor<?x16xf32>, tensor<16x4xf32>)
      outs(%c : tensor<?x4xf32>) -> tensor<?x4xf32>
  %u = linalg.matmul ins(%z, %w : tensor<4x?xf32>, tensor<?x16xf32>)
      outs(%d : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y, %u : tensor<?x4xf32>, tensor<4x16xf32>
}

// -----

// Callers must pass the encoded matrix; a reference other than a call cannot
// be updated.
// expected-error@+1 {{vnm-sparsify: argument 0 of @referenced: cannot retype the argument: @referenced is used by 'func.constant', which the pass does not update}}
func.func @referenced(%w: tensor<16x8xf32> {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>},
                      %x: tensor<8x4xf32>, %c: tensor<16x4xf32>) -> tensor<16x4xf32> {
  %y = linalg.matmul ins(%w, %x : tensor<16x8xf32>, tensor<8x4xf32>)
      outs(%c : tensor<16x4xf32>) -> tensor<16x4xf32>
  return %y : tensor<16x4xf32>
}

func.func @take_address() -> ((tensor<16x8xf32>, tensor<8x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>) {
  // expected-note@+1 {{used here}}
  %f = func.constant @referenced : (tensor<16x8xf32>, tensor<8x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
  return %f : (tensor<16x8xf32>, tensor<8x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
}

// -----

func.func @two_arguments(%w: tensor<16x8xf32> {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>},
                         %v: tensor<8x4xf32> {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>},
                         %c: tensor<16x4xf32>) -> tensor<16x4xf32> {
  // expected-error@+1 {{'linalg.matmul' op vnm-sparsify: both inputs are weight candidates (arguments annotated with vnm.encoding); only one operand can be encoded}}
  %y = linalg.matmul ins(%w, %v : tensor<16x8xf32>, tensor<8x4xf32>)
      outs(%c : tensor<16x4xf32>) -> tensor<16x4xf32>
  return %y : tensor<16x4xf32>
}

// -----

// One argument as both operands (W W.T).
func.func @same_argument(%w: tensor<16x8xf32> {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>},
                         %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  // expected-error@+1 {{'linalg.matmul' op vnm-sparsify: both inputs are weight candidates (arguments annotated with vnm.encoding); only one operand can be encoded}}
  %y = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%w, %w : tensor<16x8xf32>, tensor<16x8xf32>)
      outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %y : tensor<16x16xf32>
}

// -----

func.func @conflicting_formats(%w: tensor<16x8xf32> {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>},
                               %x: tensor<8x4xf32>, %c: tensor<16x4xf32>) -> tensor<16x4xf32> {
  // expected-error@+1 {{'linalg.matmul' op vnm-sparsify: vnm.encoding #vnm.encoding<v = 16, n = 1, m = 8> differs from #vnm.encoding<v = 16, n = 2, m = 8> of its weight, argument 0 of @conflicting_formats}}
  %y = linalg.matmul {vnm.encoding = #vnm.encoding<v = 16, n = 1, m = 8>}
      ins(%w, %x : tensor<16x8xf32>, tensor<8x4xf32>)
      outs(%c : tensor<16x4xf32>) -> tensor<16x4xf32>
  return %y : tensor<16x4xf32>
}

// -----

// An argument annotation asks for the matmul: what spmm cannot express is an
// error.
func.func @argument_result_type(%w: tensor<16x8xi8> {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>},
                                %x: tensor<8x4xi8>, %c: tensor<16x4xi8>) -> tensor<16x4xi8> {
  // expected-error@+1 {{'linalg.matmul' op vnm-sparsify: result element type 'i8' is not one vnm.spmm yields for 'i8' inputs (spmm C5: f16, bf16 or f32 for float inputs, i32 for integer inputs)}}
  %y = linalg.matmul ins(%w, %x : tensor<16x8xi8>, tensor<8x4xi8>)
      outs(%c : tensor<16x4xi8>) -> tensor<16x4xi8>
  return %y : tensor<16x4xi8>
}

//===----------------------------------------------------------------------===//
// The op's vnm.encoding attribute.
//===----------------------------------------------------------------------===//

// -----

func.func @op_attribute_kind(%x: tensor<8x4xf32>, %c: tensor<16x4xf32>) -> tensor<16x4xf32> {
  %w = arith.constant dense<1.0> : tensor<16x8xf32>
  // The dialect's attribute verifier rejects this before the pass runs.
  // expected-error@+1 {{'vnm.encoding' must be a #vnm.encoding<...>, got 8 : i64}}
  %y = linalg.matmul {vnm.encoding = 8}
      ins(%w, %x : tensor<16x8xf32>, tensor<8x4xf32>)
      outs(%c : tensor<16x4xf32>) -> tensor<16x4xf32>
  return %y : tensor<16x4xf32>
}

// -----

func.func @no_weight(%w: tensor<16x8xf32>, %x: tensor<8x4xf32>, %c: tensor<16x4xf32>) -> tensor<16x4xf32> {
  // expected-error@+1 {{'linalg.matmul' op vnm-sparsify: has a vnm.encoding attribute but neither input is a constant or an argument annotated with vnm.encoding}}
  %y = linalg.matmul {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>}
      ins(%w, %x : tensor<16x8xf32>, tensor<8x4xf32>)
      outs(%c : tensor<16x4xf32>) -> tensor<16x4xf32>
  return %y : tensor<16x4xf32>
}

// -----

func.func @two_constants(%c: tensor<16x4xf32>) -> tensor<16x4xf32> {
  %w = arith.constant dense<1.0> : tensor<16x8xf32>
  %x = arith.constant dense<2.0> : tensor<8x4xf32>
  // expected-error@+1 {{'linalg.matmul' op vnm-sparsify: both inputs are weight candidates (constants); only one operand can be encoded}}
  %y = linalg.matmul {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>}
      ins(%w, %x : tensor<16x8xf32>, tensor<8x4xf32>)
      outs(%c : tensor<16x4xf32>) -> tensor<16x4xf32>
  return %y : tensor<16x4xf32>
}

// -----

func.func @f64_constant(%x: tensor<8x4xf64>, %c: tensor<16x4xf64>) -> tensor<16x4xf64> {
  %w = arith.constant dense<1.0> : tensor<16x8xf64>
  // expected-error@+1 {{'linalg.matmul' op vnm-sparsify: weight element type 'f64' cannot be encoded (encoding C6: f16, bf16, f32, i8 or i4)}}
  %y = linalg.matmul {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>}
      ins(%w, %x : tensor<16x8xf64>, tensor<8x4xf64>)
      outs(%c : tensor<16x4xf64>) -> tensor<16x4xf64>
  return %y : tensor<16x4xf64>
}

// -----

func.func @result_type(%x: tensor<8x4xf16>, %c: tensor<16x4xf64>) -> tensor<16x4xf64> {
  %w = arith.constant dense<1.0> : tensor<16x8xf16>
  // expected-error@+1 {{'linalg.matmul' op vnm-sparsify: result element type 'f64' is not one vnm.spmm yields for 'f16' inputs (spmm C5: f16, bf16 or f32 for float inputs, i32 for integer inputs)}}
  %y = linalg.matmul {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>}
      ins(%w, %x : tensor<16x8xf16>, tensor<8x4xf16>)
      outs(%c : tensor<16x4xf64>) -> tensor<16x4xf64>
  return %y : tensor<16x4xf64>
}

// -----

func.func @mixed_inputs(%x: tensor<8x4xf32>, %c: tensor<16x4xf32>) -> tensor<16x4xf32> {
  %w = arith.constant dense<1.0> : tensor<16x8xf16>
  // expected-error@+1 {{'linalg.matmul' op vnm-sparsify: inputs have different element types ('f16' for the weight, 'f32' for the other input); vnm.spmm takes one (spmm C3)}}
  %y = linalg.matmul {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>}
      ins(%w, %x : tensor<16x8xf16>, tensor<8x4xf32>)
      outs(%c : tensor<16x4xf32>) -> tensor<16x4xf32>
  return %y : tensor<16x4xf32>
}

// -----

func.func @unsigned(%x: tensor<8x4xi8>, %c: tensor<16x4xi32>) -> tensor<16x4xi32> {
  %w = arith.constant dense<1> : tensor<16x8xi8>
  // expected-error@+1 {{'linalg.matmul' op vnm-sparsify: integer inputs are cast unsigned; vnm.spmm multiplies signed integers}}
  %y = linalg.matmul {cast = #linalg.type_fn<cast_unsigned>, vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>}
      ins(%w, %x : tensor<16x8xi8>, tensor<8x4xi8>)
      outs(%c : tensor<16x4xi32>) -> tensor<16x4xi32>
  return %y : tensor<16x4xi32>
}

// -----

// A rank-1 input broadcast along m.
func.func @broadcast(%x: tensor<8xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %w = arith.constant dense<1.0> : tensor<8x16xf32>
  // expected-error@+1 {{'linalg.matmul' op vnm-sparsify: indexing maps are not those of a plain or operand-transposed matmul}}
  %y = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (k)>,
                       affine_map<(m, n, k) -> (k, n)>,
                       affine_map<(m, n, k) -> (m, n)>]
      {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>}
      ins(%x, %w : tensor<8xf32>, tensor<8x16xf32>)
      outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

func.func @not_a_matmul(%x: tensor<16x8xf32>, %c: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error@+1 {{'linalg.transpose' op vnm-sparsify: only linalg.matmul and linalg.batch_matmul take a vnm.encoding attribute}}
  %t = linalg.transpose ins(%x : tensor<16x8xf32>) outs(%c : tensor<8x16xf32>)
      permutation = [1, 0] {vnm.encoding = #vnm.encoding<v = 16, n = 2, m = 8>}
  return %t : tensor<8x16xf32>
}

// -----

// A weight dimension above the format's limit (encoding C7) cannot be
// encoded: an argument...
// expected-error@+2 {{vnm-sparsify: argument 1 of @huge_argument: dimension 1 of the weight is 4294967296, above the format's limit of 2147483647 (encoding C7)}}
func.func @huge_argument(%x: tensor<4294967296x8xf16>,
    %w: tensor<64x4294967296xf16> {vnm.encoding = #vnm.encoding<v = 64, n = 2, m = 8>},
    %c: tensor<64x8xf32>) -> tensor<64x8xf32> {
  %y = linalg.matmul ins(%w, %x : tensor<64x4294967296xf16>, tensor<4294967296x8xf16>)
      outs(%c : tensor<64x8xf32>) -> tensor<64x8xf32>
  return %y : tensor<64x8xf32>
}

// -----

// ... and a constant (a splat: it claims 2^64 elements, which wrap to 0).
func.func @huge_constant(%x: tensor<4294967296x8xf16>, %c: tensor<4294967296x8xf32>) -> tensor<4294967296x8xf32> {
  %w = arith.constant dense<1.0> : tensor<4294967296x4294967296xf16>
  // expected-error@+1 {{'linalg.matmul' op vnm-sparsify: dimension 0 of the weight is 4294967296, above the format's limit of 2147483647 (encoding C7)}}
  %y = linalg.matmul {vnm.encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
      ins(%w, %x : tensor<4294967296x4294967296xf16>, tensor<4294967296x8xf16>)
      outs(%c : tensor<4294967296x8xf32>) -> tensor<4294967296x8xf32>
  return %y : tensor<4294967296x8xf32>
}
