// vnm-unroll-kernel-loops rejects unroll factors that are not positive
// integers, on the kernel or as its option.
// RUN: vnm-opt %s --vnm-unroll-kernel-loops --split-input-file -verify-diagnostics
// RUN: not vnm-opt %s --split-input-file --vnm-unroll-kernel-loops=factor=-2 2>&1 | FileCheck %s --check-prefix=FACTOR

// FACTOR: error: 'gpu.func' op vnm-unroll-kernel-loops: factor must be >= 0, got -2

gpu.module @m {
  // expected-error @+1 {{'gpu.func' op has vnm_gpu.unroll = 0 : i64; the K loop's unroll factor must be an integer >= 1}}
  gpu.func @k() kernel attributes {vnm_gpu.unroll = 0 : i64} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{'gpu.func' op has vnm_gpu.unroll = "3"; the K loop's unroll factor must be an integer >= 1}}
  gpu.func @k() kernel attributes {vnm_gpu.unroll = "3"} {
    gpu.return
  }
}

// -----

// A kernel without the attribute, or with 1, is accepted (nothing to unroll).
gpu.module @m {
  gpu.func @k() kernel attributes {vnm_gpu.unroll = 1 : i64} {
    gpu.return
  }
  gpu.func @l() kernel {
    gpu.return
  }
}
