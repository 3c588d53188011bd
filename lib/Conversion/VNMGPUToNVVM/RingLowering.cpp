//===- RingLowering.cpp - the shared ring and its waits to NVVM -----------===//
//
// A ring is a shared array of the kernel's gpu.module: static up to 48 KiB
// (no opt-in needed from the host), else the block's dynamic shared memory
// (an external array of unknown size; the launch contract gives its size).
// A wait is cp.async.wait_group (each copy op is one commit group), for
// rings the tensor cores read through the async proxy a proxy fence, and a
// block barrier.
//
//===----------------------------------------------------------------------===//

#include "TileLowering.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace vnm::kernel;
using namespace vnm::vnm_gpu;
using namespace vnm::vnm_gpu::lowering;

namespace {

struct AllocRingLowering : OpConversionPattern<AllocRingOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AllocRingOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto func = op->getParentOfType<gpu::GPUFuncOp>();
    auto module = func->getParentOfType<gpu::GPUModuleOp>();
    if (!module)
      return rewriter.notifyMatchFailure(op, "kernel outside a gpu.module");
    bool dynamic = op.isDynamic();
    int64_t alignment = op.getAlignment();
    // <kernel>_ring, made unique within the module.
    std::string name = (func.getName() + "_ring").str();
    SymbolTable symbols(module);
    for (int suffix = 1; symbols.lookup(name); ++suffix)
      name = (func.getName() + "_ring_" + llvm::Twine(suffix)).str();
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(func);
      auto arrayType = LLVM::LLVMArrayType::get(
          rewriter.getI8Type(),
          dynamic ? 0 : getRingBytes(op.getRing().getType()));
      LLVM::GlobalOp::create(
          rewriter, op.getLoc(), arrayType, /*isConstant=*/false,
          dynamic ? LLVM::Linkage::External : LLVM::Linkage::Internal, name,
          Attribute(), /*alignment=*/alignment, kSharedSpace);
    }
    auto pointer =
        LLVM::LLVMPointerType::get(rewriter.getContext(), kSharedSpace);
    Value base =
        LLVM::AddressOfOp::create(rewriter, op.getLoc(), pointer, name);
    if (dynamic && alignment > 128) {
      // Dynamic shared memory is not known to start beyond 128-byte
      // alignment: round up inside the `alignment` extra bytes reserved.
      KernelIRBuilder kb(rewriter, op.getLoc());
      Value address = LLVM::PtrToIntOp::create(rewriter, op.getLoc(),
                                               rewriter.getI32Type(), base);
      Value aligned = kb.bitAnd(kb.add(address, kb.c32(alignment - 1)),
                                kb.c32(~(alignment - 1)));
      base = kb.offsetBytes(
          base, arith::SubIOp::create(rewriter, op.getLoc(), aligned, address));
    }
    rewriter.replaceOp(op, base);
    return success();
  }
};

struct WaitLowering : OpConversionPattern<WaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WaitOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NVVM::CpAsyncWaitGroupOp::create(rewriter, op.getLoc(),
                                     op.getPendingAttr().getInt());
    // cp.async writes through the generic proxy; wgmma reads through the
    // async proxy, which sees them only after each writer's proxy fence.
    if (op.getAsyncProxy())
      NVVM::FenceProxyOp::create(
          rewriter, op.getLoc(), NVVM::ProxyKind::async_shared,
          NVVM::SharedSpaceAttr::get(rewriter.getContext(),
                                     NVVM::SharedSpace::shared_cta));
    rewriter.replaceOpWithNewOp<gpu::BarrierOp>(op);
    return success();
  }
};

} // namespace

void lowering::populateRingPatterns(TypeConverter &converter,
                                    RewritePatternSet &patterns) {
  patterns.add<AllocRingLowering, WaitLowering>(converter,
                                                patterns.getContext());
}
