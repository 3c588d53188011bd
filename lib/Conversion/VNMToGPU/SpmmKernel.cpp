//===- SpmmKernel.cpp - the generated V:N:M sparse-tensor-core SpMM -------===//
//
// Lane notation as in the PTX ISA: lane l, g = l >> 2, t = l & 3.
//
//===----------------------------------------------------------------------===//

#include "SpmmKernel.h"

#include "KernelIRBuilder.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace vnm;
using namespace vnm::kernel;

std::string vnm::kernel::checkSpmmKernelConfig(const SpmmKernelConfig &config) {
  if (!config.elementType.isF16() && !config.elementType.isBF16())
    return "the GPU spmm kernel takes f16 or bf16 operands";
  if (!isa<FloatType>(config.resultType))
    return "the GPU spmm kernel writes f16, bf16 or f32 results";
  if ((config.blockM != 32 * config.warpsM &&
       config.blockM != 64 * config.warpsM) ||
      config.blockN != 128 || (config.warpsN != 2 && config.warpsN != 4) ||
      (config.blockM != 64 && config.blockM != 128))
    return "the GPU spmm kernel supports 64 x 128 and 128 x 128 block tiles "
           "of 32- or 64-row warp tiles over 2 or 4 columns of warps";
  if (!blockRowsFitFormat(config.blockM, config.v, config.m))
    return "the GPU spmm kernel needs v to be a multiple of its " +
           std::to_string(config.blockM) +
           "-row block tile unless m = 4 (v = 16 and 32 run on the CPU path "
           "for now)";
  if (config.rows <= 0 || config.cols <= 0)
    return "the GPU spmm kernel needs a static, non-empty R x K operand";
  if (config.rows * config.cols >= (int64_t(1) << 31))
    return "the GPU spmm kernel indexes A with 32-bit offsets";
  return "";
}

bool vnm::kernel::blockRowsFitFormat(int64_t blockRows, int64_t v, int64_t m) {
  return m == 4 || v % blockRows == 0;
}

ConfigAttr vnm::kernel::chooseSpmmConfig(MLIRContext *context, int64_t v,
                                         int64_t m,
                                         const TilingOptions &options) {
  int64_t blockRows = options.blockRows;
  if (!blockRows)
    blockRows = blockRowsFitFormat(128, v, m) ? 128 : 64;
  int64_t warpRows = options.warpRows ? options.warpRows : 32;
  int64_t warpsN = options.warpsN ? options.warpsN : 2;
  int64_t stages = options.stages ? options.stages : 3;
  int64_t warps = blockRows / warpRows * warpsN;
  // 16 warps per multiprocessor (128 registers per thread): left alone,
  // ptxas takes up to 190 registers and fits 12 warps or fewer, which
  // measured up to 15% slower (bench/results/ANALYSIS.md). 64-row warp
  // tiles hold 128 accumulators per thread: 8 warps.
  int64_t blocksPerSM = options.blocksPerSM;
  if (blocksPerSM < 0)
    blocksPerSM = std::max<int64_t>((warpRows == 64 ? 8 : 16) / warps, 1);
  return ConfigAttr::get(context, blockRows, 128, blockRows / warpRows, warpsN,
                         stages, blocksPerSM);
}

ArrayRef<KernelParameter> vnm::kernel::getSpmmKernelParameters() {
  static const KernelParameter parameters[] = {
      {"frag_values", true}, {"frag_meta", true}, {"colidx", true},
      {"rhs", true},         {"out", true},       {"bias", true},
      {"n", false},          {"ldb", false},      {"ldc", false}};
  return parameters;
}

namespace {

/// The per-thread state and code generation of one kernel.
class SpmmKernelEmitter {
public:
  SpmmKernelEmitter(KernelIRBuilder &kb, const SpmmKernelConfig &config,
                    ValueRange args, Value shared)
      : kb(kb), cfg(config), fragValues(args[0]), fragMeta(args[1]),
        colidx(args[2]), rhs(args[3]), out(args[4]), bias(args[5]), n(args[6]),
        ldb(args[7]), ldc(args[8]), shared(shared),
        kTilesM(static_cast<int>(config.blockM / config.warpsM / 16)),
        kTilesN(static_cast<int>(config.blockN / config.warpsN / 8)),
        gatherRows(64 * config.blockN / 8 / config.threads()),
        gatherWords(config.identityGather()
                        ? 0
                        : std::max<int64_t>(gatherRows / 4, 1)) {}

