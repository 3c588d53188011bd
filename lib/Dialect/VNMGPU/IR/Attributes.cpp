//===- Attributes.cpp - vnm_gpu layout attributes -------------------------===//
//
// Verifiers cite the constraints of docs/spec.md (section vnm_gpu).
//
//===----------------------------------------------------------------------===//

#include "vnm/Dialect/VNMGPU/IR/VNMGPU.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace vnm::vnm_gpu;

//===----------------------------------------------------------------------===//
// MmaLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
MmaLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      MmaGeometry geometry, int64_t warpsM, int64_t warpsN) {
  // Each factor is bounded first, so that the product cannot overflow.
  if (warpsM < 1 || warpsN < 1 || warpsM > 32 || warpsN > 32 ||
      warpsM * warpsN > 32)
    return emitError() << "#vnm_gpu.mma (C1): warps must be positive and at "
                          "most 32 in all (1024 threads), got ["
                       << warpsM << ", " << warpsN << "]";
  return success();
}

int64_t MmaLayoutAttr::getInstrK() const {
  return getGeometry() == MmaGeometry::mma_sp_m16n8k64 ? 64 : 32;
}

int64_t MmaLayoutAttr::getOperandBits() const {
  return getGeometry() == MmaGeometry::mma_sp_m16n8k64 ? 8 : 16;
}

//===----------------------------------------------------------------------===//
// SwizzleAttr
//===----------------------------------------------------------------------===//

LogicalResult SwizzleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  int64_t chunkBytes, int64_t period,
                                  int64_t rowsPerPhase) {
  if (chunkBytes < 4 || chunkBytes > 128 || !llvm::isPowerOf2_64(chunkBytes))
    return emitError() << "#vnm_gpu.swizzle (C1): chunk must be a power of two "
                          "in [4, 128] bytes, got "
                       << chunkBytes;
  if (period < 1 || period > 16 || !llvm::isPowerOf2_64(period))
    return emitError() << "#vnm_gpu.swizzle (C2): period must be a power of "
                          "two in [1, 16], got "
                       << period;
  if (rowsPerPhase < 1 || rowsPerPhase > 16 ||
      !llvm::isPowerOf2_64(rowsPerPhase))
    return emitError() << "#vnm_gpu.swizzle (C3): rows must be a power of "
                          "two in [1, 16], got "
                       << rowsPerPhase;
  return success();
}

int64_t SwizzleAttr::getByteOffset(int64_t row, int64_t byteInRow,
                                   int64_t rowBytes) const {
  int64_t chunk = byteInRow / getChunkBytes();
  int64_t swizzled = chunk ^ (row / getRowsPerPhase() % getPeriod());
  return row * rowBytes + swizzled * getChunkBytes() +
         byteInRow % getChunkBytes();
}

//===----------------------------------------------------------------------===//
// CopyLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
CopyLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       int64_t threads, int64_t rowsPerThread) {
  if (threads < 32 || threads > 1024 || threads % 32 != 0)
    return emitError() << "#vnm_gpu.copy (C1): threads must be a multiple of "
                          "32 in [32, 1024], got "
                       << threads;
  if (rowsPerThread < 1 || rowsPerThread > 64 ||
      !llvm::isPowerOf2_64(rowsPerThread))
    return emitError() << "#vnm_gpu.copy (C2): rows_per_thread must be a "
                          "power of two in [1, 64], got "
                       << rowsPerThread;
  return success();
}

//===----------------------------------------------------------------------===//
// MmaSpTilingAttr
//===----------------------------------------------------------------------===//

LogicalResult
MmaSpTilingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        int64_t blockRows, int64_t blockCols, int64_t warpsM,
                        int64_t warpsN, int64_t stages, int64_t blocksPerSM) {
  if ((blockRows != 64 && blockRows != 128) || blockCols != 128)
    return emitError() << "#vnm_gpu.mma_sp_tiling (C1): block must be "
                          "[64, 128] or [128, 128], got ["
                       << blockRows << ", " << blockCols << "]";
  // blockRows is 64 or 128 here; dividing it cannot overflow, as
  // multiplying an arbitrary warps[0] could.
  if (warpsM != blockRows / 32 && warpsM != blockRows / 64)
    return emitError() << "#vnm_gpu.mma_sp_tiling (C2): warps[0] must be "
                          "block[0] / 32 or block[0] / 64 (32- or 64-row warp "
                          "tiles), got "
                       << warpsM;
  if (warpsN != 2 && warpsN != 4)
    return emitError() << "#vnm_gpu.mma_sp_tiling (C3): warps[1] must be 2 or "
                          "4, got "
                       << warpsN;
  // Each stage is 16 KiB of shared memory; six fill 96 KiB, which leaves
  // room for two blocks per multiprocessor.
  if (stages < 2 || stages > 6)
    return emitError() << "#vnm_gpu.mma_sp_tiling (C4): stages must be in "
                          "[2, 6], got "
                       << stages;
  if (blocksPerSM < 0 || blocksPerSM > 32)
    return emitError() << "#vnm_gpu.mma_sp_tiling (C5): blocks_per_sm must be "
                          "in [0, 32], got "
                       << blocksPerSM;
  return success();
}

int64_t MmaSpTilingAttr::getTileRows() const { return getBlockRows(); }
int64_t MmaSpTilingAttr::getTileCols() const { return getBlockCols(); }
int64_t MmaSpTilingAttr::getBlockThreads() const {
  return 32 * getWarpsM() * getWarpsN();
}
int64_t MmaSpTilingAttr::getRingStages() const { return getStages(); }
