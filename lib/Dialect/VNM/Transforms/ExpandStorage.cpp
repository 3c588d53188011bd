//===- ExpandStorage.cpp - encoded tensors to storage tensors -------------===//
//
// An encoded tensor is three arrays. Bufferization maps one tensor to one
// buffer, so before it runs every encoded value is replaced by its
// (values, colidx, meta) tensors with a 1:N dialect conversion, and every
// encoded-tensor op by its destination-style storage form.
//
//===----------------------------------------------------------------------===//

#include "vnm/Dialect/VNM/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/IR/SymbolTable.h"
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
    auto optional = [](ValueRange values) {
      return values.empty() ? Value() : values.front();
    };
    auto spmm = StorageSpmmOp::create(
        rewriter, loc, TypeRange(op.getType()), lhs[0], lhs[1], lhs[2], rhs,
        optional(adaptor.getBias()), optional(adaptor.getWeightScales()),
        optional(adaptor.getInputScales()), init,
        getVNMEncoding(op.getLhs().getType()), accumulate, op.getActivation(),
        op.getGroupSizeAttr());
    // Discardable attributes (e.g. the GPU tiling, vnm.config) stay with
    // the op.
    spmm->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    rewriter.replaceOp(op, spmm.getResults());
    return success();
  }
};

struct QuantizeExpansion : OpConversionPattern<QuantizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(QuantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto quantizedType = cast<RankedTensorType>(op.getQuantized().getType());
    auto scalesType = cast<RankedTensorType>(op.getScales().getType());
    // Scale dimension d follows input dimension d when grouped (the kept
    // axis' size, or ceil(size / group_size) groups along the other one)
    // and the kept axis when not; it is dynamic only where that is (scales
    // have rank 0, without an axis, or these sizes).
    int64_t axis = op.getAxis().value_or(0);
    int64_t groupSize = op.getGroupSize().value_or(0);
    auto scaleExtent = [&](unsigned d) -> Value {
      int64_t inputDim = groupSize ? d : axis;
      Value extent = tensor::DimOp::create(rewriter, loc, input, inputDim);
      if (!groupSize || inputDim == axis)
        return extent;
      return arith::CeilDivUIOp::create(
          rewriter, loc, extent,
          arith::ConstantIndexOp::create(rewriter, loc, groupSize));
    };
    SmallVector<Value> quantizedSizes, scaleSizes;
    for (unsigned d = 0; d < 2; ++d)
      if (quantizedType.isDynamicDim(d))
        quantizedSizes.push_back(
            tensor::DimOp::create(rewriter, loc, input, d));
    for (unsigned d = 0; d < scalesType.getRank(); ++d)
      if (scalesType.isDynamicDim(d))
        scaleSizes.push_back(scaleExtent(d));
    Value quantized =
        tensor::EmptyOp::create(rewriter, loc, quantizedType, quantizedSizes);
    Value scales =
        tensor::EmptyOp::create(rewriter, loc, scalesType, scaleSizes);
    auto storage = StorageQuantizeOp::create(
        rewriter, loc, TypeRange{quantizedType, scalesType}, input, quantized,
        scales, op.getAxisAttr(), op.getGroupSizeAttr());
    rewriter.replaceOp(op, storage.getResults());
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

/// Rewrites a func.func's signature like upstream's function-signature
/// pattern, and also carries its argument and result attributes: upstream's
/// pattern keeps the attribute list as it is, so after a 1:N expansion an
/// attribute would land on whichever argument now has its old position.
/// The attributes of an encoded argument (result) go on each of its three
/// storage arguments (results): each of them is a part of that value.
struct FuncSignatureExpansion : OpConversionPattern<func::FuncOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(func::FuncOp func, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter &converter = *getTypeConverter();
    FunctionType type = func.getFunctionType();
    TypeConverter::SignatureConversion signature(type.getNumInputs());
    if (failed(converter.convertSignatureArgs(type.getInputs(), signature)))
      return failure();
    SmallVector<Type> results;
    SmallVector<Attribute> resultAttrs;
    for (auto [index, resultType] : llvm::enumerate(type.getResults())) {
      size_t before = results.size();
      if (failed(converter.convertType(resultType, results)))
        return failure();
      resultAttrs.append(results.size() - before,
                         func.getResultAttrDict(index));
    }
    SmallVector<Attribute> argAttrs(signature.getConvertedTypes().size());
    for (unsigned index = 0; index < type.getNumInputs(); ++index) {
      std::optional<TypeConverter::SignatureConversion::InputMapping> mapping =
          signature.getInputMapping(index);
      if (!mapping)
        continue;
      for (size_t i = 0; i < mapping->size; ++i)
        argAttrs[mapping->inputNo + i] = func.getArgAttrDict(index);
    }
    auto toDictionaries = [&](ArrayRef<Attribute> attrs) {
      return llvm::map_to_vector(attrs, [&](Attribute attr) -> Attribute {
        return attr ? attr : DictionaryAttr::get(getContext());
      });
    };
    if (!func.isExternal() && failed(rewriter.convertRegionTypes(
                                  &func.getBody(), converter, &signature)))
      return failure();
    rewriter.modifyOpInPlace(func, [&] {
      func.setType(FunctionType::get(getContext(),
                                     signature.getConvertedTypes(), results));
      func.setAllArgAttrs(toDictionaries(argAttrs));
      func.setAllResultAttrs(toDictionaries(resultAttrs));
    });
    return success();
  }
};

