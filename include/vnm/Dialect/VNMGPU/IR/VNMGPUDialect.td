//===- VNMGPUDialect.td - vnm_gpu dialect definition -------*- tablegen -*-===//
//
// The vnm_gpu dialect holds the tile programs of the GPU kernels: what one
// thread block does, step by step, with the lane-level layouts carried by
// attributes and types.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_DIALECT_VNMGPU_IR_VNMGPUDIALECT_TD
#define VNM_DIALECT_VNMGPU_IR_VNMGPUDIALECT_TD

include "mlir/IR/OpBase.td"

def VNMGPU_Dialect : Dialect {
  let name = "vnm_gpu";
  let cppNamespace = "::vnm::vnm_gpu";
  let summary = "Tile programs of vnm's sparse-tensor-core kernels";
  let description = [{
    A `vnm_gpu` program is the body of one GPU kernel at the level of one
    thread block's tiles: a shared-memory ring, the column-loc gather of
    dense rows into a ring slot, a dense tile copy, waits for those copies,
    sparse A fragments with their metadata, B fragments read from a slot,
    the sparse MMA, and the epilogue that stores the block's tile of the
    result. Values of the fragment and accumulator types stand for the
    whole block tile; their layout attribute (MMA geometry, warp grid)
    says how the tile is spread over lanes and registers.

    Two lowerings consume a tile program: `convert-vnm-gpu-to-nvvm` (one
    pattern per op, to NVVM) and the CPU execution of the tile program
    (whole-tile loops that ignore lane layouts), so that a kernel's tiling,
    gather indices, ring slots, pipelining and epilogue are checked on the
    CPU. docs/spec.md (section vnm_gpu) numbers every constraint; verifier
    messages cite those numbers.
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  // Tile ops carry vnm attributes (#vnm.encoding in matrix types,
  // #vnm.activation).
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::vnm::VNMDialect"];
  // vnm_gpu.param on kernel arguments.
  let hasRegionArgAttrVerify = 1;
}

#endif // VNM_DIALECT_VNMGPU_IR_VNMGPUDIALECT_TD
