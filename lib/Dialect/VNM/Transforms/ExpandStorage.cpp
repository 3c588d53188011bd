//===- ExpandStorage.cpp - encoded tensors to storage tensors -------------===//
//
// An encoded tensor is three arrays. Bufferization maps one tensor to one
// buffer, so before it runs every encoded value is replaced by its
// (values, colidx, meta) tensors with a 1:N dialect conversion, and every
// encoded-tensor op by its destination-style storage form.
//
//===----------------------------------------------------------------------===//

#include "vnm/Dialect/VNM/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"

#include "vnm/Dialect/VNM/IR/StorageLayout.h"
#include "vnm/Dialect/VNM/IR/VNM.h"

namespace vnm {
#define GEN_PASS_DEF_VNMEXPANDSTORAGE
#include "vnm/Dialect/VNM/Transforms/Passes.h.inc"
} // namespace vnm

using namespace mlir;
using namespace vnm;

namespace {

/// Maps an encoded tensor type to its three storage tensor types and leaves
/// every other type alone.
class StorageTypeConverter : public TypeConverter {
public:
  StorageTypeConverter() {
    addConversion([](Type type) { return type; });
    addConversion(
        [](RankedTensorType type,
           SmallVectorImpl<Type> &results) -> std::optional<LogicalResult> {
          if (!getVNMEncoding(type))
            return std::nullopt;
          llvm::append_range(results, getStorageTensorTypes(type));
          return success();
        });
    // Values crossing into ops this pass does not rewrite are reassembled,
    // and encoded values they produce are taken apart.
    addSourceMaterialization([](OpBuilder &builder, Type type,
                                ValueRange inputs, Location loc) -> Value {
      if (!getVNMEncoding(type) || inputs.size() != 3)
        return Value();
      return AssembleOp::create(builder, loc, type, inputs[0], inputs[1],
                                inputs[2]);
    });
    addTargetMaterialization([](OpBuilder &builder, TypeRange types,
                                ValueRange inputs,
                                Location loc) -> SmallVector<Value> {
      if (inputs.size() != 1 || types.size() != 3 ||
          !getVNMEncoding(inputs[0].getType()))
        return {};
      auto op = DisassembleOp::create(builder, loc, types[0], types[1],
                                      types[2], inputs[0]);
      return SmallVector<Value>(op.getResults());
    });
  }
};

/// A `tensor.empty` of `type` whose dynamic sizes are those of `like`.
Value createEmptyLike(OpBuilder &builder, Location loc, RankedTensorType type,
                      Value like) {
  SmallVector<Value> dynamicSizes;
  for (int64_t dim = 0; dim < type.getRank(); ++dim)
    if (type.isDynamicDim(dim))
      dynamicSizes.push_back(tensor::DimOp::create(builder, loc, like, dim));
  return tensor::EmptyOp::create(builder, loc, type, dynamicSizes);
}

/// Flattens 1:N-converted operands into one list.
SmallVector<Value> flatten(ArrayRef<ValueRange> ranges) {
  SmallVector<Value> values;
  for (ValueRange range : ranges)
    llvm::append_range(values, range);
  return values;
}

struct AssembleExpansion : OpConversionPattern<AssembleOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AssembleOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<SmallVector<Value>> replacements = {
        flatten(adaptor.getOperands())};
    rewriter.replaceOpWithMultiple(op, std::move(replacements));
    return success();
  }
};

struct DisassembleExpansion : OpConversionPattern<DisassembleOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DisassembleOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getInput());
    return success();
  }
};

struct PruneExpansion : OpConversionPattern<PruneOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PruneOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    Value init =
        createEmptyLike(rewriter, op.getLoc(), type, adaptor.getInput());
    auto storage =
        StoragePruneOp::create(rewriter, op.getLoc(), type, adaptor.getInput(),
                               init, op.getEncoding());
    rewriter.replaceOp(op, storage.getResults());
    return success();
  }
};

