//===- TileRunner.h - compile and run a case's tile program -----*- C++ -*-=//
//
// Builds a case's module in-process, runs it down to the CPU through
// convert-vnm-gpu-to-loops, JIT-compiles it with MLIR's ExecutionEngine and
// calls @spmm_0_cpu over the grid the module's launch contract states.
//
//===----------------------------------------------------------------------===//

#ifndef VNM_UNITTESTS_TILEPROGRAM_TILERUNNER_H
#define VNM_UNITTESTS_TILEPROGRAM_TILERUNNER_H

#include "CaseData.h"
#include "SpmmCase.h"

#include "llvm/Support/Error.h"

#include <string>

namespace vnm::tile_test {

/// The module of `c` with its kernel as a tile program (after
/// vnm-lower-to-gpu and vnm-pipeline-kernels for generated programs), as
/// text; fails when a pass does.
llvm::Expected<std::string> buildTileProgram(const SpmmCase &c);

/// Runs the tile program `program` (as buildTileProgram writes it, or a
/// variant) on `data`, leaving the result in data.out; fails when it does
/// not compile.
llvm::Error runTileProgram(const SpmmCase &c, const std::string &program,
                           CaseData &data);

/// Fresh data, one run, and the check: an empty string when it passes,
/// else what went wrong.
std::string runAndCheck(const SpmmCase &c, const std::string &program);

} // namespace vnm::tile_test

#endif // VNM_UNITTESTS_TILEPROGRAM_TILERUNNER_H
