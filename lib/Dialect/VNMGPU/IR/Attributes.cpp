//===- Attributes.cpp - vnm_gpu layout attributes -------------------------===//
//
// Verifiers cite the constraints of docs/spec.md (section vnm_gpu).
//
//===----------------------------------------------------------------------===//

#include "vnm/Dialect/VNMGPU/IR/VNMGPU.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace vnm::vnm_gpu;

namespace {

/// An optional trailing `key = integer` (or, with `flag`, `key = true` or
/// `false`) field of an attribute's syntax.
struct OptionalField {
  StringRef key;
  int64_t *value;
  bool *flag = nullptr;
};

/// Parses the optional trailing fields `, key = value`, each at most once
/// and in the order of `fields`; the ones left out keep their values.
ParseResult parseOptionalFields(AsmParser &parser,
                                ArrayRef<OptionalField> fields) {
  size_t next = 0;
  while (succeeded(parser.parseOptionalComma())) {
    StringRef key;
    SMLoc at = parser.getCurrentLocation();
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return failure();
    auto field =
        llvm::find_if(fields.drop_front(next),
                      [&](const OptionalField &f) { return f.key == key; });
    if (field == fields.end()) {
      std::string expected;
      for (auto [index, f] : llvm::enumerate(fields))
        expected += (index ? " or `" : "`") + f.key.str() + "`";
      return parser.emitError(at)
             << "expected " << expected
             << " (in that order, each at most once), got `" << key << "`";
    }
    next = field - fields.begin() + 1;
    if (field->flag) {
      StringRef word;
      SMLoc wordAt = parser.getCurrentLocation();
      if (parser.parseKeyword(&word))
        return failure();
      if (word != "true" && word != "false")
        return parser.emitError(wordAt) << "expected `true` or `false` for `"
                                        << key << "`, got `" << word << "`";
      *field->flag = word == "true";
      continue;
    }
    if (parser.parseInteger(*field->value))
      return failure();
  }
  return success();
}

} // namespace

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
  // wgmma.sp is issued by whole warpgroups (four consecutive warps), each
  // covering 64 rows by all the tile's columns.
  bool warpgroup = geometry == MmaGeometry::wgmma_sp_m64nNk32 ||
                   geometry == MmaGeometry::wgmma_sp_m64nNk64;
  if (warpgroup && (warpsM % 4 != 0 || warpsN != 1))
    return emitError() << "#vnm_gpu.mma (C2): "
                       << stringifyMmaGeometry(geometry)
                       << " needs whole warpgroups of rows, warps = [4 W, 1], "
                          "got ["
                       << warpsM << ", " << warpsN << "]";
  return success();
}

int64_t MmaLayoutAttr::getOperandBits() const {
  return getGeometry() == MmaGeometry::mma_sp_m16n8k64 ||
                 getGeometry() == MmaGeometry::wgmma_sp_m64nNk64
             ? 8
             : 16;
}

//===----------------------------------------------------------------------===//
// SwizzleAttr
//===----------------------------------------------------------------------===//

LogicalResult SwizzleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  int64_t chunkBytes, int64_t period,
                                  int64_t rowsPerPhase, int64_t columnBlocks) {
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
  if (columnBlocks < 1 || columnBlocks > 16 ||
      !llvm::isPowerOf2_64(columnBlocks))
    return emitError() << "#vnm_gpu.swizzle (C4): column_blocks must be a "
                          "power of two in [1, 16], got "
                       << columnBlocks;
  return success();
}

/// `<chunk = C, period = P[, rows = Q][, column_blocks = B]>`.
Attribute SwizzleAttr::parse(AsmParser &parser, Type) {
  int64_t chunk = 0, period = 0, rows = 1, blocks = 1;
  if (parser.parseLess() || parser.parseKeyword("chunk") ||
      parser.parseEqual() || parser.parseInteger(chunk) ||
      parser.parseComma() || parser.parseKeyword("period") ||
      parser.parseEqual() || parser.parseInteger(period))
    return {};
  if (parseOptionalFields(parser,
                          {{"rows", &rows}, {"column_blocks", &blocks}}) ||
      parser.parseGreater())
    return {};
  return parser.getChecked<SwizzleAttr>(parser.getContext(), chunk, period,
                                        rows, blocks);
}

