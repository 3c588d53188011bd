//===- StorageOpLowerings.cpp - vnm storage ops to loops and calls --------===//
//
// The loop nests here are the reference semantics of the vnm ops: plain,
// element by element, with every index computed from the storage arrays as
// docs/spec.md defines them. Speed is the GPU lowering's business.
//
//===----------------------------------------------------------------------===//

#include "StorageOpLowerings.h"

#include "Arithmetic.h"
#include "LoopBuilders.h"
#include "RuntimeCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace vnm;
using namespace vnm::loops;

namespace {

/// Where storage entry (r, slot = 2g + p) sits in the dense matrix:
/// column g * M + colidx[r / V][g][meta[r][slot]].
struct StorageIndexing {
  Value colidx, meta;
  EncodingAttr encoding;

  Value loadIndex(OpBuilder &b, Location loc, Value memref,
                  ValueRange indices) const {
    Value raw = memref::LoadOp::create(b, loc, memref, indices);
    // The runtime check guarantees 0 <= raw < 32 before any loop runs.
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), raw);
  }

  Value column(OpBuilder &b, Location loc, Value r, Value g, Value slot) const {
    Value block = arith::DivUIOp::create(
        b, loc, r, indexConstant(b, loc, encoding.getV()));
    Value position = loadIndex(b, loc, meta, {r, slot});
    Value offset = loadIndex(b, loc, colidx, {block, g, position});
    Value groupStart = arith::MulIOp::create(
        b, loc, g, indexConstant(b, loc, encoding.getM()));
    return arith::AddIOp::create(b, loc, groupStart, offset);
  }

  /// A slot's dense column, whether it lies inside the `cols` columns (slots
  /// in the zero padding of a ragged last group do not), and a column that
  /// is always safe to load from (0 for padding slots; K > 0 whenever a slot
  /// exists).
  struct SlotColumn {
    Value column, inside, safeColumn;
  };
  SlotColumn locate(OpBuilder &b, Location loc, Value r, Value g, Value slot,
                    Value cols) const {
    Value col = column(b, loc, r, g, slot);
    Value inside =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, col, cols);
    Value safe =
        arith::SelectOp::create(b, loc, inside, col, indexConstant(b, loc, 0));
    return {col, inside, safe};
  }
};

using SlotBody = function_ref<SmallVector<Value>(OpBuilder &, Location, Value,
                                                 Value, ValueRange)>;

/// Runs `body(g, slot)` for every kept slot (g in [firstGroup, endGroup),
/// p in {0, 1}).
void forEachSlot(OpBuilder &b, Location loc, Value firstGroup, Value endGroup,
                 ValueRange inits, SmallVectorImpl<Value> &results,
                 SlotBody body) {
  scf::ForOp outer = buildLoop(
      b, loc, firstGroup, endGroup, inits,
      [&](OpBuilder &gb, Location gl, Value g, ValueRange gArgs) {
        scf::ForOp inner = buildLoop(
            gb, gl, indexConstant(gb, gl, 2), gArgs,
            [&](OpBuilder &pb, Location pl, Value p, ValueRange pArgs) {
              Value slot = arith::AddIOp::create(
                  pb, pl,
                  arith::MulIOp::create(pb, pl, g, indexConstant(pb, pl, 2)),
                  p);
              return body(pb, pl, g, slot, pArgs);
            });
        return SmallVector<Value>(inner.getResults());
      });
  llvm::append_range(results, outer.getResults());
}

/// The same over all groups, g in [0, G).
void forEachSlot(OpBuilder &b, Location loc, Value groups, ValueRange inits,
                 SmallVectorImpl<Value> &results, SlotBody body) {
  forEachSlot(b, loc, indexConstant(b, loc, 0), groups, inits, results, body);
}

/// Runs `body(r, g, slot)` for every row r in [0, rows) and kept slot of
/// the row, carrying nothing.
void forEachRowSlot(
    OpBuilder &b, Location loc, Value rows, Value groups,
    function_ref<void(OpBuilder &, Location, Value, Value, Value)> body) {
  forEach(b, loc, rows, [&](OpBuilder &rb, Location rl, Value r) {
    SmallVector<Value> none;
    forEachSlot(
        rb, rl, groups, {}, none,
        [&](OpBuilder &sb, Location sl, Value g, Value slot, ValueRange) {
          body(sb, sl, r, g, slot);
          return SmallVector<Value>();
        });
  });
}

