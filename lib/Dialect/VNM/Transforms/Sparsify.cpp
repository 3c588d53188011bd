//===- Sparsify.cpp - linalg matmuls with a V:N:M weight to vnm.spmm ------===//
//
// Frontends (Torch-MLIR, JAX through StableHLO) hand over linalg on tensors.
// A matmul whose weight is a constant or an annotated function argument
// becomes a vnm.spmm of the encoded R x K weight; transposes put the other
// operand and the result in spmm's orientation.
//
// Everything is decided before anything is rewritten: a module with several
// problems reports them all, and a failing module is not left half
// rewritten. An argument's type, in particular, depends on every matmul that
// reads it.
//
//===----------------------------------------------------------------------===//

#include "vnm/Dialect/VNM/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include "vnm/Dialect/VNM/IR/Quantization.h"
#include "vnm/Dialect/VNM/IR/StorageLayout.h"
#include "vnm/Dialect/VNM/IR/VNM.h"
#include "vnm/Format/StorageShape.h"

#include "WeightMatrix.h"

#include <tuple>

namespace vnm {
#define GEN_PASS_DEF_VNMSPARSIFY
#include "vnm/Dialect/VNM/Transforms/Passes.h.inc"
} // namespace vnm

using namespace mlir;
using namespace vnm;

