//===- SpmmTileProgram.cpp - the tile program of an mma.sp spmm -----------===//

#include "SpmmTileProgram.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "vnm/Dialect/VNMGPU/IR/VNMGPU.h"

using namespace mlir;
using namespace vnm;
using namespace vnm::kernel;
using namespace vnm::vnm_gpu;

namespace {

/// The layouts and types of one kernel's tile program.
struct TileTypes {
  RankedTensorType matrix;
  RingType ring;
  CopyLayoutAttr copy;
  ColLocType colloc;
  SparseAType a;
  BFragType b;
  AccType acc;

  TileTypes(MLIRContext *context, const SpmmKernelConfig &cfg) {
    matrix =
        RankedTensorType::get({cfg.rows, cfg.cols}, cfg.elementType,
                              EncodingAttr::get(context, cfg.v, cfg.n, cfg.m));
    bool byteRhs = cfg.rhsType.getIntOrFloatBitWidth() == 8;
    if (cfg.warpgroupMma && cfg.tokenMajorRhs) {
      // Token-major B for wgmma.sp: a slot holds the block's tokens, each
      // a pair's 64 K values in one row, the canonical K-major layout that
      // the TMA writes and the B descriptor names: 128-byte rows (f16,
      // bf16) in the 128-byte swizzle, 64-byte rows (i8) in the 64-byte
      // one.
      ring = RingType::get(context, cfg.stages, cfg.blockN,
                           SpmmKernelConfig::kSlotRows, cfg.rhsType,
                           byteRhs ? SwizzleAttr::get(context, 16, 4, 2)
                                   : SwizzleAttr::get(context, 16, 8, 1, 1));
    } else if (cfg.tokenMajorRhs && cfg.identityGather()) {
      // Token-major B: a slot holds the block's tokens, each a k-tile
      // pair's 64 K values; 16-byte chunks XOR-swizzled so that the eight
      // tokens an ldmatrix phase reads fall into eight different bank
      // groups: over pairs of rows for i8 (two 64-byte rows per 128
      // bytes), over 8 rows for 16-bit (128-byte rows).
      ring = RingType::get(context, cfg.stages, cfg.blockN,
                           SpmmKernelConfig::kSlotRows, cfg.rhsType,
                           byteRhs ? SwizzleAttr::get(context, 16, 4, 2)
                                   : SwizzleAttr::get(context, 16, 8));
    } else if (cfg.tokenMajorRhs) {
      // Token-major B gathered in load_b: each token's row holds the pair's
      // 16 groups whole (16 M values). 16-byte chunks XOR-swizzled over 8
      // rows: the 8-byte loads of one i8 B register (8 tokens x 32 bytes)
      // take two wavefronts, the least 256 bytes can; the 2-byte loads of
      // a 16-bit one read one value from each of 8 tokens in different
      // bank groups, unless two tokens select the same column.
      ring = RingType::get(context, cfg.stages, cfg.blockN, cfg.slotCols(),
                           cfg.rhsType, SwizzleAttr::get(context, 16, 8));
    } else if (cfg.warpgroupMma) {
      // The canonical 128-byte-swizzled MN-major layout wgmma.sp reads
      // through a descriptor: 64-column blocks of all rows one after
      // another, 16-byte chunks XOR-swizzled over 8 rows inside a block.
      int64_t blocks =
          cfg.blockN * cfg.rhsType.getIntOrFloatBitWidth() / 8 / 128;
      ring = RingType::get(context, cfg.stages, SpmmKernelConfig::kSlotRows,
                           cfg.blockN, cfg.rhsType,
                           SwizzleAttr::get(context, 16, 8, 1, blocks));
    } else {
      // 16-byte chunks XOR-swizzled over 8 rows: the eight rows of an
      // ldmatrix phase fall into eight different bank groups.
      ring = RingType::get(context, cfg.stages, SpmmKernelConfig::kSlotRows,
                           cfg.blockN, cfg.rhsType,
                           SwizzleAttr::get(context, 16, 8));
    }
    // The copies by the block's threads and the column-locs they read; the
    // warp-specialized kernel copies by the TMA and has neither.
    int64_t chunksPerRow = ring.getRowBytes() / 16;
    if (!cfg.warpSpecialized)
      copy = CopyLayoutAttr::get(context, cfg.threads(),
                                 ring.getRows() * chunksPerRow / cfg.threads());
    MmaGeometry geometry =
        cfg.warpgroupMma  ? (cfg.isInteger() ? MmaGeometry::wgmma_sp_m64nNk64
                                             : MmaGeometry::wgmma_sp_m64nNk32)
        : cfg.isInteger() ? MmaGeometry::mma_sp_m16n8k64
                          : MmaGeometry::mma_sp_m16n8k32;
    auto layout = MmaLayoutAttr::get(context, geometry, cfg.warpsM, cfg.warpsN);
    // The gather of a K x N operand copies rows; that of a token-major
    // one selects bytes in load_b, for the lanes' B registers.
    if (!cfg.warpSpecialized)
      colloc = ColLocType::get(context, SpmmKernelConfig::kSlotRows / 4,
                               cfg.tokenMajorRhs ? Attribute(layout)
                                                 : Attribute(copy));
    a = SparseAType::get(context, cfg.blockM, 64, cfg.operandType(), layout);
    // wgmma.sp reads B from the ring itself.
    if (!cfg.warpgroupMma)
      b = BFragType::get(context, layout.getInstrK(), cfg.blockN,
                         cfg.operandType(), layout);
    instrK = layout.getInstrK();
    Type accElement = cfg.isInteger() ? Type(IntegerType::get(context, 32))
                                      : Type(Float32Type::get(context));
    acc = AccType::get(context, cfg.blockM, cfg.blockN, accElement, layout);
  }
  int64_t instrK = 0;
  /// MMA steps per k-tile pair (64 columns of K): two m16n8k32 or
  /// m64nNk32, or one m16n8k64 or m64nNk64.
  int64_t stepsPerPair() const { return 64 / instrK; }
};

struct KernelArguments {
  Value values, meta, colidx, rhs, out, bias, weightScales, inputScales, n, ldb,
      ldc;
};

/// Registers per thread of the warp-specialized kernel's roles, as the
/// probe measured them (docs/hopper.md section 6): the producer thread
/// keeps the copies' addresses (with fewer, ptxas spills them in its loop);
/// the consumers hold the accumulators (64 or 128 per thread) and two
/// pairs' A fragments. 128 x 88 + 256 x 208 fits the multiprocessor's
/// 65536.
constexpr int64_t kProducerRegisters = 88;
constexpr int64_t kConsumerRegisters = 208;

/// The K loop of the warp-specialized sm_90a kernel (M = 4): the producer
/// copies pair p's 64 rows of B by the TMA and stages its A fragments; the
/// consumers run its two wgmma.sp steps as one group, left running into the
/// next pair.
Value buildWarpSpecializedLoop(OpBuilder &builder, Location loc,
                               const SpmmKernelConfig &cfg,
                               const TileTypes &types,
                               const KernelArguments &arg, Value row, Value col,
                               Value ring, Value zero) {
  auto c32 = [&](int64_t value) -> Value {
    return arith::ConstantIntOp::create(builder, loc, value, 32);
  };
  // An i4 weight (W4A8) is staged as its packed nibbles, widened to the
  // s8 MMA's bytes in the consumers' registers.
  int64_t valueBits = cfg.elementType.isSignlessInteger(4) ? 4 : 0;
  Value aring = AllocRingOp::create(
      builder, loc,
      ARingType::get(builder.getContext(), cfg.stages, types.a, valueBits),
      128);
  Type i32 = builder.getI32Type();
  auto split = ProduceConsumeOp::create(
      builder, loc, TypeRange{types.acc}, c32(0), c32(cfg.kTilePairs()),
      ValueRange{zero}, cfg.stages, SpmmKernelConfig::kProducerThreads,
      kProducerRegisters, kConsumerRegisters);
  TypeAttr matrix = TypeAttr::get(types.matrix);
  {
    OpBuilder::InsertionGuard guard(builder);
    Block *produce =
        builder.createBlock(&split.getProduce(), {}, {i32, i32}, {loc, loc});
    Value pair = produce->getArgument(0), slot = produce->getArgument(1);
    Value first = arith::MulIOp::create(builder, loc, pair,
                                        c32(SpmmKernelConfig::kSlotRows));
    // K x N: the pair's 64 rows of B; token-major: the block's tokens
    // (rows of x, bounded by N), the pair's 64 K values of each.
    if (cfg.tokenMajorRhs)
      TmaCopyTileOp::create(builder, loc, arg.rhs, col, first, arg.n,
                            c32(cfg.cols), arg.ldb, ring, slot);
    else
      TmaCopyTileOp::create(builder, loc, arg.rhs, first, col, c32(cfg.cols),
                            arg.n, arg.ldb, ring, slot);
    StageSparseAOp::create(builder, loc, arg.values, arg.meta, row, pair, aring,
                           slot, matrix, CopyLayoutAttr());
    YieldOp::create(builder, loc, ValueRange());

    Block *consume = builder.createBlock(
        &split.getConsume(), {}, {i32, i32, types.acc}, {loc, loc, loc});
    slot = consume->getArgument(1);
    Value a = LoadStagedAOp::create(builder, loc, types.a, aring, slot);
    Value sum = consume->getArgument(2);
    for (int64_t kStep = 0; kStep < types.stepsPerPair(); ++kStep) {
      bool last = kStep + 1 == types.stepsPerPair();
      sum = WgmmaSpOp::create(
          builder, loc, types.acc, a, builder.getI64IntegerAttr(kStep), ring,
          slot, builder.getI64IntegerAttr(kStep * types.instrK),
          cfg.tokenMajorRhs ? builder.getUnitAttr() : UnitAttr(), sum,
          last ? builder.getI64IntegerAttr(1) : nullptr);
    }
    YieldOp::create(builder, loc, sum);
  }
  return split.getResult(0);
}

} // namespace

