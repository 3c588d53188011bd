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
  if (config.blockM != 32 * config.warpsM || config.blockN != 128 ||
      (config.warpsN != 2 && config.warpsN != 4) ||
      (config.blockM != 64 && config.blockM != 128))
    return "the GPU spmm kernel supports 64 x 128 and 128 x 128 block tiles "
           "over 2 or 4 columns of warps";
  if (config.v % config.blockM != 0)
    return "the GPU spmm kernel needs v to be a multiple of its " +
           std::to_string(config.blockM) +
           "-row block tile (v = 16 and 32 run on the CPU path for now)";
  if (config.rows <= 0 || config.cols <= 0)
    return "the GPU spmm kernel needs a static, non-empty R x K operand";
  if (config.rows * config.cols >= (int64_t(1) << 31))
    return "the GPU spmm kernel indexes A with 32-bit offsets";
  return "";
}

ConfigAttr vnm::kernel::chooseSpmmConfig(MLIRContext *context, int64_t v,
                                         int64_t rows, int64_t blockRows,
                                         int64_t warpsN, int64_t blocksPerSM) {
  if (!blockRows)
    blockRows = (v % 128 == 0 && rows <= 2048) ? 128 : 64;
  return ConfigAttr::get(context, blockRows, 128, blockRows / 32,
                         warpsN ? warpsN : 2, /*stages=*/3,
                         std::max<int64_t>(blocksPerSM, 0));
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
        kTilesN(static_cast<int>(config.blockN / config.warpsN / 8)) {}

  void emit();

private:
  static constexpr int kTilesM = 2; // m16 tiles per warp

  void emitThreadIndices();
  void emitStageLoad(Value pair, Value stage);
  SmallVector<Value> emitFragmentLoads(Value pair);
  SmallVector<Value> emitPairCompute(Value stage, ValueRange fragments,
                                     ValueRange acc);
  void emitEpilogue(ValueRange acc);
  Value sharedAddress(Value stage, Value row, Value chunk);
  Value toMmaOperand(Value word);

  KernelIRBuilder &kb;
  const SpmmKernelConfig &cfg;
  Value fragValues, fragMeta, colidx, rhs, out, bias, n, ldb, ldc, shared;
  /// n8 tiles per warp: the block's 128 columns split over warpsN warps.
  const int kTilesN;

  Value tid, lane, g, t, warpM, warpN, row0, col0, vblock;
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
}

/// Byte address of 16-byte chunk `chunk` of gathered row `row` in a stage:
/// the chunk index is XORed with the row's low three bits, so the eight
/// rows one ldmatrix phase reads fall into eight different bank groups.
Value SpmmKernelEmitter::sharedAddress(Value stage, Value row, Value chunk) {
  Value swizzled = kb.bitXor(chunk, kb.bitAnd(row, kb.c32(7)));
  Value offset = kb.add(kb.mul(stage, kb.c32(cfg.stageBytes())),
                        kb.add(kb.mul(row, kb.c32(cfg.blockN * 2)),
                               kb.mul(swizzled, kb.c32(16))));
  return kb.offsetBytes(shared, offset);
}