namespace {

constexpr llvm::StringLiteral kEncodingAttrName = "vnm.encoding";

/// How a matmul's operands map onto spmm, which multiplies the R x K weight
/// by a K x N matrix. A matmul may hold either operand in either
/// orientation, and when the weight is its right operand the matmul's result
/// is the transpose of spmm's.
struct Layout {
  /// Index of the weight among the matmul's inputs.
  unsigned weightOperand = 0;
  /// The weight operand is held K x R.
  bool transposeWeight = false;
  /// The other input is held N x K.
  bool transposeOther = false;
  /// spmm yields the transpose of the matmul's result.
  bool transposeResult = false;
};

/// Reads which of a matmul's inputs are transposed off its indexing maps:
/// A must be (m, k) or (k, m), B (k, n) or (n, k) and the init (m, n), each
/// after the batch dimension of a batch_matmul. Broadcasting maps and
/// anything else give std::nullopt.
std::optional<std::pair<bool, bool>> getInputTransposes(linalg::LinalgOp op,
                                                        bool batched) {
  MLIRContext *context = op->getContext();
  unsigned numLoops = batched ? 4 : 3;
  unsigned first = batched ? 1 : 0;
  enum { M = 0, N = 1, K = 2 };
  auto getMap = [&](unsigned row, unsigned col) {
    SmallVector<AffineExpr, 3> results;
    if (batched)
      results.push_back(getAffineDimExpr(0, context));
    results.push_back(getAffineDimExpr(first + row, context));
    results.push_back(getAffineDimExpr(first + col, context));
    return AffineMap::get(numLoops, 0, results, context);
  };
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (maps.size() != 3 || maps[2] != getMap(M, N))
    return std::nullopt;
  std::pair<bool, bool> transposes;
  if (maps[0] == getMap(K, M))
    transposes.first = true;
  else if (maps[0] != getMap(M, K))
    return std::nullopt;
  if (maps[1] == getMap(N, K))
    transposes.second = true;
  else if (maps[1] != getMap(K, N))
    return std::nullopt;
  return transposes;
}

Layout getLayout(unsigned weightOperand, std::pair<bool, bool> transposes) {
  auto [transposeA, transposeB] = transposes;
  Layout layout;
  layout.weightOperand = weightOperand;
  if (weightOperand == 0) {
    // C = W X: W is A (R = m), X is B (N = n).
    layout.transposeWeight = transposeA;
    layout.transposeOther = transposeB;
  } else {
    // C^T = W X^T: W is B (R = n), X^T is A read as K x m.
    layout.transposeWeight = !transposeB;
    layout.transposeOther = !transposeA;
    layout.transposeResult = true;
  }
  return layout;
}

/// Where a matmul input's data comes from: the input itself, or the input of
/// a linalg.transpose swapping its last two dimensions, as Torch-MLIR emits
/// `x @ W.T` (a transpose of the weight feeding a plain matmul).
struct InputSource {
  /// The operand reading the source: the matmul's or the transpose's.
  OpOperand *use;
  bool throughTranspose;
};

InputSource getInputSource(OpOperand &input) {
  auto transpose = input.get().getDefiningOp<linalg::TransposeOp>();
  if (!transpose || !transpose.hasPureTensorSemantics())
    return {&input, false};
  ArrayRef<int64_t> permutation = transpose.getPermutation();
  SmallVector<int64_t, 3> swapLast =
      llvm::to_vector<3>(llvm::seq<int64_t>(0, permutation.size()));
  if (swapLast.size() < 2)
    return {&input, false};
  std::swap(swapLast[swapLast.size() - 2], swapLast.back());
  if (permutation != ArrayRef<int64_t>(swapLast))
    return {&input, false};
  return {&transpose.getInputMutable(), true};
}

/// spmm C5: f16, bf16 or f32 results for float operands, i32 for integer
/// ones.
bool isSpmmResultElementType(Type operand, Type result) {
  if (isa<FloatType>(operand))
    return isSupportedFloatType(result);
  return result.isSignlessInteger(32);
}

/// A matmul accumulates into its init; frontends fill it with zero (or leave
/// it empty) for a plain product, which spmm computes without reading an
/// accumulator.
bool isZeroInit(Value init) {
  if (init.getDefiningOp<tensor::EmptyOp>())
    return true;
  if (auto fill = init.getDefiningOp<linalg::FillOp>())
    init = fill.getInputs().front();
  return matchPattern(init, m_Zero()) || matchPattern(init, m_AnyZeroFloat());
}

Value castTo(OpBuilder &builder, Location loc, Value value,
             RankedTensorType type) {
  if (value.getType() == type)
    return value;
  return tensor::CastOp::create(builder, loc, type, value);
}

Value transposeMatrix(OpBuilder &builder, Location loc, Value matrix) {
  auto type = cast<RankedTensorType>(matrix.getType());
  SmallVector<OpFoldResult> sizes = {
      tensor::getMixedSize(builder, loc, matrix, 1),
      tensor::getMixedSize(builder, loc, matrix, 0)};
  Value init =
      tensor::EmptyOp::create(builder, loc, sizes, type.getElementType());
  return linalg::TransposeOp::create(builder, loc, matrix, init,
                                     ArrayRef<int64_t>{1, 0})
      ->getResult(0);
}

/// Offsets, sizes and strides of matrix `index` of a rank-3 tensor.
struct MatrixSlice {
  SmallVector<OpFoldResult> offsets, sizes, strides;
};
MatrixSlice getMatrixSlice(OpBuilder &builder, Location loc, Value batch,
                           int64_t index) {
  MatrixSlice slice;
  slice.offsets = {builder.getIndexAttr(index), builder.getIndexAttr(0),
                   builder.getIndexAttr(0)};
  slice.sizes = {builder.getIndexAttr(1),
                 tensor::getMixedSize(builder, loc, batch, 1),
                 tensor::getMixedSize(builder, loc, batch, 2)};
  slice.strides.assign(3, builder.getIndexAttr(1));
  return slice;
}

/// Matrix `index` of a rank-3 tensor, as a rank-2 tensor.
Value extractMatrix(OpBuilder &builder, Location loc, Value batch,
                    int64_t index) {
  auto type = cast<RankedTensorType>(batch.getType());
  auto matrixType = RankedTensorType::get(
      {type.getDimSize(1), type.getDimSize(2)}, type.getElementType());
  MatrixSlice slice = getMatrixSlice(builder, loc, batch, index);
  return tensor::ExtractSliceOp::create(builder, loc, matrixType, batch,
                                        slice.offsets, slice.sizes,
                                        slice.strides);
}

/// Writes `matrix` as matrix `index` of the rank-3 `batch`.
Value insertMatrix(OpBuilder &builder, Location loc, Value matrix, Value batch,
                   int64_t index) {
  MatrixSlice slice = getMatrixSlice(builder, loc, batch, index);
  return tensor::InsertSliceOp::create(
      builder, loc, matrix, batch, slice.offsets, slice.sizes, slice.strides);
}

/// Computes one (non-batched) matmul from its encoded weight: `other` is the
/// matmul's other input, `acc` its init when that is not zero (or null), and
/// `resultType` the matmul's result type.
Value buildProduct(OpBuilder &builder, Location loc, const Layout &layout,
                   Value encoded, Value other, Value acc,
                   RankedTensorType resultType, Attribute quantization) {
  Value rhs =
      layout.transposeOther ? transposeMatrix(builder, loc, other) : other;
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  int64_t rows = cast<RankedTensorType>(encoded.getType()).getDimSize(0);
  // N may be dynamic in the dense input and static in the init, or the
  // reverse; keep whichever is known.
  int64_t cols = rhsType.getDimSize(1);
  if (ShapedType::isDynamic(cols))
    cols = resultType.getDimSize(layout.transposeResult ? 0 : 1);
  auto spmmType =
      RankedTensorType::get({rows, cols}, resultType.getElementType());
  if (acc) {
    if (layout.transposeResult)
      acc = transposeMatrix(builder, loc, acc);
    acc = castTo(builder, loc, acc, spmmType);
  }
  Value product = SpmmOp::create(builder, loc, spmmType, encoded, rhs, acc,
                                 /*bias=*/Value(), /*weight_scales=*/Value(),
                                 /*input_scales=*/Value(), Activation::none,
                                 /*group_size=*/IntegerAttr());
  // The matmul's quantization choice is vnm-quantize's to apply.
  if (quantization)
    product.getDefiningOp()->setAttr(kQuantizationAttrName, quantization);
  if (layout.transposeResult)
    product = transposeMatrix(builder, loc, product);
  return castTo(builder, loc, product, resultType);
}

/// A function argument annotated with vnm.encoding.
struct WeightArgument {
  func::FuncOp func;
  BlockArgument arg;
  EncodingAttr encoding;
  /// The argument's `vnm.quantization`, for the spmm ops reading it.
  Attribute quantization;
  /// Already reported as unusable; its matmuls are not looked at.
  bool invalid = false;
  /// The matmul inputs reading it as the weight, with whether each holds it
  /// K x R.
  SmallVector<std::pair<OpOperand *, bool>> weightUses;
  /// Whether the argument takes the encoded type (every weight use holds it
  /// R x K); decided once every matmul has been seen.
  bool retype = false;
  /// The encoded weight in each orientation (R x K, K x R) once built.
  Value encoded[2];
};

/// One matmul to rewrite.
struct Rewrite {
  linalg::LinalgOp op;
  bool batched = false;
  Layout layout;
  EncodingAttr encoding;
  /// The weight: an index into the annotated arguments, or a constant.
  std::optional<unsigned> argument;
  arith::ConstantOp constant;
};

struct SparsifyPass : public vnm::impl::VNMSparsifyBase<SparsifyPass> {
  using VNMSparsifyBase::VNMSparsifyBase;

