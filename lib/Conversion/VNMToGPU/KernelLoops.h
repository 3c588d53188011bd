//===- KernelLoops.h - which loops of a tile program are K loops -*- C++
//-*-===//
//
// vnm-pipeline-kernels pipelines, and vnm-unroll-kernel-loops unrolls, the
// K loops of tile programs: the loops whose body waits for a ring.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_LIB_CONVERSION_VNMTOGPU_KERNELLOOPS_H
#define VNM_LIB_CONVERSION_VNMTOGPU_KERNELLOOPS_H

#include "mlir/Dialect/SCF/IR/SCF.h"

#include "vnm/Dialect/VNMGPU/IR/VNMGPU.h"

namespace vnm::kernel {

/// Whether `loop` is a kernel K loop: its body waits for a ring.
inline bool isKernelLoop(mlir::scf::ForOp loop) {
  return !loop.getBody()->getOps<vnm_gpu::WaitOp>().empty();
}

} // namespace vnm::kernel

#endif // VNM_LIB_CONVERSION_VNMTOGPU_KERNELLOOPS_H
