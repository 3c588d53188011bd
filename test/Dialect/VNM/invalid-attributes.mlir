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

// expected-error @+1 {{'vnm.config' applies to vnm.spmm and vnm.storage.spmm only}}
func.func private @config_elsewhere() attributes {vnm.config = #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 0>}

// -----

// expected-error @+1 {{'vnm.config' must be a kernel tiling attribute (such as #vnm_gpu.mma_sp_tiling<...>), got 3 : i64}}
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