  void runOnOperation() override;

private:
  /// Reports a weight dimension above the format's limit (encoding C7):
  /// its matrices, one per batch for a batched weight, must be encodable.
  LogicalResult
  checkFormatLimit(ShapedType type,
                   llvm::function_ref<InFlightDiagnostic()> emitError) {
    for (int64_t dim = type.getRank() - 2; dim < type.getRank(); ++dim) {
      if (type.getDimSize(dim) <= format::kMaxDimension)
        continue;
      emitError() << "dimension " << dim << " of the weight is "
                  << type.getDimSize(dim) << ", above the format's limit of "
                  << format::kMaxDimension << " (encoding C7)";
      hadError = true;
      return failure();
    }
    return success();
  }

  LogicalResult parseDefaultFormat();
  void collectArguments();
  void analyzeMatmul(linalg::LinalgOp op, bool batched);
  void decideArgument(WeightArgument &weight);
  void rewriteArgument(WeightArgument &weight);
  Value getEncodedConstant(const Rewrite &rewrite,
                           std::optional<int64_t> batch);
  void rewriteMatmul(const Rewrite &rewrite);

  InFlightDiagnostic emitArgumentError(WeightArgument &weight) {
    InFlightDiagnostic diag = emitError(weight.arg.getLoc());
    diag << "vnm-sparsify: argument " << weight.arg.getArgNumber() << " of @"
         << weight.func.getSymName() << ": ";
    return diag;
  }

