//===- Folds.cpp - folds of the encoded-tensor ops ------------------------===//
//
// Only folds that hold for every input: decompress(compress(x)) is not folded
// because compress prunes.
//
//===----------------------------------------------------------------------===//

#include "vnm/Dialect/VNM/IR/VNM.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include "vnm/Format/Format.h"

#include "vnm/Dialect/VNM/IR/StorageLayout.h"

#include "ConstantData.h"

using namespace mlir;
using namespace vnm;
using namespace vnm::detail;

static format::Encoding toFormatEncoding(EncodingAttr encoding) {
  return {encoding.getV(), encoding.getN(), encoding.getM()};
}

Operation *VNMDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto typed = dyn_cast<TypedAttr>(value);
  if (!typed || typed.getType() != type)
    return nullptr;
  return arith::ConstantOp::create(builder, loc, type, typed);
}

/// prune(prune(x)) -> prune(x): in each block the first prune leaves at most
/// n nonzeros per row inside four columns, so that column set already scores
/// the whole block and the second prune keeps every remaining entry.
///
/// prune(constant) -> constant: compile-time pruning by the format library.
OpFoldResult PruneOp::fold(FoldAdaptor adaptor) {
  auto inner = getInput().getDefiningOp<PruneOp>();
  if (inner && inner.getEncoding() == getEncoding())
    return getInput();

  auto type = cast<RankedTensorType>(getType());
  std::optional<format::ElementType> elementType =
      getFormatElementType(type.getElementType());
  if (!adaptor.getInput() || !elementType || !type.hasStaticShape())
    return {};
  std::optional<std::vector<uint8_t>> dense =
      getConstantElements(adaptor.getInput(), *elementType);
  if (!dense)
    return {};
  std::vector<uint8_t> pruned(dense->size());
  // A failure (sizes beyond the library's limits) leaves the op to run.
  if (!format::prune(toFormatEncoding(getEncoding()), *elementType,
                     dense->data(), type.getDimSize(0), type.getDimSize(1),
                     pruned.data())
           .ok())
    return {};
  return makeConstant(type, *elementType, pruned);
}

/// quantize(constant) -> constants: compile-time quantization of weights by
/// the format library, whose rule the loop lowering of the op repeats.
LogicalResult QuantizeOp::fold(FoldAdaptor adaptor,
                               SmallVectorImpl<OpFoldResult> &results) {
  auto inputType = cast<RankedTensorType>(getInput().getType());
  auto quantizedType = cast<RankedTensorType>(getQuantized().getType());
  auto scalesType = cast<RankedTensorType>(getScales().getType());
  std::optional<format::ElementType> source =
      getFormatElementType(inputType.getElementType());
  std::optional<format::ElementType> target =
      getFormatElementType(quantizedType.getElementType());
  if (!adaptor.getInput() || !source || !target ||
      !inputType.hasStaticShape() || !quantizedType.hasStaticShape() ||
      !scalesType.hasStaticShape())
    return failure();
  std::optional<std::vector<uint8_t>> dense =
      getConstantElements(adaptor.getInput(), *source);
  if (!dense)
    return failure();
  int64_t rows = inputType.getDimSize(0), cols = inputType.getDimSize(1);
  format::QuantizeGrouping grouping;
  grouping.axis = getAxis() ? static_cast<int>(*getAxis()) : -1;
  grouping.groupSize = getGroupSize().value_or(0);
  std::vector<uint8_t> quantized(rows * cols);
  std::vector<float> scales(scalesType.getNumElements());
  // A failure (a NaN or infinite weight) leaves the op to run, where such a
  // group's scale is NaN or infinite and every result using it NaN.
  if (!format::quantize(*source, dense->data(), rows, cols, *target, grouping,
                        reinterpret_cast<int8_t *>(quantized.data()),
                        scales.data())
           .ok())
    return failure();
  results.push_back(makeConstant(quantizedType, *target, quantized));
  results.push_back(DenseElementsAttr::get(scalesType, ArrayRef(scales)));
  return success();
}

/// compress(decompress(s)) -> s: the dense matrix fits the format, so the
/// storage `s` is a valid encoding of it (see the op's semantics).
OpFoldResult CompressOp::fold(FoldAdaptor) {
  auto decompress = getInput().getDefiningOp<DecompressOp>();
  if (decompress && decompress.getInput().getType() == getType())
    return decompress.getInput();
  return {};
}

/// assemble(disassemble(s)) -> s.
OpFoldResult AssembleOp::fold(FoldAdaptor) {
  auto disassemble = getValues().getDefiningOp<DisassembleOp>();
  if (!disassemble || disassemble.getInput().getType() != getType())
    return {};
  if (getValues() != disassemble.getValues() ||
      getColidx() != disassemble.getColidx() ||
      getMeta() != disassemble.getMeta())
    return {};
  return disassemble.getInput();
}

/// disassemble(assemble(v, c, m)) -> (v, c, m) when the types agree exactly.
LogicalResult DisassembleOp::fold(FoldAdaptor,
                                  SmallVectorImpl<OpFoldResult> &results) {
  auto assemble = getInput().getDefiningOp<AssembleOp>();
  if (!assemble || assemble.getOperandTypes() != getResultTypes())
    return failure();
  llvm::append_range(results, assemble.getOperands());
  return success();
}

namespace {
/// compress(constant) -> assemble(constant values, colidx, meta): weights
/// known at compile time are pruned and compressed once, by the format
/// library, instead of at every run.
struct FoldCompressOfConstant : OpRewritePattern<CompressOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(CompressOp op,
                                PatternRewriter &rewriter) const override {
    Attribute value;
    if (!matchPattern(op.getInput(), m_Constant(&value)))
      return rewriter.notifyMatchFailure(op, "input is not a constant");
    auto type = cast<RankedTensorType>(op.getType());
    std::optional<format::ElementType> elementType =
        getFormatElementType(type.getElementType());
    std::optional<std::vector<uint8_t>> dense =
        elementType ? getConstantElements(value, *elementType) : std::nullopt;
    if (!dense)
      return rewriter.notifyMatchFailure(op, "constant data unavailable");

    format::Encoding encoding = toFormatEncoding(getVNMEncoding(type));
    SmallVector<RankedTensorType, 3> storageTypes = getStorageTensorTypes(type);
    std::vector<uint8_t> values(storageTypes[0].getNumElements() *
                                format::getElementByteSize(*elementType));
    std::vector<uint8_t> colidx(storageTypes[1].getNumElements());
    std::vector<uint8_t> meta(storageTypes[2].getNumElements());
    if (!format::compress(encoding, *elementType, dense->data(),
                          type.getDimSize(0), type.getDimSize(1), values.data(),
                          colidx.data(), meta.data())
             .ok())
      return rewriter.notifyMatchFailure(op, "format library refused");

    Location loc = op.getLoc();
    auto constant = [&](RankedTensorType storageType,
                        format::ElementType storageElement,
                        const std::vector<uint8_t> &data) -> Value {
      return arith::ConstantOp::create(
          rewriter, loc, storageType,
          makeConstant(storageType, storageElement, data));
    };
    rewriter.replaceOpWithNewOp<AssembleOp>(
        op, type, constant(storageTypes[0], *elementType, values),
        constant(storageTypes[1], format::ElementType::I8, colidx),
        constant(storageTypes[2], format::ElementType::I8, meta));
    return success();
  }
};
} // namespace

void CompressOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                             MLIRContext *context) {
  results.add<FoldCompressOfConstant>(context);
}
