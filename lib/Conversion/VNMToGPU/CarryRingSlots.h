//===- CarryRingSlots.h - ring slots as counters of a pipelined loop -*- C++
//-*-===//

#ifndef VNM_LIB_CONVERSION_VNMTOGPU_CARRYRINGSLOTS_H
#define VNM_LIB_CONVERSION_VNMTOGPU_CARRYRINGSLOTS_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace vnm::kernel {

/// Replaces each remainder (iv + c) mod S of `loop`'s body (S a constant
/// other than a power of two, c >= 0, a constant step) with a counter the
/// loop carries, and returns the new loop (`loop` itself if none).
mlir::scf::ForOp carryRingSlots(mlir::scf::ForOp loop);

} // namespace vnm::kernel

#endif // VNM_LIB_CONVERSION_VNMTOGPU_CARRYRINGSLOTS_H