  EncodingAttr defaultEncoding;
  SmallVector<WeightArgument> arguments;
  DenseMap<Value, unsigned> argumentIndex;
  SmallVector<Rewrite> rewrites;
  /// Encoded constants by (constant, transposed, encoding, batch index or
  /// -1), so that a weight shared by several matmuls is compressed once.
  DenseMap<std::tuple<Operation *, unsigned, Attribute, int64_t>, Value>
      encodedConstants;
  /// The last op built after each weight constant.
  DenseMap<Operation *, Operation *> lastBuiltAfter;
  /// Ops whose results the rewritten matmuls read; erased once dead.
  llvm::SetVector<Operation *> maybeDead;
  bool hadError = false;
};

LogicalResult SparsifyPass::parseDefaultFormat() {
  if (defaultFormat.empty())
    return success();
  ModuleOp module = getOperation();
  SmallVector<StringRef, 3> parts;
  StringRef(defaultFormat).split(parts, ':');
  int64_t values[3] = {};
  bool wellFormed = parts.size() == 3;
  for (unsigned i = 0; wellFormed && i < 3; ++i)
    wellFormed = !parts[i].trim().getAsInteger(10, values[i]);
  if (!wellFormed)
    return emitError(module.getLoc())
           << "vnm-sparsify: default-format must be V:N:M (e.g. 64:2:8), got '"
           << defaultFormat << "'";
  defaultEncoding = EncodingAttr::getChecked(
      [&] {
        return emitError(module.getLoc())
               << "vnm-sparsify: default-format '" << defaultFormat << "': ";
      },
      &getContext(), values[0], values[1], values[2]);
  return success(defaultEncoding != nullptr);
}

void SparsifyPass::collectArguments() {
  getOperation().walk([&](func::FuncOp func) {
    if (func.isExternal())
      return;
    for (BlockArgument arg : func.getArguments()) {
      Attribute attr = func.getArgAttr(arg.getArgNumber(), kEncodingAttrName);
      if (!attr)
        continue;
      WeightArgument weight;
      weight.func = func;
      weight.arg = arg;
      weight.encoding = dyn_cast<EncodingAttr>(attr);
      weight.quantization =
          func.getArgAttr(arg.getArgNumber(), kQuantizationAttrName);
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!weight.encoding) {
        emitArgumentError(weight)
            << "'vnm.encoding' must be a #vnm.encoding attribute, got " << attr;
        weight.invalid = true;
      } else if (!type || type.getRank() != 2 || type.getEncoding()) {
        emitArgumentError(weight)
            << "the weight must be a rank-2 (R x K) tensor without encoding "
               "(encoding C4), got "
            << arg.getType();
        weight.invalid = true;
      } else if (!isSupportedElementType(type.getElementType())) {
        emitArgumentError(weight)
            << "element type " << type.getElementType()
            << " cannot be encoded (encoding C6: f16, bf16, f32, i8 or i4)";
        weight.invalid = true;
      }
      hadError |= weight.invalid;
      argumentIndex[arg] = arguments.size();
      arguments.push_back(weight);
    }
  });
}