/// The runtime checks' scalar arguments: R and K as i64, then (v, n, m).
SmallVector<Value> getCheckScalars(OpBuilder &b, Location loc, Value rows,
                                   Value cols, EncodingAttr encoding) {
  SmallVector<Value> scalars = {
      arith::IndexCastOp::create(b, loc, b.getI64Type(), rows),
      arith::IndexCastOp::create(b, loc, b.getI64Type(), cols)};
  llvm::append_range(scalars, getEncodingScalars(b, loc, encoding));
  return scalars;
}

/// Checks the storage arrays' contents through the runtime.
void verifyStorage(OpBuilder &b, Location loc, ModuleOp module, Value values,
                   Value colidx, Value meta, Value rows, Value cols,
                   EncodingAttr encoding) {
  Type elementType = cast<MemRefType>(values.getType()).getElementType();
  callRuntime(
      b, loc, module, ("verify_storage_" + getRuntimeSuffix(elementType)).str(),
      {values, colidx, meta}, getCheckScalars(b, loc, rows, cols, encoding));
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

struct PruneLowering : StorageOpLowering<StoragePruneOp> {
  using StorageOpLowering::StorageOpLowering;
  void lower(StoragePruneOp op, OpBuilder &b, ModuleOp module) const override {
    Type elementType =
        cast<MemRefType>(op.getInput().getType()).getElementType();
    callRuntime(b, op.getLoc(), module,
                ("prune_" + getRuntimeSuffix(elementType)).str(),
                {op.getInput(), op.getInit()},
                getEncodingScalars(b, op.getLoc(), op.getEncoding()));
  }
};

struct CompressLowering : StorageOpLowering<StorageCompressOp> {
  using StorageOpLowering::StorageOpLowering;
  void lower(StorageCompressOp op, OpBuilder &b,
             ModuleOp module) const override {
    Type elementType =
        cast<MemRefType>(op.getInput().getType()).getElementType();
    callRuntime(b, op.getLoc(), module,
                ("compress_" + getRuntimeSuffix(elementType)).str(),
                {op.getInput(), op.getValues(), op.getColidx(), op.getMeta()},
                getEncodingScalars(b, op.getLoc(), op.getEncoding()));
  }
};

struct DecompressLowering : StorageOpLowering<StorageDecompressOp> {
  using StorageOpLowering::StorageOpLowering;
  void lower(StorageDecompressOp op, OpBuilder &b,
             ModuleOp module) const override {
    Location loc = op.getLoc();
    Value init = op.getInit();
    Value rows = dim(b, loc, init, 0), cols = dim(b, loc, init, 1);
    verifyStorage(b, loc, module, op.getValues(), op.getColidx(), op.getMeta(),
                  rows, cols, op.getEncoding());
    Type elementType = cast<MemRefType>(init.getType()).getElementType();
    Value zeroValue = zero(b, loc, elementType);
    forEach(b, loc, rows, [&](OpBuilder &rb, Location rl, Value r) {
      forEach(rb, rl, cols, [&](OpBuilder &cb, Location cl, Value c) {
        memref::StoreOp::create(cb, cl, zeroValue, init, ValueRange{r, c});
      });
    });
    StorageIndexing indexing{op.getColidx(), op.getMeta(), op.getEncoding()};
    Value groups = dim(b, loc, op.getColidx(), 1);
    forEachRowSlot(
        b, loc, rows, groups,
        [&](OpBuilder &sb, Location sl, Value r, Value g, Value slot) {
          auto [col, inside, safe] = indexing.locate(sb, sl, r, g, slot, cols);
          // Slots in the zero padding of a ragged last group have no dense
          // column.
          auto ifOp = scf::IfOp::create(sb, sl, inside);
          OpBuilder tb = ifOp.getThenBodyBuilder();
          Value value = memref::LoadOp::create(tb, sl, op.getValues(),
                                               ValueRange{r, slot});
          memref::StoreOp::create(tb, sl, value, init, ValueRange{r, col});
        });
  }
};

/// The spmm loop nest: for each (r, n) of the init, the products over the
/// kept slots of row r, then the epilogue. Without weight scales the
/// products sum in one accumulator (f32, or i32 for integer operands) that
/// starts from the init when accumulating. With weight scales (docs/spec.md,
/// "Quantized spmm") each scale group's products sum in their own
/// accumulator (i32 for an integer rhs, f32 for a float one), which is
/// scaled by its weight scale and added to an f32 sum; the sum is scaled by
/// the input scale, and the init is added after.
struct SpmmLowering : StorageOpLowering<StorageSpmmOp> {
  using StorageOpLowering::StorageOpLowering;
  void lower(StorageSpmmOp op, OpBuilder &b, ModuleOp module) const override {
    Location loc = op.getLoc();
    Value init = op.getInit(), rhs = op.getRhs();
    Value rows = dim(b, loc, init, 0), cols = dim(b, loc, rhs, 0);
    Value n = dim(b, loc, rhs, 1);
    assertSameSize(b, loc, dim(b, loc, init, 1), n,
                   "vnm.storage.spmm: init and rhs have different N");
    if (op.getBias())
      assertSameSize(b, loc, dim(b, loc, op.getBias(), 0), rows,
                     "vnm.storage.spmm: bias size differs from R");
    verifyStorage(b, loc, module, op.getValues(), op.getColidx(), op.getMeta(),
                  rows, cols, op.getEncoding());

    Type resultType = cast<MemRefType>(init.getType()).getElementType();
    Type rhsType = cast<MemRefType>(rhs.getType()).getElementType();
    // The products' accumulator: f32 for a float rhs, i32 for an integer
    // one (whatever the weight's type and the result's).
    Type partType = getAccumulatorType(rhsType);
    Type sumType = getAccumulatorType(resultType);
    StorageIndexing indexing{op.getColidx(), op.getMeta(), op.getEncoding()};
    Value groups = dim(b, loc, op.getColidx(), 1);
    Value weightScales = op.getWeightScales();
    Value inputScales = op.getInputScales();

    // Scale groups: one per row, or ceil(K / group_size) of group_size / M
    // encoding groups each.
    Value scaleGroups = indexConstant(b, loc, 1), groupsPerScale = groups;
    if (weightScales) {
      assertSameSize(b, loc, dim(b, loc, weightScales, 0), rows,
                     "vnm.storage.spmm: weight scales size differs from R");
      if (std::optional<int64_t> groupSize = op.getGroupSize()) {
        scaleGroups = dim(b, loc, weightScales, 1);
        assertSameSize(
            b, loc, scaleGroups,
            arith::CeilDivUIOp::create(b, loc, cols,
                                       indexConstant(b, loc, *groupSize)),
            "vnm.storage.spmm: weight scales groups differ from ceil(K / "
            "group_size)");
        groupsPerScale =
            indexConstant(b, loc, *groupSize / op.getEncoding().getM());
      }
    }
    if (inputScales && cast<MemRefType>(inputScales.getType()).getRank() == 1)
      assertSameSize(b, loc, dim(b, loc, inputScales, 0), n,
                     "vnm.storage.spmm: input scales size differs from N");

    auto productsOver = [&](OpBuilder &pb, Location pl, Value r, Value col,
                            Value firstGroup, Value endGroup, Value start) {
      SmallVector<Value> sum;
      forEachSlot(
          pb, pl, firstGroup, endGroup, {start}, sum,
          [&](OpBuilder &sb, Location sl, Value g, Value slot, ValueRange acc) {
            // Padding slots hold zeros and have no rhs row: load a safe row
            // instead and drop the product.
            auto [k, inside, safeK] = indexing.locate(sb, sl, r, g, slot, cols);
            Value a = convert(sb, sl,
                              memref::LoadOp::create(sb, sl, op.getValues(),
                                                     ValueRange{r, slot}),
                              partType);
            Value x = convert(
                sb, sl,
                memref::LoadOp::create(sb, sl, rhs, ValueRange{safeK, col}),
                partType);
            Value next = add(sb, sl, acc[0], mul(sb, sl, a, x));
            return SmallVector<Value>{
                arith::SelectOp::create(sb, sl, inside, next, acc[0])};
          });
      return sum[0];
    };

    forEach(b, loc, rows, [&](OpBuilder &rb, Location rl, Value r) {
      forEach(rb, rl, n, [&](OpBuilder &nb, Location nl, Value col) {
        auto loadInit = [&]() {
          return convert(
              nb, nl, memref::LoadOp::create(nb, nl, init, ValueRange{r, col}),
              sumType);
        };
        Value result;
        if (!weightScales) {
          Value start =
              op.getAccumulate() ? loadInit() : zero(nb, nl, partType);
          result = productsOver(nb, nl, r, col, indexConstant(nb, nl, 0),
                                groups, start);
        } else {
          scf::ForOp scaled = buildLoop(
              nb, nl, scaleGroups, {zero(nb, nl, sumType)},
              [&](OpBuilder &jb, Location jl, Value j, ValueRange sum) {
                Value first = arith::MulIOp::create(jb, jl, j, groupsPerScale);
                Value end = arith::MinUIOp::create(
                    jb, jl,
                    arith::AddIOp::create(jb, jl, first, groupsPerScale),
                    groups);
                Value part = productsOver(jb, jl, r, col, first, end,
                                          zero(jb, jl, partType));
                SmallVector<Value, 2> scaleIndex = {r};
                if (op.getGroupSize())
                  scaleIndex.push_back(j);
                Value scale =
                    memref::LoadOp::create(jb, jl, weightScales, scaleIndex);
                Value term = arith::MulFOp::create(
                    jb, jl, scale, convert(jb, jl, part, sumType));
                return SmallVector<Value>{
                    arith::AddFOp::create(jb, jl, sum[0], term)};
              });
          result = scaled.getResult(0);
          if (inputScales) {
            SmallVector<Value, 1> index;
            if (cast<MemRefType>(inputScales.getType()).getRank() == 1)
              index.push_back(col);
            result = arith::MulFOp::create(
                nb, nl, result,
                memref::LoadOp::create(nb, nl, inputScales, index));
          }
          if (op.getAccumulate())
            result = arith::AddFOp::create(nb, nl, result, loadInit());
        }
        if (op.getBias())
          result = add(nb, nl, result,
                       convert(nb, nl,
                               memref::LoadOp::create(nb, nl, op.getBias(),
                                                      ValueRange{r}),
                               sumType));
        result = applyActivation(nb, nl, result, op.getActivation());
        memref::StoreOp::create(nb, nl, narrow(nb, nl, result, resultType),
                                init, ValueRange{r, col});
      });
    });
  }
};

struct SddmmLowering : StorageOpLowering<StorageSddmmOp> {
  using StorageOpLowering::StorageOpLowering;
  void lower(StorageSddmmOp op, OpBuilder &b, ModuleOp module) const override {
    Location loc = op.getLoc();
    Value lhs = op.getLhs(), rhs = op.getRhs(), init = op.getInit();
    Value rows = dim(b, loc, lhs, 0), depth = dim(b, loc, lhs, 1);
    Value cols = dim(b, loc, rhs, 1);
    assertSameSize(b, loc, dim(b, loc, rhs, 0), depth,
                   "vnm.storage.sddmm: lhs columns differ from rhs rows");
    assertSameSize(b, loc, dim(b, loc, init, 0), rows,
                   "vnm.storage.sddmm: values rows differ from R");
    assertSameSize(b, loc, dim(b, loc, init, 1), dim(b, loc, op.getMeta(), 1),
                   "vnm.storage.sddmm: values and meta widths differ");
    callRuntime(b, loc, module, "verify_structure",
                {op.getColidx(), op.getMeta()},
                getCheckScalars(b, loc, rows, cols, op.getEncoding()));

    Type resultType = cast<MemRefType>(init.getType()).getElementType();
    Type accType = getAccumulatorType(resultType);
    StorageIndexing indexing{op.getColidx(), op.getMeta(), op.getEncoding()};
    Value groups = dim(b, loc, op.getColidx(), 1);
    forEachRowSlot(
        b, loc, rows, groups,
        [&](OpBuilder &sb, Location sl, Value r, Value g, Value slot) {
          StorageIndexing::SlotColumn at =
              indexing.locate(sb, sl, r, g, slot, cols);
          Value safeK = at.safeColumn;
          scf::ForOp dot = buildLoop(
              sb, sl, depth, {zero(sb, sl, accType)},
              [&](OpBuilder &db, Location dl, Value d, ValueRange acc) {
                Value x =
                    widen(db, dl,
                          memref::LoadOp::create(db, dl, lhs, ValueRange{r, d}),
                          accType);
                Value y = widen(
                    db, dl,
                    memref::LoadOp::create(db, dl, rhs, ValueRange{d, safeK}),
                    accType);
                return SmallVector<Value>{
                    add(db, dl, acc[0], mul(db, dl, x, y))};
              });
          // A padding slot of a ragged last group stays zero.
          Value value = arith::SelectOp::create(
              sb, sl, at.inside, dot.getResult(0), zero(sb, sl, accType));
          memref::StoreOp::create(sb, sl, narrow(sb, sl, value, resultType),
                                  init, ValueRange{r, slot});
        });
  }
};

} // namespace

void vnm::loops::populateStorageOpLoweringPatterns(
    RewritePatternSet &patterns) {
  patterns.add<PruneLowering, CompressLowering, DecompressLowering,
               SpmmLowering, SddmmLowering>(patterns.getContext());
  populateQuantizeLoweringPatterns(patterns);
}