  void emit();

private:
  void emitThreadIndices();
  void emitGatherSetup();
  SmallVector<Value> emitColidxLoads(Value pair);
  void emitStageLoad(Value pair, Value stageOffset, ValueRange colidxWords);
  SmallVector<Value> emitFragmentLoads(Value pair);
  SmallVector<Value> emitPairCompute(Value stageOffset, ValueRange fragments,
                                     ValueRange acc);
  void emitEpilogue(ValueRange acc);
  Value toMmaOperand(Value word);

  KernelIRBuilder &kb;
  const SpmmKernelConfig &cfg;
  Value fragValues, fragMeta, colidx, rhs, out, bias, n, ldb, ldc, shared;
  /// m16 tiles per warp (2 or 4: 32- or 64-row warp tiles), and n8 tiles
  /// per warp (the block's 128 columns split over warpsN warps).
  const int kTilesM, kTilesN;
  /// Gathered rows each thread copies per k-tile pair (16, 8, 4 or 2 for
  /// 64, 128, 256 or 512 threads), and the colidx words (one per group) they
  /// need (none when M = 4).
  const int64_t gatherRows, gatherWords;

  Value tid, lane, g, t, warpM, warpN, row0, col0, vblock;
  // Loop-invariant parts of the gather: the thread's first row within a
  // stage, the shift that brings its first colidx byte to the bottom of the
  // word, its row's swizzled byte offset within a stage, its first group's
  // K offset within a pair, the K bound of its column chunk (0 past N), B at
  // its column, B's row pitch in bytes, and the block's first colidx word.
  Value gatherFirstRow, gatherShift, gatherSharedBase, gatherKBase,
      gatherKLimit, rhsColumn, ldbBytes, colidxBlockWord;
  /// Byte offset, within a stage, of the row and swizzled n8 chunk 0 that
  /// this lane addresses for ldmatrix.
  Value fragmentSharedBase;
};

void SpmmKernelEmitter::emitThreadIndices() {
  tid = kb.threadIdX();
  lane = kb.bitAnd(tid, kb.c32(31));
  Value warp = kb.shru(tid, kb.c32(5));
  g = kb.shru(lane, kb.c32(2));
  t = kb.bitAnd(lane, kb.c32(3));
  warpM = kb.divu(warp, kb.c32(cfg.warpsN));
  warpN = kb.remu(warp, kb.c32(cfg.warpsN));
  row0 = kb.mul(kb.blockIdY(), kb.c32(cfg.blockM));
  col0 = kb.mul(kb.blockIdX(), kb.c32(cfg.blockN));
  vblock = kb.divu(row0, kb.c32(cfg.v));
  // Shared rows are XOR-swizzled by 16-byte chunk: chunk c of row r sits at
  // chunk c ^ (r & 7), so the eight rows one ldmatrix phase reads fall into
  // eight different bank groups. Lane l addresses row l of a k-tile; its n8
  // chunk nt of the warp is then at fragmentSharedBase ^ (16 nt) (nt only
  // touches bits the warp's first chunk leaves clear).
  Value warpChunk = kb.mul(warpN, kb.c32(kTilesN));
  fragmentSharedBase = kb.add(
      kb.mul(lane, kb.c32(cfg.blockN * 2)),
      kb.mul(kb.bitXor(warpChunk, kb.bitAnd(lane, kb.c32(7))), kb.c32(16)));
}

/// Thread tid copies 16-byte chunk tid % 16 of gatherRows consecutive rows
/// starting at (tid / 16) * gatherRows: one to four whole groups (or half
/// of one), so its colidx bytes are one to four 32-bit words.
void SpmmKernelEmitter::emitGatherSetup() {
  int64_t chunksPerRow = cfg.blockN / 8;
  Value chunk = kb.remu(tid, kb.c32(chunksPerRow));
  gatherFirstRow =
      kb.mul(kb.divu(tid, kb.c32(chunksPerRow)), kb.c32(gatherRows));
  gatherShift = kb.mul(kb.bitAnd(gatherFirstRow, kb.c32(3)), kb.c32(8));
  gatherSharedBase =
      kb.add(kb.mul(gatherFirstRow, kb.c32(cfg.blockN * 2)),
             kb.mul(kb.bitXor(chunk, kb.bitAnd(gatherFirstRow, kb.c32(7))),
                    kb.c32(16)));
  gatherKBase = kb.mul(kb.shru(gatherFirstRow, kb.c32(2)), kb.c32(cfg.m));
  Value column = kb.add(col0, kb.mul(chunk, kb.c32(8)));
  gatherKLimit = kb.select(kb.ult(column, n), kb.c32(cfg.cols), kb.c32(0));
  rhsColumn = kb.offsetBytes(rhs, kb.mul(kb.zext64(column), kb.c64(2)));
  ldbBytes = kb.zext64(kb.mul(ldb, kb.c32(2)));
  colidxBlockWord = kb.mul(vblock, kb.c32(cfg.groups()));
}

/// The colidx words of this thread's groups in k-tile pair `pair`. Groups
/// past the last read the last one's word: their rows' K (from the group
/// index) is past K, so they are zero-filled whatever the word holds.
SmallVector<Value> SpmmKernelEmitter::emitColidxLoads(Value pair) {
  SmallVector<Value> words;
  Value firstGroup =
      kb.add(kb.mul(pair, kb.c32(16)), kb.shru(gatherFirstRow, kb.c32(2)));
  for (int64_t j = 0; j < gatherWords; ++j) {
    Value group =
        kb.minu(kb.add(firstGroup, kb.c32(j)), kb.c32(cfg.groups() - 1));
    Value word = kb.add(colidxBlockWord, group);
    words.push_back(kb.loadWordsHere(
        kb.offsetBytes(colidx, kb.mul(kb.zext64(word), kb.c64(4))), 1)[0]);
  }
  return words;
}

/// Gathers the 64 rows of B that k-tile pair `pair` needs (for the block's
/// column-loc) into the stage at `stageOffset`: row r of the pair is row
/// (16 pair + r / 4) M + colidx[vblock][16 pair + r / 4][r % 4] of B. Rows
/// past K (which covers groups past the last) and columns past N are
/// zero-filled (cp.async with a 0-byte source, which reads nothing).
void SpmmKernelEmitter::emitStageLoad(Value pair, Value stageOffset,
                                      ValueRange colidxWords) {
  Value pairK = kb.add(kb.mul(pair, kb.c32(16 * cfg.m)), gatherKBase);
  Value sharedBase = kb.add(stageOffset, gatherSharedBase);
  for (int64_t q = 0; q < gatherRows; ++q) {
    Value offsetInGroup;
    if (cfg.identityGather()) {
      offsetInGroup = kb.c32(q % 4);
    } else {
      Value word = colidxWords[q / 4];
      if (gatherRows < 4)
        word = kb.shru(word, gatherShift);
      offsetInGroup =
          kb.bitAnd(kb.shru(word, kb.c32(8 * (q % 4))), kb.c32(255));
    }
    Value k = kb.add(kb.add(pairK, kb.c32(q / 4 * cfg.m)), offsetInGroup);
    Value valid = kb.ult(k, gatherKLimit);
    Value source = kb.offsetBytes(rhsColumn, kb.mul(kb.zext64(k), ldbBytes));
    // Row firstRow + q: its swizzle differs from the first row's by q % 8
    // (firstRow & 7 and q % 8 share no bits: firstRow is a multiple of 8
    // when a thread has 8 or 16 rows, and q < 4 when it has fewer).
    Value destination = kb.offsetBytes(
        shared, kb.add(kb.bitXor(sharedBase, kb.c32(16 * (q % 8))),
                       kb.c32(q * cfg.blockN * 2)));
    NVVM::CpAsyncOp::create(kb.builder(), kb.location(), destination, source,
                            16, NVVM::LoadCacheModifierKind::CG,
                            kb.select(valid, kb.c32(16), kb.c32(0)));
  }
  NVVM::CpAsyncCommitGroupOp::create(kb.builder(), kb.location());
}

/// f16 operands are vectors of two halves; bf16 operands stay i32 words.
Value SpmmKernelEmitter::toMmaOperand(Value word) {
  if (!cfg.elementType.isF16())
    return word;
  return LLVM::BitcastOp::create(
      kb.builder(), kb.location(),
      VectorType::get({2}, kb.builder().getF16Type()), word);
}

/// Loads the A fragments and metadata words of k-tile pair `pair` from
/// global memory (the format library's fragment layout puts each lane's
/// registers next to each other). Their pipeline stage puts them one pair
/// ahead of the MMAs that use them, so their latency hides behind a pair.
SmallVector<Value> SpmmKernelEmitter::emitFragmentLoads(Value pair) {
  int64_t kTiles = cfg.fragmentKTiles();
  // One metadata word per m16 tile, then 4 A registers per (k-tile of the
  // pair, m16 tile).
  SmallVector<Value> words;
  SmallVector<Value> rowTile(kTilesM);
  for (int mt = 0; mt < kTilesM; ++mt) {
    Value firstRow = kb.add(
        row0, kb.add(kb.mul(warpM, kb.c32(kTilesM * 16)), kb.c32(mt * 16)));
    // The fragment arrays hold whole V blocks (R padded to ceil(R/V) V
    // rows). A tile of an M = 4 kernel may span V blocks and reach past
    // them: its rows there are never stored, so they read the last tile.
    rowTile[mt] = kb.shru(firstRow, kb.c32(4));
    if (cfg.blockM > cfg.v)
      rowTile[mt] = kb.minu(rowTile[mt], kb.c32(cfg.paddedRows() / 16 - 1));
    Value word =
        kb.add(kb.mul(kb.add(kb.mul(rowTile[mt], kb.c32(kTiles / 2)), pair),
                      kb.c32(32)),
               lane);
    words.push_back(kb.loadWordsHere(
        kb.offsetBytes(fragMeta, kb.mul(kb.zext64(word), kb.c64(4))), 1)[0]);
  }
  for (int kk = 0; kk < 2; ++kk) {
    Value kTile = kb.add(kb.mul(pair, kb.c32(2)), kb.c32(kk));
    for (int mt = 0; mt < kTilesM; ++mt) {
      Value tile = kb.add(kb.mul(rowTile[mt], kb.c32(kTiles)), kTile);
      Value element =
          kb.add(kb.mul(tile, kb.c32(256)), kb.mul(lane, kb.c32(8)));
      llvm::append_range(
          words,
          kb.loadWordsHere(
              kb.offsetBytes(fragValues, kb.mul(kb.zext64(element), kb.c64(2))),
              4));
    }
  }
  return words;
}

SmallVector<Value> SpmmKernelEmitter::emitPairCompute(Value stageOffset,
                                                      ValueRange fragments,
                                                      ValueRange acc) {
  OpBuilder &b = kb.builder();
  Location loc = kb.location();
  SmallVector<Value> result(acc.begin(), acc.end());
  auto words4 = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(4, kb.i32()));
  auto f32x4 = LLVM::LLVMStructType::getLiteral(b.getContext(),
                                                SmallVector<Type>(4, kb.f32()));
  std::optional<std::array<NVVM::MMATypes, 2>> ptxTypes;
  if (cfg.elementType.isBF16())
    ptxTypes = std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16,
                                             NVVM::MMATypes::bf16};

  for (int kk = 0; kk < 2; ++kk) {
    Value selector = kb.c32(kk);
    SmallVector<SmallVector<Value>> aOps(kTilesM);
    for (int mt = 0; mt < kTilesM; ++mt)
      for (int r = 0; r < 4; ++r)
        aOps[mt].push_back(
            toMmaOperand(fragments[kTilesM + (kk * kTilesM + mt) * 4 + r]));
    // B: ldmatrix.x4.trans of the 32 gathered rows of this k-tile; lane l
    // addresses row l of the tile, at the warp's n8 column chunk. Each n8
    // fragment is consumed by its MMAs right away, so only one is live.
    for (int nt = 0; nt < kTilesN; ++nt) {
      Value offset = kb.add(
          kb.bitXor(kb.add(stageOffset, fragmentSharedBase), kb.c32(16 * nt)),
          kb.c32(kk * 32 * cfg.blockN * 2));
      Value regs = NVVM::LdMatrixOp::create(
          b, loc, words4, kb.offsetBytes(shared, offset), 4,
          NVVM::MMALayout::col,
          NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8),
          NVVM::LdStMatrixEltType::B16);
      SmallVector<Value> bOps;
      for (int r = 0; r < 4; ++r)
        bOps.push_back(
            toMmaOperand(LLVM::ExtractValueOp::create(b, loc, regs, r)));
      for (int mt = 0; mt < kTilesM; ++mt) {
        SmallVector<Value> cOps;
        for (int r = 0; r < 4; ++r)
          cOps.push_back(result[(mt * kTilesN + nt) * 4 + r]);
        auto mma = NVVM::MmaSpOp::create(b, loc, f32x4, aOps[mt], bOps, cOps,
                                         fragments[mt], selector, {16, 8, 32},
                                         std::nullopt, ptxTypes);
        mma.setOrderedMetadata(true);
        for (int r = 0; r < 4; ++r)
          result[(mt * kTilesN + nt) * 4 + r] =
              LLVM::ExtractValueOp::create(b, loc, mma.getRes(), r);
      }
    }
  }
  return result;
}