void SparsifyPass::analyzeMatmul(linalg::LinalgOp op, bool batched) {
  Attribute opAttr = op->getAttr(kEncodingAttrName);
  auto opEncoding = dyn_cast_or_null<EncodingAttr>(opAttr);
  if (opAttr && !opEncoding) {
    op->emitOpError("vnm-sparsify: 'vnm.encoding' must be a #vnm.encoding "
                    "attribute, got ")
        << opAttr;
    hadError = true;
    return;
  }

  // An annotated argument is part of the function's interface and wins over
  // a constant, which is only encoded opportunistically.
  SmallVector<unsigned, 2> argumentInputs, constantInputs;
  InputSource sources[2];
  for (unsigned i = 0; i < 2; ++i) {
    sources[i] = getInputSource(*op.getDpsInputOperand(i));
    Value input = sources[i].use->get();
    // The argument's transpose would be left reading the encoded argument
    // if anything but this matmul used it.
    if (argumentIndex.contains(input) &&
        (!sources[i].throughTranspose || op.getDpsInputs()[i].hasOneUse())) {
      argumentInputs.push_back(i);
      continue;
    }
    auto constant = input.getDefiningOp<arith::ConstantOp>();
    auto elements =
        constant ? dyn_cast<ElementsAttr>(constant.getValue()) : nullptr;
    if (elements && (opEncoding || (defaultEncoding &&
                                    elements.getNumElements() >= minElements)))
      constantInputs.push_back(i);
  }
  if (argumentInputs.size() == 2 ||
      (argumentInputs.empty() && constantInputs.size() == 2)) {
    op->emitOpError("vnm-sparsify: both inputs are weight candidates (")
        << (argumentInputs.empty() ? "constants"
                                   : "arguments annotated with vnm.encoding")
        << "); only one operand can be encoded";
    hadError = true;
    return;
  }
  Rewrite rewrite;
  rewrite.op = op;
  rewrite.batched = batched;
  unsigned weightInput;
  if (!argumentInputs.empty()) {
    weightInput = argumentInputs.front();
    rewrite.argument = argumentIndex.lookup(sources[weightInput].use->get());
  } else if (!constantInputs.empty()) {
    weightInput = constantInputs.front();
    rewrite.constant =
        sources[weightInput].use->get().getDefiningOp<arith::ConstantOp>();
  } else {
    if (opEncoding) {
      op->emitOpError("vnm-sparsify: has a vnm.encoding attribute but neither "
                      "input is a constant or an argument annotated with "
                      "vnm.encoding");
      hadError = true;
    }
    return;
  }

  WeightArgument *argument =
      rewrite.argument ? &arguments[*rewrite.argument] : nullptr;
  if (argument && argument->invalid)
    return;
  if (argument && opEncoding && opEncoding != argument->encoding) {
    op->emitOpError("vnm-sparsify: vnm.encoding ")
        << opEncoding << " differs from " << argument->encoding
        << " of its weight, argument " << argument->arg.getArgNumber()
        << " of @" << argument->func.getSymName();
    hadError = true;
    return;
  }
  rewrite.encoding = argument     ? argument->encoding
                     : opEncoding ? opEncoding
                                  : defaultEncoding;

  Value weight = sources[weightInput].use->get();
  Value other = op.getDpsInputs()[1 - weightInput];
  Type weightElement = getElementTypeOrSelf(weight.getType());
  if (!argument && !isSupportedElementType(weightElement)) {
    op->emitOpError("vnm-sparsify: weight element type ")
        << weightElement
        << " cannot be encoded (encoding C6: f16, bf16, f32, i8 or i4)";
    hadError = true;
    return;
  }
  if (!argument &&
      failed(checkFormatLimit(cast<ShapedType>(weight.getType()), [&] {
        return op->emitOpError("vnm-sparsify: ");
      })))
    return;

  // What spmm cannot express fails a matmul the user pointed at and leaves
  // one that default-format merely made eligible as it is.
  bool requested = argument || opEncoding;
  auto reject = [&](llvm::function_ref<void(InFlightDiagnostic &)> explain) {
    if (!requested) {
      ++numSkipped;
      return;
    }
    InFlightDiagnostic diag = op->emitOpError("vnm-sparsify: ");
    explain(diag);
    hadError = true;
  };
  std::optional<std::pair<bool, bool>> transposes =
      getInputTransposes(op, batched);
  if (!transposes)
    return reject([](InFlightDiagnostic &diag) {
      diag << "indexing maps are not those of a plain or operand-transposed "
              "matmul";
    });
  Type otherElement = getElementTypeOrSelf(other.getType());
  if (otherElement != weightElement)
    return reject([&](InFlightDiagnostic &diag) {
      diag << "inputs have different element types (" << weightElement
           << " for the weight, " << otherElement
           << " for the other input); vnm.spmm takes one (spmm C3)";
    });
  Type resultElement = getElementTypeOrSelf(op->getResult(0).getType());
  if (!isSpmmResultElementType(weightElement, resultElement))
    return reject([&](InFlightDiagnostic &diag) {
      diag << "result element type " << resultElement
           << " is not one vnm.spmm yields for " << weightElement
           << " inputs (spmm C5: f16, bf16 or f32 for float inputs, i32 for "
              "integer inputs)";
    });
  linalg::TypeFn castKind = batched ? cast<linalg::BatchMatmulOp>(op).getCast()
                                    : cast<linalg::MatmulOp>(op).getCast();
  if (isa<IntegerType>(weightElement) &&
      castKind == linalg::TypeFn::cast_unsigned)
    return reject([](InFlightDiagnostic &diag) {
      diag << "integer inputs are cast unsigned; vnm.spmm multiplies signed "
              "integers";
    });

  rewrite.layout = getLayout(weightInput, *transposes);
  rewrite.layout.transposeWeight ^= sources[weightInput].throughTranspose;
  if (argument)
    argument->weightUses.push_back(
        {sources[weightInput].use, rewrite.layout.transposeWeight});
  rewrites.push_back(rewrite);
}

