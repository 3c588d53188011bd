// What convert-vnm-gpu-to-loops refuses, each with a diagnostic.
// RUN: vnm-opt %s --split-input-file --convert-vnm-gpu-to-loops -verify-diagnostics

// (The alias loads the vnm dialect, which vnm_gpu.epilogue's default
// activation needs and the vnm_gpu dialect does not load itself.)
#none = #vnm.activation<none>
!acc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>

// A tile program outside a kernel.
gpu.module @kernels {
  // expected-error @+1 {{holds a tile program but is not a kernel}}
  gpu.func @helper(%out: memref<?xf32>, %i: i32) {
    %zero = vnm_gpu.zero : !acc
    vnm_gpu.epilogue %zero into %out[%i, %i] bounds(64, %i) ld(%i) : !acc, memref<?xf32>
    gpu.return
  }
}

// -----

// (The alias loads the vnm dialect, which vnm_gpu.epilogue's default
// activation needs and the vnm_gpu dialect does not load itself.)
#none = #vnm.activation<none>
!acc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>

// Threads have no meaning when a block runs as whole tiles.
gpu.module @kernels {
  gpu.func @threads(%out: memref<?xf32>, %i: i32) kernel {
    // expected-error @+1 {{has no meaning in a tile program run on the CPU}}
    %t = gpu.thread_id x
    %zero = vnm_gpu.zero : !acc
    vnm_gpu.epilogue %zero into %out[%i, %i] bounds(64, %i) ld(%i) : !acc, memref<?xf32>
    gpu.return
  }
}

// -----

// (The alias loads the vnm dialect, which vnm_gpu.epilogue's default
// activation needs and the vnm_gpu dialect does not load itself.)
#none = #vnm.activation<none>
!acc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>

// NVVM code cannot run on the CPU.
gpu.module @kernels {
  gpu.func @nvvm(%out: memref<?xf32>, %i: i32) kernel {
    // expected-error @+1 {{is GPU code inside a tile program}}
    nvvm.cp.async.wait.group 0
    %zero = vnm_gpu.zero : !acc
    vnm_gpu.epilogue %zero into %out[%i, %i] bounds(64, %i) ld(%i) : !acc, memref<?xf32>
    gpu.return
  }
}

// -----

// (The alias loads the vnm dialect, which vnm_gpu.epilogue's default
// activation needs and the vnm_gpu dialect does not load itself.)
#none = #vnm.activation<none>
!acc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>

// A kernel body of several blocks.
gpu.module @kernels {
  // expected-error @+1 {{holds a tile program in more than one block}}
  gpu.func @blocks(%out: memref<?xf32>, %i: i32) kernel {
    %zero = vnm_gpu.zero : !acc
    cf.br ^next
  ^next:
    vnm_gpu.epilogue %zero into %out[%i, %i] bounds(64, %i) ld(%i) : !acc, memref<?xf32>
    gpu.return
  }
}

// -----

// (The alias loads the vnm dialect, which vnm_gpu.epilogue's default
// activation needs and the vnm_gpu dialect does not load itself.)
#none = #vnm.activation<none>
!acc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>

// A tile carried by an op the lowering cannot follow.
gpu.module @kernels {
  gpu.func @while(%out: memref<?xf32>, %i: i32, %go: i1) kernel {
    %zero = vnm_gpu.zero : !acc
    // expected-error @+1 {{takes a tile value}}
    %r = scf.while (%x = %zero) : (!acc) -> !acc {
      scf.condition(%go) %x : !acc
    } do {
    ^bb0(%y: !acc):
      scf.yield %y : !acc
    }
    vnm_gpu.epilogue %r into %out[%i, %i] bounds(64, %i) ld(%i) : !acc, memref<?xf32>
    gpu.return
  }
}

// -----

// (The alias loads the vnm dialect, which vnm_gpu.epilogue's default
// activation needs and the vnm_gpu dialect does not load itself.)
#none = #vnm.activation<none>
!acc = !vnm_gpu.acc<64x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [2, 2]>>

// The host function's name is taken.
func.func @taken_cpu() {
  return
}
gpu.module @kernels {
  // expected-error @+1 {{runs on the CPU as @taken_cpu, but the module already has a symbol of that name}}
  gpu.func @taken(%out: memref<?xf32>, %i: i32) kernel {
    %zero = vnm_gpu.zero : !acc
    vnm_gpu.epilogue %zero into %out[%i, %i] bounds(64, %i) ld(%i) : !acc, memref<?xf32>
    gpu.return
  }
}