void SpmmKernelEmitter::emitEpilogue(ValueRange acc) {
  OpBuilder &b = kb.builder();
  Location loc = kb.location();
  Type resultType = cfg.resultType;
  int64_t resultBytes = resultType.getIntOrFloatBitWidth() / 8;
  auto pairType = VectorType::get({2}, resultType);

  auto widen = [&](Value x) -> Value {
    return resultType.isF32() ? x : arith::ExtFOp::create(b, loc, kb.f32(), x);
  };
  auto narrow = [&](Value x) -> Value {
    return resultType.isF32() ? x
                              : arith::TruncFOp::create(b, loc, resultType, x);
  };
  auto activate = [&](Value x) -> Value {
    switch (cfg.activation) {
    case Activation::none:
      return x;
    case Activation::relu:
      return arith::MaximumFOp::create(
          b, loc, x, arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0)));
    case Activation::gelu: {
      // gelu(x) = 0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3),
      // with tanh(u) = 1 - 2 / (exp(2u) + 1) and exp(2u) = 2^(2u log2 e)
      // from the hardware's ex2: no libdevice, and exact at +-inf.
      auto c = [&](double v) -> Value {
        return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
      };
      Value x3 =
          arith::MulFOp::create(b, loc, x, arith::MulFOp::create(b, loc, x, x));
      Value u = arith::MulFOp::create(
          b, loc, c(0.7978845608028654),
          arith::AddFOp::create(
              b, loc, x, arith::MulFOp::create(b, loc, c(0.044715), x3)));
      Value exponent =
          arith::MulFOp::create(b, loc, u, c(2.0 * 1.4426950408889634));
      Value e = NVVM::InlinePtxOp::create(b, loc, TypeRange{kb.f32()},
                                          ValueRange{exponent}, ValueRange{},
                                          "ex2.approx.f32 $0, $1;", Value())
                    .getResult(0);
      // div.full (2 ulp) instead of the IEEE division's long sequence: the
      // epilogue runs once per output element.
      Value quotient =
          NVVM::InlinePtxOp::create(
              b, loc, TypeRange{kb.f32()},
              ValueRange{arith::AddFOp::create(b, loc, e, c(1.0))},
              ValueRange{}, "div.full.f32 $0, 0f40000000, $1;", Value())
              .getResult(0);
      Value tanh = arith::SubFOp::create(b, loc, c(1.0), quotient);
      return arith::MulFOp::create(b, loc,
                                   arith::MulFOp::create(b, loc, c(0.5), x),
                                   arith::AddFOp::create(b, loc, c(1.0), tanh));
    }
    }
    llvm_unreachable("unknown activation");
  };

  for (int mt = 0; mt < kTilesM; ++mt) {
    for (int half = 0; half < 2; ++half) {
      // Accumulator registers 2*half and 2*half+1 hold row g + 8*half and
      // columns 2t, 2t+1 of each n8 tile.
      Value row = kb.add(row0, kb.add(kb.mul(warpM, kb.c32(kTilesM * 16)),
                                      kb.add(kb.c32(mt * 16 + 8 * half), g)));
      kb.ifThen(kb.ult(row, kb.c32(cfg.rows)), [&] {
        Value biasValue;
        if (cfg.hasBias)
          biasValue = widen(kb.load(
              resultType,
              kb.offsetBytes(bias, kb.mul(kb.zext64(row), kb.c64(resultBytes))),
              resultBytes));
        Value rowOffset = kb.mul(kb.zext64(row), kb.zext64(ldc));
        for (int nt = 0; nt < kTilesN; ++nt) {
          Value col = kb.add(
              col0, kb.add(kb.mul(warpN, kb.c32(kTilesN * 8)),
                           kb.add(kb.c32(nt * 8), kb.mul(t, kb.c32(2)))));
          Value address =
              kb.offsetBytes(out, kb.mul(kb.add(rowOffset, kb.zext64(col)),
                                         kb.c64(resultBytes)));
          Value x0 = acc[(mt * kTilesN + nt) * 4 + 2 * half];
          Value x1 = acc[(mt * kTilesN + nt) * 4 + 2 * half + 1];
          auto finish = [&](Value x, Value previous) -> Value {
            if (previous)
              x = arith::AddFOp::create(b, loc, x, widen(previous));
            if (biasValue)
              x = arith::AddFOp::create(b, loc, x, biasValue);
            return narrow(activate(x));
          };
          Value bothInside = kb.ult(kb.add(col, kb.c32(1)), n);
          kb.ifThenElse(
              bothInside,
              [&] {
                Value prev0, prev1;
                if (cfg.accumulate) {
                  Value pair = kb.load(pairType, address, 2 * resultBytes);
                  prev0 = vector::ExtractOp::create(b, loc, pair, 0);
                  prev1 = vector::ExtractOp::create(b, loc, pair, 1);
                }
                Value pair = vector::FromElementsOp::create(
                    b, loc, pairType,
                    ValueRange{finish(x0, prev0), finish(x1, prev1)});
                kb.store(pair, address, 2 * resultBytes);
              },
              [&] {
                kb.ifThen(kb.ult(col, n), [&] {
                  Value prev0;
                  if (cfg.accumulate)
                    prev0 = kb.load(resultType, address, resultBytes);
                  kb.store(finish(x0, prev0), address, resultBytes);
                });
              });
        }
      });
    }
  }
}