void SparsifyPass::decideArgument(WeightArgument &weight) {
  bool anyDirect = false, anyTransposed = false;
  for (auto [use, transposed] : weight.weightUses)
    (transposed ? anyTransposed : anyDirect) = true;
  weight.retype = !anyTransposed;

  auto type = cast<RankedTensorType>(weight.arg.getType());
  for (int64_t dim = 0; dim < 2; ++dim) {
    if (!type.isDynamicDim(dim))
      continue;
    InFlightDiagnostic diag = emitArgumentError(weight);
    diag << "dimension " << dim;
    // Which dimension is K depends on how the matmuls read the argument.
    if (!(anyDirect && anyTransposed))
      diag << ((dim == 0) != anyTransposed ? " (R)" : " (K)");
    diag << " of the weight is dynamic (encoding C5: encoded tensors have a "
            "static shape)";
    hadError = true;
    return;
  }
  if (failed(checkFormatLimit(type, [&] { return emitArgumentError(weight); })))
    return;

  if (!weight.retype)
    return;
  // Callers pass the encoded matrix from now on: only calls can be updated.
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(weight.func, weight.func->getParentOp());
  if (!uses) {
    emitArgumentError(weight)
        << "cannot retype the argument: the uses of @"
        << weight.func.getSymName() << " cannot all be found";
    hadError = true;
    return;
  }
  for (const SymbolTable::SymbolUse &use : *uses) {
    if (isa<func::CallOp>(use.getUser()))
      continue;
    InFlightDiagnostic diag = emitArgumentError(weight);
    diag << "cannot retype the argument: @" << weight.func.getSymName()
         << " is used by '" << use.getUser()->getName()
         << "', which the pass does not update";
    diag.attachNote(use.getUser()->getLoc()) << "used here";
    hadError = true;
    return;
  }
}