struct CompressExpansion : OpConversionPattern<CompressOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CompressOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> types = llvm::to_vector_of<Type>(
        getStorageTensorTypes(cast<RankedTensorType>(op.getType())));
    SmallVector<Value> inits;
    for (Type type : types)
      inits.push_back(tensor::EmptyOp::create(
          rewriter, op.getLoc(), cast<RankedTensorType>(type), ValueRange()));
    auto storage = StorageCompressOp::create(
        rewriter, op.getLoc(), types, adaptor.getInput(), inits[0], inits[1],
        inits[2], getVNMEncoding(op.getType()));
    SmallVector<SmallVector<Value>> replacements = {
        SmallVector<Value>(storage.getResults())};
    rewriter.replaceOpWithMultiple(op, std::move(replacements));
    return success();
  }
};

struct DecompressExpansion : OpConversionPattern<DecompressOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DecompressOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ValueRange storage = adaptor.getInput();
    Value init = tensor::EmptyOp::create(rewriter, op.getLoc(), op.getType(),
                                         ValueRange());
    auto decompress = StorageDecompressOp::create(
        rewriter, op.getLoc(), op.getType(), storage[0], storage[1], storage[2],
        init, getVNMEncoding(op.getInput().getType()));
    rewriter.replaceOp(op, decompress.getResults());
    return success();
  }
};

struct SpmmExpansion : OpConversionPattern<SpmmOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SpmmOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ValueRange lhs = adaptor.getLhs();
    Value rhs = adaptor.getRhs().front();
    bool accumulate = !adaptor.getAcc().empty();
    Value init;
    if (accumulate) {
      init = adaptor.getAcc().front();
    } else {
      // Only N can be dynamic: R comes from the (static) encoded lhs.
      SmallVector<Value> dynamicSizes;
      if (cast<RankedTensorType>(op.getType()).isDynamicDim(1))
        dynamicSizes.push_back(tensor::DimOp::create(rewriter, loc, rhs, 1));
      init = tensor::EmptyOp::create(rewriter, loc, op.getType(), dynamicSizes);
    }
    Value bias =
        adaptor.getBias().empty() ? Value() : adaptor.getBias().front();
    auto spmm = StorageSpmmOp::create(rewriter, loc, TypeRange(op.getType()),
                                      lhs[0], lhs[1], lhs[2], rhs, bias, init,
                                      getVNMEncoding(op.getLhs().getType()),
                                      accumulate, op.getActivation());
    // Discardable attributes (e.g. the GPU tiling, vnm.config) stay with
    // the op.
    spmm->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    rewriter.replaceOp(op, spmm.getResults());
    return success();
  }
};

struct SddmmExpansion : OpConversionPattern<SddmmOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SddmmOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ValueRange pattern = adaptor.getPattern();
    RankedTensorType valuesType =
        getStorageTensorTypes(cast<RankedTensorType>(op.getType()))[0];
    Value init = tensor::EmptyOp::create(rewriter, op.getLoc(), valuesType,
                                         ValueRange());
    auto sddmm = StorageSddmmOp::create(
        rewriter, op.getLoc(), TypeRange(valuesType), adaptor.getLhs().front(),
        adaptor.getRhs().front(), pattern[1], pattern[2], init,
        getVNMEncoding(op.getType()));
    // The result shares the pattern's column-loc and metadata.
    SmallVector<SmallVector<Value>> replacements = {
        {sddmm.getResult(0), pattern[1], pattern[2]}};
    rewriter.replaceOpWithMultiple(op, std::move(replacements));
    return success();
  }
};

struct ExpandStoragePass
    : public vnm::impl::VNMExpandStorageBase<ExpandStoragePass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    StorageTypeConverter converter;
    RewritePatternSet patterns(context);
    ConversionTarget target(*context);

    patterns.add<AssembleExpansion, DisassembleExpansion, PruneExpansion,
                 CompressExpansion, DecompressExpansion, SpmmExpansion,
                 SddmmExpansion>(converter, context);
    target.addIllegalOp<AssembleOp, DisassembleOp, PruneOp, CompressOp,
                        DecompressOp, SpmmOp, SddmmOp>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });

    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
      return converter.isSignatureLegal(op.getFunctionType()) &&
             converter.isLegal(&op.getBody());
    });
    populateReturnOpTypeConversionPattern(patterns, converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateBranchOpInterfaceTypeConversionPattern(patterns, converter);
    target.addDynamicallyLegalOp<func::ReturnOp, func::CallOp>(
        [&](Operation *op) { return converter.isLegal(op); });
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);

    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