/// Tags the loop body's ops that have no pipeline stage yet with `stage`
/// and `order` (see PipelineKernels.cpp).
static void tagNewOps(Block *body, int64_t stage, int64_t order) {
  for (Operation &op : body->without_terminator()) {
    if (op.hasAttr(kPipelineStageAttr))
      continue;
    Type i64 = IntegerType::get(op.getContext(), 64);
    op.setAttr(kPipelineStageAttr, IntegerAttr::get(i64, stage));
    op.setAttr(kPipelineOrderAttr, IntegerAttr::get(i64, order));
  }
}

void SpmmKernelEmitter::emit() {
  OpBuilder &b = kb.builder();
  Location loc = kb.location();
  emitThreadIndices();
  emitGatherSetup();

  // The K loop as a plain sequence per k-tile pair p: read p's colidx
  // words, gather p's rows of B into ring slot p % S, load p's A fragments
  // and metadata, wait for the gather, synchronize, compute. Correct as it
  // stands (every copy is waited for before it is read); each op carries
  // its software-pipeline stage, which vnm-pipeline-kernels uses to overlap
  // the gather S - 1 pairs and the fragment loads one pair ahead of the
  // MMAs that need them.
  const int64_t computeStage = cfg.stages;
  const int64_t stageBytes = cfg.stageBytes();
  int64_t accCount = kTilesM * kTilesN * 4;
  SmallVector<Value> inits(
      accCount, arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0)));
  Value lower = arith::ConstantIndexOp::create(b, loc, 0);
  Value upper = arith::ConstantIndexOp::create(b, loc, cfg.kTilePairs());
  Value step = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(
      b, loc, lower, upper, step, inits,
      [&](OpBuilder &nested, Location, Value iv, ValueRange acc) {
        OpBuilder::InsertionGuard guard(b);
        Block *body = nested.getInsertionBlock();
        b.setInsertionPointToEnd(body);
        // Each stage computes its own pair index and ring slot, so that no
        // value but the loaded data crosses stages.
        auto pairIndex = [&] {
          return arith::IndexCastOp::create(b, loc, kb.i32(), iv).getResult();
        };
        auto slotOffset = [&](Value pair) {
          return kb.mul(kb.remu(pair, kb.c32(cfg.stages)), kb.c32(stageBytes));
        };
        // Pipelined order: colidx words and fragments first (their latency
        // overlaps the wait), then wait + barrier, the gather of a later
        // pair into the slot everyone has finished reading, the MMAs.
        SmallVector<Value> words = emitColidxLoads(pairIndex());
        tagNewOps(body, /*stage=*/0, /*order=*/0);
        Value gathered = pairIndex();
        emitStageLoad(gathered, slotOffset(gathered), words);
        tagNewOps(body, /*stage=*/1, /*order=*/3);
        SmallVector<Value> fragments = emitFragmentLoads(pairIndex());
        tagNewOps(body, computeStage - 1, /*order=*/1);
        NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);
        mlir::gpu::BarrierOp::create(b, loc);
        tagNewOps(body, computeStage, /*order=*/2);
        SmallVector<Value> updated =
            emitPairCompute(slotOffset(pairIndex()), fragments, acc);
        tagNewOps(body, computeStage, /*order=*/4);
        scf::YieldOp::create(b, loc, updated);
      });
  NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);
  emitEpilogue(loop.getResults());
}

} // namespace