gpu::GPUFuncOp vnm::kernel::buildSpmmTileProgram(OpBuilder &builder,
                                                 gpu::GPUModuleOp module,
                                                 StringRef name,
                                                 const SpmmKernelConfig &cfg) {
  OpBuilder::InsertionGuard guard(builder);
  MLIRContext *context = builder.getContext();
  Location loc = module.getLoc();
  builder.setInsertionPointToEnd(module.getBody());
  TileTypes types(context, cfg);

  auto flat = [](Type element) {
    return MemRefType::get({ShapedType::kDynamic}, element);
  };
  Type i32 = builder.getI32Type();
  Type f32 = builder.getF32Type();
  // The launch contract lists these names in this order; the scales of a
  // dequantizing i8 kernel follow the bias.
  SmallVector<std::pair<const char *, Type>> parameters = {
      {"frag_values", flat(cfg.fragmentStorageType())},
      {"frag_meta", flat(i32)},
      {"colidx", flat(i32)},
      {"rhs", flat(cfg.rhsType)},
      {"out", flat(cfg.resultType)},
      {"bias", flat(cfg.resultType)}};
  if (cfg.hasWeightScales)
    parameters.push_back({"weight_scales", flat(f32)});
  if (cfg.hasInputScales)
    parameters.push_back({"input_scales", flat(f32)});
  parameters.append({{"n", i32}, {"ldb", i32}, {"ldc", i32}});
  SmallVector<Type> argTypes;
  for (auto &parameter : parameters)
    argTypes.push_back(parameter.second);
  auto func = gpu::GPUFuncOp::create(builder, loc, name,
                                     builder.getFunctionType(argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                builder.getUnitAttr());
  func.setKnownBlockSizeAttr(builder.getDenseI32ArrayAttr(
      {static_cast<int32_t>(cfg.threads()), 1, 1}));
  // At ptxas's register choice the kernel runs 3 blocks (12 warps) per
  // multiprocessor; `minBlocksPerSM` asks for more by capping registers.
  if (cfg.minBlocksPerSM > 0)
    func->setAttr("nvvm.minctasm",
                  builder.getI32IntegerAttr(cfg.minBlocksPerSM));
  if (cfg.unroll > 1)
    func->setAttr(kUnrollAttrName, builder.getI64IntegerAttr(cfg.unroll));
  // Consecutive row blocks (grid y) as one cluster: `.reqnctapercluster`,
  // so that a plain launch makes the clusters.
  // The K splits of one tile, consecutive blocks along y, likewise: the
  // last one reads the others' partial tiles from their shared memory.
  if (int64_t cluster = std::max(cfg.clusterRows, cfg.kSplits); cluster > 1)
    func->setAttr(
        NVVM::NVVMDialect::getClusterDimAttrName(),
        builder.getDenseI32ArrayAttr({1, static_cast<int32_t>(cluster), 1}));
  for (auto [index, parameter] : llvm::enumerate(parameters))
    func.setArgAttr(index, kParamAttrName,
                    builder.getStringAttr(parameter.first));

  Block &body = func.getBody().front();
  builder.setInsertionPointToStart(&body);
  KernelArguments arg;
  {
    auto next = body.args_begin();
    for (Value *field :
         {&arg.values, &arg.meta, &arg.colidx, &arg.rhs, &arg.out, &arg.bias})
      *field = *next++;
    if (cfg.hasWeightScales)
      arg.weightScales = *next++;
    if (cfg.hasInputScales)
      arg.inputScales = *next++;
    arg.n = *next++;
    arg.ldb = *next++;
    arg.ldc = *next++;
  }
  auto c32 = [&](int64_t value) -> Value {
    return arith::ConstantIntOp::create(builder, loc, value, 32);
  };
  auto blockOffset = [&](gpu::Dimension dim, int64_t tile) -> Value {
    Value id = gpu::BlockIdOp::create(builder, loc, dim);
    return arith::MulIOp::create(
        builder, loc, arith::IndexCastOp::create(builder, loc, i32, id),
        c32(tile));
  };
  // Block y = row block * K splits + split: the split runs pairs
  // [split * P / S, (split + 1) * P / S) of the tile's K loop.
  Value row, split;
  if (cfg.kSplits > 1) {
    Value id = arith::IndexCastOp::create(
        builder, loc, i32,
        gpu::BlockIdOp::create(builder, loc, gpu::Dimension::y));
    split = arith::RemUIOp::create(builder, loc, id, c32(cfg.kSplits));
    row = arith::MulIOp::create(
        builder, loc,
        arith::DivUIOp::create(builder, loc, id, c32(cfg.kSplits)),
        c32(cfg.blockM));
  } else {
    row = blockOffset(gpu::Dimension::y, cfg.blockM);
  }
  Value col = blockOffset(gpu::Dimension::x, cfg.blockN);
  // wgmma's swizzle atoms (8 rows of 128 bytes) start on 1024-byte
  // boundaries.
  Value ring = AllocRingOp::create(builder, loc, types.ring,
                                   cfg.warpgroupMma ? 1024 : 128);
  Value zero = ZeroOp::create(builder, loc, types.acc);
  if (cfg.warpSpecialized) {
    Value result = buildWarpSpecializedLoop(builder, loc, cfg, types, arg, row,
                                            col, ring, zero);
    EpilogueOp::create(builder, loc, result, arg.out, row, col,
                       static_cast<uint64_t>(cfg.rows), arg.n, arg.ldc,
                       cfg.hasBias ? arg.bias : Value(), arg.weightScales,
                       arg.inputScales, cfg.accumulate, cfg.tokenMajorOut,
                       cfg.activation);
    gpu::ReturnOp::create(builder, loc);
    return func;
  }
  // Per-group scales: the MMAs sum a group into `part`, which group_scale
  // folds into the accumulators at the group's last pair.
  bool groupScales = cfg.groupSize > 0;
  SmallVector<Value> carried = {zero};
  if (groupScales)
    carried.push_back(ZeroOp::create(builder, loc, types.acc));
  TypeAttr matrix = TypeAttr::get(types.matrix);
  // staged_a: the block's threads copy each pair's A fragments into an A
  // ring with B's slot; the MMAs read them from there after the wait. An
  // i4 weight (W4A8) is staged as its packed nibbles.
  Value aring;
  CopyLayoutAttr aCopy;
  if (cfg.stagedA) {
    int64_t valueBits = cfg.elementType.isSignlessInteger(4) ? 4 : 0;
    aring = AllocRingOp::create(
        builder, loc, ARingType::get(context, cfg.stages, types.a, valueBits),
        128);
    aCopy = CopyLayoutAttr::get(context, cfg.threads(), 1);
  }

  Value lower = arith::ConstantIndexOp::create(builder, loc, 0);
  Value upper =
      arith::ConstantIndexOp::create(builder, loc, cfg.pairsPerSplit());
  Value step = arith::ConstantIndexOp::create(builder, loc, 1);
  Value firstPair = split ? arith::MulIOp::create(builder, loc, split,
                                                  c32(cfg.pairsPerSplit()))
                                .getResult()
                          : Value();
  auto loop = scf::ForOp::create(
      builder, loc, lower, upper, step, carried,
      [&](OpBuilder &b, Location loc, Value iv, ValueRange acc) {
        // The slot follows the iteration, so that an unrolled loop's slots
        // are constants whatever the split.
        Value iteration = arith::IndexCastOp::create(b, loc, i32, iv);
        Value slot = arith::RemUIOp::create(b, loc, iteration, c32(cfg.stages));
        Value pair = firstPair
                         ? arith::AddIOp::create(b, loc, firstPair, iteration)
                               .getResult()
                         : iteration;
        Value colloc;
        if (cfg.tokenMajorRhs) {
          // The block's tokens (rows of x, bounded by N), the pair's
          // 16 M K bytes (columns, bounded by K).
          Value first =
              arith::MulIOp::create(b, loc, pair, c32(cfg.slotCols()));
          CopyTileOp::create(b, loc, arg.rhs, col, first, arg.n, c32(cfg.cols),
                             arg.ldb, ring, slot, types.copy);
          if (!cfg.identityGather())
            colloc = LoadColLocOp::create(b, loc, types.colloc, arg.colidx, row,
                                          pair, matrix);
        } else if (cfg.identityGather()) {
          Value first = arith::MulIOp::create(b, loc, pair,
                                              c32(SpmmKernelConfig::kSlotRows));
          CopyTileOp::create(b, loc, arg.rhs, first, col, c32(cfg.cols), arg.n,
                             arg.ldb, ring, slot, types.copy);
        } else {
          Value colloc = LoadColLocOp::create(b, loc, types.colloc, arg.colidx,
                                              row, pair, matrix);
          GatherOp::create(b, loc, arg.rhs, pair, col, colloc, arg.n, arg.ldb,
                           ring, slot, matrix);
        }
        Value a;
        if (aring)
          StageSparseAOp::create(b, loc, arg.values, arg.meta, row, pair, aring,
                                 slot, matrix, aCopy);
        else
          a = LoadSparseAOp::create(b, loc, types.a, arg.values, arg.meta, row,
                                    pair, matrix);
        WaitOp::create(b, loc, ring, b.getI64IntegerAttr(0),
                       cfg.warpgroupMma ? b.getUnitAttr() : UnitAttr());
        if (aring)
          a = LoadStagedAOp::create(b, loc, types.a, aring, slot);
        Value sum = groupScales ? acc[1] : acc[0];
        for (int64_t kStep = 0; kStep < types.stepsPerPair(); ++kStep) {
          if (cfg.warpgroupMma) {
            // The pair's last MMA waits for both: the next pair's copy
            // reuses a slot only after the wait's barrier.
            int64_t last = types.stepsPerPair() - 1;
            sum = WgmmaSpOp::create(
                b, loc, types.acc, a, b.getI64IntegerAttr(kStep), ring, slot,
                b.getI64IntegerAttr(kStep * types.instrK), UnitAttr(), sum,
                b.getI64IntegerAttr(kStep == last ? 0 : 1));
            continue;
          }
          Value fragment = LoadBOp::create(
              b, loc, types.b, ring, slot,
              b.getI64IntegerAttr(kStep * types.b.getRows()),
              cfg.tokenMajorRhs ? b.getUnitAttr() : UnitAttr(), colloc);
          sum = MmaSpOp::create(b, loc, types.acc, a,
                                b.getI64IntegerAttr(kStep), fragment, sum);
        }
        if (!groupScales) {
          scf::YieldOp::create(b, loc, sum);
          return;
        }
        auto fold = GroupScaleOp::create(
            b, loc, types.acc, types.acc, acc[0], sum, arg.weightScales, row,
            pair, b.getI64IntegerAttr(cfg.rows),
            b.getI64IntegerAttr(cfg.scaleGroups()),
            b.getI64IntegerAttr(cfg.groupSize / cfg.pairColumns()),
            b.getI64IntegerAttr(cfg.kTilePairs() - 1));
        scf::YieldOp::create(b, loc, fold.getResults());
      });
  Value result = loop.getResult(0);
  if (split) {
    // The last split sums the tile and runs the epilogue; the others are
    // done.
    result =
        ReduceKSplitsOp::create(builder, loc, types.acc, result, split,
                                builder.getI64IntegerAttr(cfg.kSplits), ring);
    Value last = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                       split, c32(cfg.kSplits - 1));
    auto ifLast = scf::IfOp::create(builder, loc, last);
    builder.setInsertionPoint(ifLast.thenBlock()->getTerminator());
  }
  // Group scales are folded in the loop; per-row ones scale the epilogue.
  EpilogueOp::create(builder, loc, result, arg.out, row, col,
                     static_cast<uint64_t>(cfg.rows), arg.n, arg.ldc,
                     cfg.hasBias ? arg.bias : Value(),
                     groupScales ? Value() : arg.weightScales, arg.inputScales,
                     cfg.accumulate, cfg.tokenMajorOut, cfg.activation);
  builder.setInsertionPointToEnd(&body);
  gpu::ReturnOp::create(builder, loc);
  return func;
}