void SwizzleAttr::print(AsmPrinter &printer) const {
  printer << "<chunk = " << getChunkBytes() << ", period = " << getPeriod();
  if (getRowsPerPhase() != 1)
    printer << ", rows = " << getRowsPerPhase();
  if (getColumnBlocks() != 1)
    printer << ", column_blocks = " << getColumnBlocks();
  printer << ">";
}

int64_t SwizzleAttr::getByteOffset(int64_t row, int64_t byteInRow,
                                   int64_t rowBytes, int64_t rows) const {
  int64_t blockBytes = rowBytes / getColumnBlocks();
  int64_t block = byteInRow / blockBytes, inBlock = byteInRow % blockBytes;
  int64_t chunk = inBlock / getChunkBytes();
  int64_t swizzled = chunk ^ (row / getRowsPerPhase() % getPeriod());
  return block * rows * blockBytes + row * blockBytes +
         swizzled * getChunkBytes() + inBlock % getChunkBytes();
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
                        int64_t warpsN, int64_t stages, int64_t blocksPerSM,
                        int64_t unroll, int64_t kSplits, bool stagedA) {
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
  // Each copy of the loop body holds its own fragments and addresses;
  // beyond two rings of six slots the code only grows.
  if (unroll < 1 || unroll > 12)
    return emitError() << "#vnm_gpu.mma_sp_tiling (C6): unroll must be in "
                          "[1, 12], got "
                       << unroll;
  // The splits of a tile run as one cluster, at most the portable 8.
  if (kSplits < 1 || kSplits > 8)
    return emitError() << "#vnm_gpu.mma_sp_tiling (C7): k_splits must be in "
                          "[1, 8], got "
                       << kSplits;
  return success();
}

/// `<block = [BM, BN], warps = [WM, WN], stages = S, blocks_per_sm = B[,
/// unroll = U][, k_splits = K][, staged_a = true]>`.
Attribute MmaSpTilingAttr::parse(AsmParser &parser, Type) {
  int64_t blockRows = 0, blockCols = 0, warpsM = 0, warpsN = 0, stages = 0,
          blocksPerSM = 0, unroll = 1, kSplits = 1;
  bool stagedA = false;
  if (parser.parseLess() || parser.parseKeyword("block") ||
      parser.parseEqual() || parser.parseLSquare() ||
      parser.parseInteger(blockRows) || parser.parseComma() ||
      parser.parseInteger(blockCols) || parser.parseRSquare() ||
      parser.parseComma() || parser.parseKeyword("warps") ||
      parser.parseEqual() || parser.parseLSquare() ||
      parser.parseInteger(warpsM) || parser.parseComma() ||
      parser.parseInteger(warpsN) || parser.parseRSquare() ||
      parser.parseComma() || parser.parseKeyword("stages") ||
      parser.parseEqual() || parser.parseInteger(stages) ||
      parser.parseComma() || parser.parseKeyword("blocks_per_sm") ||
      parser.parseEqual() || parser.parseInteger(blocksPerSM))
    return {};
  if (parseOptionalFields(parser, {{"unroll", &unroll},
                                   {"k_splits", &kSplits},
                                   {"staged_a", nullptr, &stagedA}}) ||
      parser.parseGreater())
    return {};
  return parser.getChecked<MmaSpTilingAttr>(
      parser.getContext(), blockRows, blockCols, warpsM, warpsN, stages,
      blocksPerSM, unroll, kSplits, stagedA);
}

