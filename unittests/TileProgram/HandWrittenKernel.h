//===- HandWrittenKernel.h - tile programs written out by hand --*- C++ -*-=//
//
// The tile program of a case's kernel written directly, in two forms: the K
// loop as a plain sequence (gather, wait for it, compute), and software
// pipelined by hand (S - 1 gathers in flight, a wait that leaves S - 2
// pending, A fragments and column-locs loaded one iteration ahead and
// carried as iter_args, a prologue and an epilogue with exact wait counts).
// They test the CPU execution independently of the kernel generator, and
// give the mutation check programs whose indexing is known line by line.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_UNITTESTS_TILEPROGRAM_HANDWRITTENKERNEL_H
#define VNM_UNITTESTS_TILEPROGRAM_HANDWRITTENKERNEL_H

#include "SpmmCase.h"

#include <string>

namespace vnm::tile_test {

/// A module with `gpu.module @vnm_kernels` holding kernel @spmm_0 (the
/// parameters of vnm-lower-to-gpu's kernels) and its launch contract.
std::string writeHandKernel(const SpmmCase &c, bool pipelined);

/// The same kernel split by vnm_gpu.produce_consume (sm_90a): a producer
/// warpgroup copies each pair's B rows and stages its A fragments, the
/// consumer warpgroups run wgmma.sp on them.
std::string writeWarpSpecializedKernel(const SpmmCase &c);

} // namespace vnm::tile_test

#endif // VNM_UNITTESTS_TILEPROGRAM_HANDWRITTENKERNEL_H
