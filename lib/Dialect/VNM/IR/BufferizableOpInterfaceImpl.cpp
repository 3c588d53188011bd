//===- BufferizableOpInterfaceImpl.cpp - bufferization of vnm ops ---------===//
//
// Storage ops are in destination style and bufferize like linalg ops: each
// tensor operand is replaced by its buffer and the op is re-created on
// memrefs, its `outs` buffers standing for its results.
//
// An encoded tensor has no single buffer (it is three arrays), so the
// encoded-tensor ops (vnm.prune included, to keep one bufferization story per
// level) refuse to bufferize with a diagnostic that names the pass which
// rewrites them into storage ops first.
//
//===----------------------------------------------------------------------===//

#include "vnm/Dialect/VNM/IR/VNM.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"

using namespace mlir;
using namespace mlir::bufferization;
using namespace vnm;

namespace {

template <typename OpTy>
struct StorageOpBufferization : public BufferizableOpInterface::ExternalModel<
                                    StorageOpBufferization<OpTy>, OpTy> {
  static bool isInit(Operation *op, OpOperand &operand) {
    return operand.getOperandNumber() >=
           op->getNumOperands() - OpTy::getNumInits();
  }

  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand,
                              const AnalysisState &) const {
    if (!isInit(op, operand))
      return true;
    // Only an accumulating spmm reads its init; the other ops overwrite every
    // element of theirs.
    if (auto spmm = dyn_cast<StorageSpmmOp>(op))
      return spmm.getAccumulate();
    return false;
  }

  bool bufferizesToMemoryWrite(Operation *op, OpOperand &operand,
                               const AnalysisState &) const {
    return isInit(op, operand);
  }

  AliasingValueList getAliasingValues(Operation *op, OpOperand &operand,
                                      const AnalysisState &) const {
    if (!isInit(op, operand) || op->getNumResults() == 0)
      return {};
    unsigned firstInit = op->getNumOperands() - OpTy::getNumInits();
    return {{op->getResult(operand.getOperandNumber() - firstInit),
             BufferRelation::Equivalent}};
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      if (!isa<TensorType>(operand.getType())) {
        operands.push_back(operand);
        continue;
      }
      FailureOr<Value> buffer = getBuffer(rewriter, operand, options, state);
      if (failed(buffer))
        return failure();
      operands.push_back(*buffer);
    }
    rewriter.setInsertionPoint(op);
    OperationState bufferized(op->getLoc(), op->getName(), operands,
                              TypeRange(), op->getAttrs());
    rewriter.create(bufferized);
    replaceOpWithBufferizedValues(
        rewriter, op, ArrayRef<Value>(operands).take_back(OpTy::getNumInits()));
    return success();
  }
};

template <typename OpTy>
struct EncodedOpBufferization : public BufferizableOpInterface::ExternalModel<
                                    EncodedOpBufferization<OpTy>, OpTy> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return true;
  }
  bool bufferizesToMemoryWrite(Operation *, OpOperand &,
                               const AnalysisState &) const {
    return false;
  }
  AliasingValueList getAliasingValues(Operation *, OpOperand &,
                                      const AnalysisState &) const {
    return {};
  }
  LogicalResult bufferize(Operation *op, RewriterBase &,
                          const BufferizationOptions &,
                          BufferizationState &) const {
    return op->emitError()
           << "'" << op->getName()
           << "' has no buffer form: run --vnm-expand-storage before "
              "bufferization, which rewrites encoded-tensor ops into "
              "vnm.storage ops";
  }
};

template <typename... Ops> void attachStorageModels(MLIRContext *context) {
  (Ops::template attachInterface<StorageOpBufferization<Ops>>(*context), ...);
}

template <typename... Ops> void attachEncodedModels(MLIRContext *context) {
  (Ops::template attachInterface<EncodedOpBufferization<Ops>>(*context), ...);
}

} // namespace

void vnm::registerVNMDialect(DialectRegistry &registry) {
  registry.insert<VNMDialect>();
  registry.addExtension(+[](MLIRContext *context, VNMDialect *) {
    attachStorageModels<StoragePruneOp, StorageCompressOp, StorageDecompressOp,
                        StorageSpmmOp, StorageSddmmOp, StorageQuantizeOp>(
        context);
    attachEncodedModels<PruneOp, CompressOp, DecompressOp, AssembleOp,
                        DisassembleOp, SpmmOp, SddmmOp, QuantizeOp>(context);
  });
}