// Upstream's branch pattern (populateBranchOpInterfaceTypeConversionPattern)
// converts operands 1:1, so the branches that forward encoded values to
// blocks, whose arguments the function pattern expands, get their own.
struct BranchExpansion : OpConversionPattern<cf::BranchOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(cf::BranchOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<cf::BranchOp>(
        op, op.getDest(), flatten(adaptor.getDestOperands()));
    return success();
  }
};

struct CondBranchExpansion : OpConversionPattern<cf::CondBranchOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(cf::CondBranchOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto branch = rewriter.replaceOpWithNewOp<cf::CondBranchOp>(
        op, adaptor.getCondition().front(), op.getTrueDest(),
        flatten(adaptor.getTrueDestOperands()), op.getFalseDest(),
        flatten(adaptor.getFalseDestOperands()));
    if (auto weights = op.getBranchWeightsAttr())
      branch.setBranchWeightsAttr(weights);
    return success();
  }
};

/// Whether `type` holds an encoded tensor inside another type (a function
/// type, a tuple): a value of it cannot be split into three values.
bool nestsEncodedTensor(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type);
      tensor && getVNMEncoding(tensor))
    return false;
  bool nests = false;
  type.walk([&](RankedTensorType tensor) {
    if (getVNMEncoding(tensor))
      nests = true;
  });
  return nests;
}

bool hasEncodedTensor(TypeRange types) {
  return llvm::any_of(types, [](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return tensor && getVNMEncoding(tensor);
  });
}

/// Finds, before anything is rewritten, what the conversion could only get
/// wrong: a value whose type nests an encoded tensor, and a function with an
/// encoded tensor in its signature referred to by anything but func.call
/// (its type changes, so the reference would be stale).
LogicalResult checkExpandable(ModuleOp module) {
  bool ok = true;
  // One diagnostic per op: a func.constant of an encoded function is both a
  // nested encoded type and a stale reference.
  DenseSet<Operation *> reported;
  auto checkValue =
      [&](Value value, Operation *owner, StringRef what) {
        if (!nestsEncodedTensor(value.getType()))
          return;
        reported.insert(owner);
        owner->emitOpError()
            << "vnm-expand-storage: " << what << " has type " << value.getType()
            << ", which holds an encoded tensor inside another type; only "
               "encoded tensors themselves can be expanded into their storage "
               "tensors";
        ok = false;
      };
  module->walk([&](Operation *op) {
    if (isa<BranchOpInterface>(op) &&
        !isa<cf::BranchOp, cf::CondBranchOp>(op) &&
        hasEncodedTensor(op->getOperandTypes())) {
      op->emitOpError() << "vnm-expand-storage: forwards an encoded tensor "
                           "to another block through a branch other than "
                           "cf.br and cf.cond_br, which the pass cannot "
                           "expand";
      reported.insert(op);
      ok = false;
    }
    for (Value result : op->getResults())
      checkValue(result, op, "a result");
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          checkValue(arg, op, "a block argument of its region");
  });

  SymbolTableCollection symbolTables;
  SymbolUserMap users(symbolTables, module);
  module->walk([&](func::FuncOp func) {
    FunctionType type = func.getFunctionType();
    if (!hasEncodedTensor(type.getInputs()) &&
        !hasEncodedTensor(type.getResults()))
      return;
    for (Operation *user : users.getUsers(func)) {
      if (isa<func::CallOp>(user) || reported.contains(user))
        continue;
      InFlightDiagnostic diag =
          user->emitOpError()
          << "vnm-expand-storage: refers to @" << func.getSymName()
          << ", whose signature has an encoded tensor and changes with "
             "the expansion; only func.call is rewritten with it";
      diag.attachNote(func.getLoc())
          << "@" << func.getSymName() << " is defined here";
      ok = false;
    }
  });
  return success(ok);
}

struct ExpandStoragePass
    : public vnm::impl::VNMExpandStorageBase<ExpandStoragePass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    if (failed(checkExpandable(getOperation())))
      return signalPassFailure();
    StorageTypeConverter converter;
    RewritePatternSet patterns(context);
    ConversionTarget target(*context);

    patterns.add<AssembleExpansion, DisassembleExpansion, PruneExpansion,
                 CompressExpansion, DecompressExpansion, SpmmExpansion,
                 SddmmExpansion, QuantizeExpansion>(converter, context);
    target.addIllegalOp<AssembleOp, DisassembleOp, PruneOp, CompressOp,
                        DecompressOp, SpmmOp, SddmmOp, QuantizeOp>();
    // Branches (cf.br, cf.cond_br) forward encoded values to blocks whose
    // arguments the function pattern expands, so they must be expanded
    // too; every other op is left alone.
    target.markUnknownOpDynamicallyLegal([&](Operation *op) {
      return !isa<BranchOpInterface>(op) ||
             isLegalForBranchOpInterfaceTypeConversionPattern(op, converter);
    });

    patterns.add<FuncSignatureExpansion, BranchExpansion, CondBranchExpansion>(
        converter, context);
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
      return converter.isSignatureLegal(op.getFunctionType()) &&
             converter.isLegal(&op.getBody());
    });
    populateReturnOpTypeConversionPattern(patterns, converter);
    populateCallOpTypeConversionPattern(patterns, converter);
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
