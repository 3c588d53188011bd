// The vnm dialect's discardable attributes are checked wherever they appear.
// RUN: vnm-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'vnm.encoding' on argument 0 must be a #vnm.encoding<...>, got 64 : i64}}
func.func @arg(%w: tensor<64x8xf16> {vnm.encoding = 64}) {
  return
}

// -----

// expected-error @+1 {{unknown vnm argument attribute 'vnm.weight'}}
func.func @unknown_arg(%w: tensor<64x8xf16> {vnm.weight}) {
  return
}

// -----

func.func @op(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'vnm.encoding' must be a #vnm.encoding<...>, got "64:2:8"}}
  %0 = linalg.matmul {vnm.encoding = "64:2:8"} ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// expected-error @+1 {{'vnm.gpu_kernel' must be a symbol reference, got "spmm_0"}}
func.func @kernel() attributes {vnm.gpu_kernel = "spmm_0"} {
  return
}

// -----

// expected-error @+1 {{'vnm.launch_contracts' must be an array of dictionaries naming their kernel}}
module attributes {vnm.launch_contracts = [{grid_y = 4}]} {
}

// -----

// expected-error @+1 {{unknown vnm attribute 'vnm.tile'}}
func.func @unknown() attributes {vnm.tile = 3} {
  return
}

// -----

// Well-formed attributes are accepted.
module attributes {vnm.launch_contracts = [{kernel = "spmm_0"}]} {
  func.func @ok(%w: tensor<64x8xf16> {vnm.encoding = #vnm.encoding<v = 64, n = 2, m = 8>}) attributes {vnm.gpu_kernel = @k::@spmm_0} {
    return
  }
}

// -----

func.func @config_c1(%w: tensor<64x8xf16, #vnm.encoding<v = 64, n = 2, m = 8>>, %x: tensor<8x8xf16>) -> tensor<64x8xf32> {
  // expected-error @+1 {{#vnm.config (C1): block must be [64, 128] or [128, 128], got [32, 128]}}
  %y = vnm.spmm %w, %x {vnm.config = #vnm.config<block = [32, 128], warps = [1, 2], stages = 3, blocks_per_sm = 0>} : tensor<64x8xf16, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<8x8xf16> -> tensor<64x8xf32>
  return %y : tensor<64x8xf32>
}

// -----

// expected-error @+1 {{#vnm.config (C2): warps[0] must be block[0] / 32 or block[0] / 64 (32- or 64-row warp tiles), got 4}}
func.func private @config_c2() attributes {cfg = #vnm.config<block = [64, 128], warps = [4, 2], stages = 3, blocks_per_sm = 0>}

// -----

// expected-error @+1 {{#vnm.config (C3): warps[1] must be 2 or 4, got 8}}
func.func private @config_c3() attributes {cfg = #vnm.config<block = [64, 128], warps = [2, 8], stages = 3, blocks_per_sm = 0>}

// -----

// expected-error @+1 {{#vnm.config (C4): stages must be in [2, 6], got 7}}
func.func private @config_c4() attributes {cfg = #vnm.config<block = [64, 128], warps = [2, 2], stages = 7, blocks_per_sm = 0>}

// -----

// expected-error @+1 {{#vnm.config (C4): stages must be in [2, 6], got 1}}
func.func private @config_c4_low() attributes {cfg = #vnm.config<block = [64, 128], warps = [2, 2], stages = 1, blocks_per_sm = 0>}

// -----

// expected-error @+1 {{#vnm.config (C5): blocks_per_sm must be in [0, 32], got -1}}
func.func private @config_c5() attributes {cfg = #vnm.config<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = -1>}

// -----

// expected-error @+1 {{'vnm.config' applies to vnm.spmm and vnm.storage.spmm only}}
func.func private @config_elsewhere() attributes {vnm.config = #vnm.config<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 0>}

// -----

// expected-error @+1 {{'vnm.config' must be a #vnm.config<...>, got 3 : i64}}
func.func private @config_kind() attributes {vnm.config = 3}

// -----

// expected-error @+1 {{'vnm.pipeline_stage' must be a non-negative i64, got -1 : i64}}
func.func @stage() attributes {vnm.pipeline_stage = -1 : i64} {
  return
}

// -----

// expected-error @+1 {{'vnm.pipeline_order' must be a non-negative i64, got "first"}}
func.func @order() attributes {vnm.pipeline_order = "first"} {
  return
}