void SparsifyPass::rewriteArgument(WeightArgument &weight) {
  func::FuncOp func = weight.func;
  BlockArgument arg = weight.arg;
  unsigned index = arg.getArgNumber();
  Location loc = arg.getLoc();
  auto denseType = cast<RankedTensorType>(arg.getType());
  func.removeArgAttr(index, kEncodingAttrName);
  func.removeArgAttr(index, kQuantizationAttrName);
  OpBuilder builder = OpBuilder::atBlockBegin(&func.getBody().front());

  if (!weight.retype) {
    // Held K x R by some matmul, the argument cannot take the R x K encoded
    // type: it stays dense and is pruned on entry.
    for (auto [use, transposed] : weight.weightUses) {
      Value &encoded = weight.encoded[transposed];
      if (encoded)
        continue;
      Value dense = transposed ? transposeMatrix(builder, loc, arg) : arg;
      auto shape = cast<RankedTensorType>(dense.getType()).getShape();
      encoded = CompressOp::create(
          builder, loc,
          RankedTensorType::get(shape, denseType.getElementType(),
                                weight.encoding),
          dense);
    }
    return;
  }

  auto encodedType = RankedTensorType::get(
      denseType.getShape(), denseType.getElementType(), weight.encoding);
  arg.setType(encodedType);
  SmallVector<Type> inputs(func.getArgumentTypes());
  inputs[index] = encodedType;
  func.setType(FunctionType::get(&getContext(), inputs, func.getResultTypes()));
  weight.encoded[0] = arg;

  // Other uses see the dense matrix the caller's V:N:M matrix stands for.
  llvm::SmallPtrSet<OpOperand *, 4> weightUses;
  for (auto [use, transposed] : weight.weightUses)
    weightUses.insert(use);
  if (llvm::any_of(arg.getUses(), [&](OpOperand &use) {
        return !weightUses.contains(&use);
      })) {
    auto decompress = DecompressOp::create(builder, loc, denseType, arg);
    arg.replaceUsesWithIf(decompress, [&](OpOperand &use) {
      return use.getOwner() != decompress && !weightUses.contains(&use);
    });
  }

  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(func, func->getParentOp());
  for (const SymbolTable::SymbolUse &use : *uses) {
    auto call = cast<func::CallOp>(use.getUser());
    OpBuilder callBuilder(call);
    Value operand = call.getOperand(index);
    call.setOperand(index, CompressOp::create(callBuilder, call.getLoc(),
                                              encodedType, operand));
  }
}

Value SparsifyPass::getEncodedConstant(const Rewrite &rewrite,
                                       std::optional<int64_t> batch) {
  arith::ConstantOp constant = rewrite.constant;
  bool transpose = rewrite.layout.transposeWeight;
  Value &encoded = encodedConstants[{constant, transpose, rewrite.encoding,
                                     batch.value_or(-1)}];
  if (encoded)
    return encoded;

  // Right after the constant, which dominates every matmul reading it; the
  // ops built for one constant stay in the order they were asked for.
  Operation *&last = lastBuiltAfter[constant];
  OpBuilder builder(constant->getContext());
  builder.setInsertionPointAfter(last ? last : constant.getOperation());
  Location loc = constant.getLoc();
  Value dense = constant;
  if (transpose || batch) {
    if (TypedAttr matrix = extractWeightMatrix(
            cast<ElementsAttr>(constant.getValue()), batch, transpose)) {
      dense = arith::ConstantOp::create(builder, loc, matrix);
    } else {
      if (batch)
        dense = extractMatrix(builder, loc, dense, *batch);
      if (transpose)
        dense = transposeMatrix(builder, loc, dense);
    }
  }
  auto denseType = cast<RankedTensorType>(dense.getType());
  encoded = CompressOp::create(builder, loc,
                               RankedTensorType::get(denseType.getShape(),
                                                     denseType.getElementType(),
                                                     rewrite.encoding),
                               dense);
  last = encoded.getDefiningOp();
  return encoded;
}