void MmaSpTilingAttr::print(AsmPrinter &printer) const {
  printer << "<block = [" << getBlockRows() << ", " << getBlockCols()
          << "], warps = [" << getWarpsM() << ", " << getWarpsN()
          << "], stages = " << getStages()
          << ", blocks_per_sm = " << getBlocksPerSM();
  if (getUnroll() != 1)
    printer << ", unroll = " << getUnroll();
  if (getKSplits() != 1)
    printer << ", k_splits = " << getKSplits();
  if (getStagedA())
    printer << ", staged_a = true";
  printer << ">";
}

int64_t MmaSpTilingAttr::getTileRows() const { return getBlockRows(); }
int64_t MmaSpTilingAttr::getTileCols() const { return getBlockCols(); }
int64_t MmaSpTilingAttr::getBlockThreads() const {
  return 32 * getWarpsM() * getWarpsN();
}
int64_t MmaSpTilingAttr::getRingStages() const { return getStages(); }

//===----------------------------------------------------------------------===//
// WgmmaSpTilingAttr
//===----------------------------------------------------------------------===//

LogicalResult
WgmmaSpTilingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          int64_t blockRows, int64_t blockCols,
                          int64_t warpgroups, int64_t stages, int64_t producers,
                          int64_t clusterRows, bool as24) {
  if (warpgroups != 1 && warpgroups != 2)
    return emitError() << "#vnm_gpu.wgmma_sp_tiling (C1): warpgroups must be "
                          "1 or 2, got "
                       << warpgroups;
  if (blockRows != 64 * warpgroups)
    return emitError() << "#vnm_gpu.wgmma_sp_tiling (C2): block[0] must be 64 "
                          "rows per warpgroup ("
                       << 64 * warpgroups << "), got " << blockRows;
  // N of one wgmma.sp m64nNk32; the ring's rows split into whole 128-byte
  // (64-column) blocks of the swizzled layout.
  if (blockCols != 64 && blockCols != 128 && blockCols != 256)
    return emitError() << "#vnm_gpu.wgmma_sp_tiling (C3): block[1] must be "
                          "64, 128 or 256, got "
                       << blockCols;
  // A stage holds 64 gathered rows of block[1] f16 columns (8-32 KiB).
  if (stages < 2 || stages > 6 || stages * blockCols > 1024)
    return emitError() << "#vnm_gpu.wgmma_sp_tiling (C4): stages must be in "
                          "[2, 6] and stages x block[1] at most 1024 (the "
                          "ring within 128 KiB), got "
                       << stages << " stages of " << blockCols << " columns";
  if (producers != 0 && producers != 1)
    return emitError() << "#vnm_gpu.wgmma_sp_tiling (C5): producers must be 0 "
                          "(every thread copies) or 1 (a producer warpgroup), "
                          "got "
                       << producers;
  // A cluster holds at most 8 blocks on every sm_90 part (the portable
  // cluster size).
  if (clusterRows != 1 && clusterRows != 2 && clusterRows != 4 &&
      clusterRows != 8)
    return emitError() << "#vnm_gpu.wgmma_sp_tiling (C6): cluster_rows must "
                          "be 1, 2, 4 or 8, got "
                       << clusterRows;
  // Only the warp-specialized loop copies B as a dense tile by the TMA
  // (measured faster than the gathers at M = 8, docs/hopper.md section 7).
  if (as24 && producers != 1)
    return emitError() << "#vnm_gpu.wgmma_sp_tiling (C7): as_2_4 runs on the "
                          "warp-specialized kernel (producers = 1)";
  return success();
}

int64_t WgmmaSpTilingAttr::getTileRows() const { return getBlockRows(); }
int64_t WgmmaSpTilingAttr::getTileCols() const { return getBlockCols(); }
int64_t WgmmaSpTilingAttr::getBlockThreads() const {
  return 128 * (getWarpgroups() + getProducers());
}
int64_t WgmmaSpTilingAttr::getRingStages() const { return getStages(); }
