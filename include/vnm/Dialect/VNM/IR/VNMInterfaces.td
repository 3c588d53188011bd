//===- VNMInterfaces.td - vnm attribute interfaces ---------*- tablegen -*-===//

#ifndef VNM_DIALECT_VNM_IR_VNMINTERFACES_TD
#define VNM_DIALECT_VNM_IR_VNMINTERFACES_TD

include "mlir/IR/OpBase.td"

def VNM_KernelTilingAttrInterface : AttrInterface<"KernelTilingAttrInterface"> {
  let cppNamespace = "::vnm";
  let description = [{
    The tiling of one GPU kernel recipe, carried as the discardable attribute
    `vnm.config` on `vnm.spmm` / `vnm.storage.spmm`. Each kernel family
    (the `mma.sp` kernels, later the quantized and Hopper `wgmma.sp` ones)
    defines its own attribute, outside the core dialect; the core dialect
    only knows that the attribute describes a tiling.
  }];
  let methods = [
    InterfaceMethod<"Rows of the result one thread block computes.",
                    "int64_t", "getTileRows">,
    InterfaceMethod<"Columns of the result one thread block computes.",
                    "int64_t", "getTileCols">,
    InterfaceMethod<"Threads per block.", "int64_t", "getBlockThreads">,
    InterfaceMethod<"Slots of the shared-memory ring.", "int64_t",
                    "getRingStages">,
  ];
}

#endif // VNM_DIALECT_VNM_IR_VNMINTERFACES_TD