void SparsifyPass::rewriteMatmul(const Rewrite &rewrite) {
  linalg::LinalgOp op = rewrite.op;
  const Layout &layout = rewrite.layout;
  OpBuilder builder(op);
  Location loc = op.getLoc();
  Value other = op.getDpsInputs()[1 - layout.weightOperand];
  Value init = op.getDpsInits().front();
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  Value acc = isZeroInit(init) ? Value() : init;
  // The op's own choice, else its weight argument's.
  Attribute quantization = op->getAttr(kQuantizationAttrName);
  if (!quantization && rewrite.argument)
    quantization = arguments[*rewrite.argument].quantization;
  auto getEncoded = [&](std::optional<int64_t> batch) {
    if (rewrite.argument)
      return arguments[*rewrite.argument].encoded[layout.transposeWeight];
    return getEncodedConstant(rewrite, batch);
  };

  Value result;
  if (!rewrite.batched) {
    result = buildProduct(builder, loc, layout, getEncoded(std::nullopt), other,
                          acc, resultType, quantization);
  } else {
    // Encoded tensors are matrices: one spmm per batch. The batch size is
    // the constant weight's.
    int64_t numBatches =
        cast<ShapedType>(arith::ConstantOp(rewrite.constant).getType())
            .getDimSize(0);
    auto matrixType = RankedTensorType::get(resultType.getShape().drop_front(),
                                            resultType.getElementType());
    // Every matrix of the result is written, so a zero init is not read.
    result = acc ? acc
                 : tensor::EmptyOp::create(
                       builder, loc, tensor::getMixedSizes(builder, loc, init),
                       resultType.getElementType());
    for (int64_t batch = 0; batch < numBatches; ++batch) {
      Value matrixAcc = acc ? extractMatrix(builder, loc, acc, batch) : Value();
      Value product = buildProduct(builder, loc, layout, getEncoded(batch),
                                   extractMatrix(builder, loc, other, batch),
                                   matrixAcc, matrixType, quantization);
      result = insertMatrix(builder, loc, product, result, batch);
    }
  }

  for (Value operand : op->getOperands())
    if (Operation *producer = operand.getDefiningOp())
      maybeDead.insert(producer);
  op->getResult(0).replaceAllUsesWith(result);
  maybeDead.remove(op);
  op->erase();
  ++numSparsified;
}

void SparsifyPass::runOnOperation() {
  if (failed(parseDefaultFormat()))
    return signalPassFailure();

  collectArguments();
  getOperation().walk([&](linalg::LinalgOp op) {
    if (isa<linalg::MatmulOp>(op))
      return analyzeMatmul(op, /*batched=*/false);
    if (isa<linalg::BatchMatmulOp>(op))
      return analyzeMatmul(op, /*batched=*/true);
    if (op->hasAttr(kEncodingAttrName)) {
      op->emitOpError("vnm-sparsify: only linalg.matmul and "
                      "linalg.batch_matmul take a vnm.encoding attribute");
      hadError = true;
    }
  });
  for (WeightArgument &weight : arguments)
    if (!weight.invalid)
      decideArgument(weight);
  if (hadError)
    return signalPassFailure();

  for (WeightArgument &weight : arguments)
    rewriteArgument(weight);
  for (const Rewrite &rewrite : rewrites)
    rewriteMatmul(rewrite);

  // The weight constants (now compressed, possibly from a rearranged copy)
  // and zero inits the matmuls read are often dead now.
  while (!maybeDead.empty()) {
    Operation *op = maybeDead.pop_back_val();
    if (!isOpTriviallyDead(op))
      continue;
    for (Value operand : op->getOperands())
      if (Operation *producer = operand.getDefiningOp())
        maybeDead.insert(producer);
    op->erase();
  }
}

} // namespace