mlir::gpu::GPUFuncOp
vnm::kernel::buildSpmmKernel(OpBuilder &builder, mlir::gpu::GPUModuleOp module,
                             StringRef name, const SpmmKernelConfig &config) {
  OpBuilder::InsertionGuard guard(builder);
  Location loc = module.getLoc();
  MLIRContext *context = builder.getContext();
  builder.setInsertionPointToEnd(module.getBody());

  // The stage ring: a static shared array up to 48 KiB (no opt-in needed
  // from the host), else the block's dynamic shared memory (an external
  // array of unknown size; the launch contract gives its size).
  std::string sharedName = (name + "_ring").str();
  bool dynamic = config.dynamicShared();
  auto sharedType = LLVM::LLVMArrayType::get(
      builder.getI8Type(), dynamic ? 0 : config.sharedBytes());
  LLVM::GlobalOp::create(
      builder, loc, sharedType, /*isConstant=*/false,
      dynamic ? LLVM::Linkage::External : LLVM::Linkage::Internal, sharedName,
      Attribute(), /*alignment=*/128, kSharedSpace);

  auto globalPtr = LLVM::LLVMPointerType::get(context, kGlobalSpace);
  Type i32 = builder.getI32Type();
  SmallVector<Type> argTypes;
  for (const KernelParameter &parameter : getSpmmKernelParameters())
    argTypes.push_back(parameter.isPointer ? Type(globalPtr) : i32);
  auto func = mlir::gpu::GPUFuncOp::create(
      builder, loc, name, builder.getFunctionType(argTypes, {}));
  func->setAttr(mlir::gpu::GPUDialect::getKernelFuncAttrName(),
                builder.getUnitAttr());
  func.setKnownBlockSizeAttr(builder.getDenseI32ArrayAttr(
      {static_cast<int32_t>(config.threads()), 1, 1}));
  // At ptxas's register choice the kernel runs 3 blocks (12 warps) per
  // multiprocessor; `minBlocksPerSM` asks for more by capping registers.
  if (config.minBlocksPerSM > 0)
    func->setAttr("nvvm.minctasm",
                  builder.getI32IntegerAttr(config.minBlocksPerSM));

  Block &body = func.getBody().front();
  builder.setInsertionPointToStart(&body);
  KernelIRBuilder kb(builder, loc);
  Value shared = LLVM::AddressOfOp::create(
      builder, loc, LLVM::LLVMPointerType::get(context, kSharedSpace),
      sharedName);
  SpmmKernelEmitter emitter(kb, config, body.getArguments(), shared);
  emitter.emit();
  mlir::gpu::ReturnOp::create(builder, loc);
  return func;
}
