//===- Folds.cpp - folds of the encoded-tensor ops ------------------------===//
//
// Only folds that hold for every input: decompress(compress(x)) is not folded
// because compress prunes.
//
//===----------------------------------------------------------------------===//

#include "vnm/Dialect/VNM/IR/VNM.h"

using namespace mlir;
using namespace vnm;

/// prune(prune(x)) -> prune(x): in each block the first prune leaves at most
/// n nonzeros per row inside four columns, so that column set already scores
/// the whole block and the second prune keeps every remaining entry.
OpFoldResult PruneOp::fold(FoldAdaptor) {
  auto inner = getInput().getDefiningOp<PruneOp>();
  if (inner && inner.getEncoding() == getEncoding())
    return getInput();
  return {};
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