/// Gathers the 64 rows of B that k-tile pair `pair` needs (for the block's
/// column-loc) into `stage`: thread `tid` copies chunk tid % 16 of rows
/// tid / 16 + 8 i. Rows past K, past the last group, and columns past N
/// are zero-filled (cp.async with a 0-byte source).
void SpmmKernelEmitter::emitStageLoad(Value pair, Value stage) {
  int64_t chunksPerRow = cfg.blockN / 8;
  int64_t rowsPerPass = cfg.threads() / chunksPerRow;
  Value chunk = kb.remu(tid, kb.c32(chunksPerRow));
  Value firstRow = kb.divu(tid, kb.c32(chunksPerRow));
  Value column = kb.add(col0, kb.mul(chunk, kb.c32(8)));
  Value columnInside = kb.ult(column, n);
  Value firstGroupOfPair = kb.mul(pair, kb.c32(16));
  for (int64_t pass = 0; pass < 64 / rowsPerPass; ++pass) {
    Value row = kb.add(firstRow, kb.c32(pass * rowsPerPass));
    // Row r of the pair: group (r / 4) of the pair, selected column r % 4.
    Value group = kb.add(firstGroupOfPair, kb.shru(row, kb.c32(2)));
    Value select = kb.bitAnd(row, kb.c32(3));
    Value groupInside = kb.ult(group, kb.c32(cfg.groups()));
    Value safeGroup = kb.select(groupInside, group, kb.c32(0));
    Value colidxOffset =
        kb.add(kb.mul(kb.add(kb.mul(vblock, kb.c32(cfg.groups())), safeGroup),
                      kb.c32(4)),
               select);
    Value offsetByte = kb.load(kb.builder().getI8Type(),
                               kb.offsetBytes(colidx, colidxOffset), 1);
    Value offsetInGroup = arith::ExtUIOp::create(kb.builder(), kb.location(),
                                                 kb.i32(), offsetByte);
    Value k = kb.add(kb.mul(safeGroup, kb.c32(cfg.m)), offsetInGroup);
    Value valid = kb.andI1(kb.andI1(groupInside, kb.ult(k, kb.c32(cfg.cols))),
                           columnInside);
    Value elementOffset =
        kb.add(kb.mul(kb.zext64(k), kb.zext64(ldb)), kb.zext64(column));
    Value byteOffset =
        kb.select(valid, kb.mul(elementOffset, kb.c64(2)), kb.c64(0));
    Value source = kb.offsetBytes(rhs, byteOffset);
    Value bytes = kb.select(valid, kb.c32(16), kb.c32(0));
    NVVM::CpAsyncOp::create(kb.builder(), kb.location(),
                            sharedAddress(stage, row, chunk), source, 16,
                            NVVM::LoadCacheModifierKind::CG, bytes);
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

/// Number of 32-bit registers emitFragmentLoads returns: one metadata word
/// per m16 tile, then 4 A registers per (k-tile of the pair, m16 tile).
static constexpr int kFragmentWords = 2 + 2 * 2 * 4;

/// Loads the A fragments and metadata words of k-tile pair `pair` from
/// global memory (the format library's fragment layout puts each lane's
/// registers next to each other). They are issued one pair ahead of the
/// MMAs that use them, so their latency hides behind the current pair.
SmallVector<Value> SpmmKernelEmitter::emitFragmentLoads(Value pair) {
  OpBuilder &b = kb.builder();
  Location loc = kb.location();
  int64_t kTiles = cfg.fragmentKTiles();
  SmallVector<Value> words;
  words.reserve(kFragmentWords);
  Value rowTile[kTilesM];
  for (int mt = 0; mt < kTilesM; ++mt) {
    Value firstRow = kb.add(
        row0, kb.add(kb.mul(warpM, kb.c32(kTilesM * 16)), kb.c32(mt * 16)));
    rowTile[mt] = kb.shru(firstRow, kb.c32(4));
    Value word =
        kb.add(kb.mul(kb.add(kb.mul(rowTile[mt], kb.c32(kTiles / 2)), pair),
                      kb.c32(32)),
               lane);
    words.push_back(kb.load(
        kb.i32(), kb.offsetBytes(fragMeta, kb.mul(kb.zext64(word), kb.c64(4))),
        4));
  }
  for (int kk = 0; kk < 2; ++kk) {
    Value kTile = kb.add(kb.mul(pair, kb.c32(2)), kb.c32(kk));
    for (int mt = 0; mt < kTilesM; ++mt) {
      Value tile = kb.add(kb.mul(rowTile[mt], kb.c32(kTiles)), kTile);
      Value element =
          kb.add(kb.mul(tile, kb.c32(256)), kb.mul(lane, kb.c32(8)));
      Value vec = kb.load(
          VectorType::get({4}, kb.i32()),
          kb.offsetBytes(fragValues, kb.mul(kb.zext64(element), kb.c64(2))),
          16);
      for (int r = 0; r < 4; ++r)
        words.push_back(LLVM::ExtractElementOp::create(b, loc, vec, kb.c32(r)));
    }
  }
  return words;
}

SmallVector<Value> SpmmKernelEmitter::emitPairCompute(Value stage,
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
    SmallVector<Value> aOps[kTilesM];
    for (int mt = 0; mt < kTilesM; ++mt)
      for (int r = 0; r < 4; ++r)
        aOps[mt].push_back(
            toMmaOperand(fragments[2 + (kk * kTilesM + mt) * 4 + r]));
    // B: ldmatrix.x4.trans of the 32 gathered rows of this k-tile; lane l
    // addresses row l of the tile, at the warp's n8 column chunk. Each n8
    // fragment is consumed by its MMAs right away, so only one is live.
    Value row = kb.add(kb.c32(kk * 32), lane);
    for (int nt = 0; nt < kTilesN; ++nt) {
      Value chunk = kb.add(kb.mul(warpN, kb.c32(kTilesN)), kb.c32(nt));
      Value regs = NVVM::LdMatrixOp::create(
          b, loc, words4, sharedAddress(stage, row, chunk), 4,
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
      Value tanh = arith::SubFOp::create(
          b, loc, c(1.0),
          arith::DivFOp::create(b, loc, c(2.0),
                                arith::AddFOp::create(b, loc, e, c(1.0))));
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

void SpmmKernelEmitter::emit() {
  OpBuilder &b = kb.builder();
  Location loc = kb.location();
  emitThreadIndices();

  int64_t pairs = cfg.kTilePairs();
  // Prologue: fill stages 0 .. S-2. Every step commits one cp.async group
  // (possibly empty) so that "wait until S-2 groups remain" always means
  // "the stage about to be read has landed".
  for (int64_t s = 0; s + 1 < cfg.stages; ++s) {
    if (s < pairs)
      emitStageLoad(kb.c32(s), kb.c32(s));
    else
      NVVM::CpAsyncCommitGroupOp::create(b, loc);
  }

  int64_t accCount = kTilesM * kTilesN * 4;
  SmallVector<Value> inits(
      accCount, arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0)));
  llvm::append_range(inits, emitFragmentLoads(kb.c32(0)));
  Value lower = arith::ConstantIndexOp::create(b, loc, 0);
  Value upper = arith::ConstantIndexOp::create(b, loc, pairs);
  Value step = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(
      b, loc, lower, upper, step, inits,
      [&](OpBuilder &nested, Location, Value iv, ValueRange carried) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToEnd(nested.getInsertionBlock());
        Value pair = arith::IndexCastOp::create(b, loc, kb.i32(), iv);
        NVVM::CpAsyncWaitGroupOp::create(b, loc, cfg.stages - 2);
        // Every warp has finished reading the stage about to be refilled
        // (read in the previous iteration) once it passes this barrier.
        mlir::gpu::BarrierOp::create(b, loc);
        Value next = kb.add(pair, kb.c32(cfg.stages - 1));
        kb.ifThenElse(
            kb.ult(next, kb.c32(pairs)),
            [&] { emitStageLoad(next, kb.remu(next, kb.c32(cfg.stages))); },
            [&] { NVVM::CpAsyncCommitGroupOp::create(b, loc); });
        // Next pair's A fragments and metadata (the last pair reloads
        // itself: the loads stay in bounds and their values go unused).
        Value nextPair = kb.add(pair, kb.c32(1));
        Value prefetched =
            kb.select(kb.ult(nextPair, kb.c32(pairs)), nextPair, pair);
        SmallVector<Value> nextFragments = emitFragmentLoads(prefetched);
        SmallVector<Value> updated = emitPairCompute(
            kb.remu(pair, kb.c32(cfg.stages)), carried.drop_front(accCount),
            carried.take_front(accCount));
        llvm::append_range(updated, nextFragments);
        scf::YieldOp::create(b, loc, updated);
      });
  NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);
  emitEpilogue(loop.getResults().take_front(accCount));
}

} // namespace

mlir::gpu::GPUFuncOp
vnm::kernel::buildSpmmKernel(OpBuilder &builder, mlir::gpu::GPUModuleOp module,
                             StringRef name, const SpmmKernelConfig &config) {
  OpBuilder::InsertionGuard guard(builder);
  Location loc = module.getLoc();
  MLIRContext *context = builder.getContext();
  builder.setInsertionPointToEnd(module.getBody());

  // The stage ring lives in a static shared array (<= 48 KiB, so no
  // dynamic shared memory opt-in is needed).
  std::string sharedName = (name + "_ring").str();
  auto sharedType =
      LLVM::LLVMArrayType::get(builder.getI8Type(), config.sharedBytes());
  LLVM::GlobalOp::create(builder, loc, sharedType, /*isConstant=*/false,
                         LLVM::Linkage::Internal, sharedName, Attribute(),
                         /*alignment=*/128, kSharedSpace);

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
