//===- WgmmaSp.cpp - wgmma.sp tiles to NVVM -------------------------------===//
//
// vnm_gpu.wgmma_sp as `wgmma.mma_async.sp.sync.aligned.m64nNk32` of sm_90a,
// in the layouts docs/hopper.md records as checked on the H200:
//
// * A from registers: each warp's 16 rows in the mma.sp m16n8k32 layout,
//   the pair's metadata word read with selector `step`;
// * B through a descriptor of the ring slot, 128-byte swizzle, LBO the
//   stride between 128-byte column blocks (the slot's rows x 128 bytes),
//   SBO the stride between 8-row atoms (1024 bytes). A K x N slot is
//   MN-major (imm-trans-b 1): the step's first row is `offset` rows (128
//   bytes each) into a block. A transposed slot (`k_contiguous`, N x K) is
//   K-major (imm-trans-b 0): the step starts `offset` columns into the
//   atoms' rows, which a 32-column step never leaves;
// * D: the accumulators of the m16n8 tiles, in order.
//
// There is no NVVM op for the sparse wgmma, so the instruction is inline
// PTX; its fence, commit and wait are NVVM ops.
//
//===----------------------------------------------------------------------===//

#include "TileLowering.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace vnm::kernel;
using namespace vnm::vnm_gpu;
using namespace vnm::vnm_gpu::lowering;

namespace {

/// Descriptor fields of the canonical 128-byte-swizzled layout (MN- or
/// K-major alike), without the start address: LBO, SBO (both >> 4) and the
/// swizzle mode.
uint64_t getDescriptorFields(RingType ring) {
  uint64_t blockStride = uint64_t(ring.getRows()) * 128;
  uint64_t atomStride = 1024;
  return ((blockStride >> 4) & 0x3FFF) << 16 |
         ((atomStride >> 4) & 0x3FFF) << 32 | uint64_t(1) << 62;
}

/// The inline PTX of one m64nNk32 wgmma.sp with `accumulators` f32
/// registers, A in four registers, selector `selector`, B MN-major
/// (`transposeB`) or K-major: operands $0.. the accumulators (tied to the
/// inputs after them), then A, the descriptor and the metadata word.
std::string getWgmmaText(int64_t n, int64_t accumulators, StringRef type,
                         int64_t selector, bool transposeB) {
  std::string d, text;
  for (int64_t i = 0; i < accumulators; ++i)
    d += (i ? ", $" : "$") + std::to_string(i);
  int64_t first = 2 * accumulators; // after the outputs and tied inputs
  auto operand = [&](int64_t i) { return "$" + std::to_string(first + i); };
  text = "{\n.reg .pred p;\nsetp.ne.b32 p, " + operand(6) +
         ", 0;\nwgmma.mma_async.sp.sync.aligned.m64n" + std::to_string(n) +
         "k32.f32." + type.str() + "." + type.str() + " {" + d + "}, {" +
         operand(0) + ", " + operand(1) + ", " + operand(2) + ", " +
         operand(3) + "}, " + operand(4) + ", " + operand(5) + ", " +
         std::to_string(selector) + ", p, 1, 1, " + (transposeB ? "1" : "0") +
         ";\n}";
  return text;
}

struct WgmmaSpLowering : OpConversionPattern<WgmmaSpOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WgmmaSpOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    AccType accType = op.getAcc().getType();
    RingType ring = op.getRing().getType();
    KernelIRBuilder kb(rewriter, op.getLoc());
    OpBuilder &b = kb.builder();
    Location loc = kb.location();
    int64_t step = op.getStepAttr().getInt();
    ValueRange a = adaptor.getA();
    SmallVector<Value> acc(adaptor.getAcc().begin(), adaptor.getAcc().end());
    int64_t count = static_cast<int64_t>(acc.size());

    // The step's first K in the slot: rows are 128 bytes apart inside a
    // column block of a K x N slot; K values are elements of the atoms'
    // rows in a transposed one.
    int64_t offset = op.getOffsetAttr().getInt();
    int64_t offsetBytes = offset * 128;
    if (op.getKContiguous()) {
      int64_t bytes = offset * ring.getElementBytes();
      offsetBytes = bytes / 128 * ring.getRows() * 128 + bytes % 128;
    }
    Value base = adaptor.getRing().front();
    Value start = kb.offsetBytes(
        base, kb.add(getSlotOffset(kb, ring, adaptor.getSlot().front()),
                     kb.c32(offsetBytes)));
    Value address = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), start);
    Value encoded =
        kb.zext64(kb.shru(kb.bitAnd(address, kb.c32(0x3FFFF)), kb.c32(4)));
    Value descriptor = arith::OrIOp::create(
        b, loc, encoded,
        kb.c64(static_cast<int64_t>(getDescriptorFields(ring))));

    // A: the metadata word, then 4 value words per k-tile of the pair.
    SmallVector<Value> operands(acc);
    for (int r = 0; r < 4; ++r)
      operands.push_back(a[1 + step * 4 + r]);
    operands.append({descriptor, a[0], kb.c32(1)});
    std::string constraints;
    for (int64_t i = 0; i < count; ++i)
      constraints += "=f,";
    for (int64_t i = 0; i < count; ++i)
      constraints += std::to_string(i) + ",";
    constraints += "r,r,r,r,l,r,r";
    Type element = op.getA().getType().getElementType();
    auto resultType = LLVM::LLVMStructType::getLiteral(
        b.getContext(), SmallVector<Type>(count, b.getF32Type()));

    // The first MMA of a group reads A registers just loaded and
    // accumulators written by other instructions: the fence orders those
    // writes before it. The MMAs after it in the group accumulate into the
    // same registers, which wgmma orders by itself.
    auto previous = op.getAcc().getDefiningOp<WgmmaSpOp>();
    if (!previous || previous.getPending())
      NVVM::WgmmaFenceAlignedOp::create(b, loc);
    auto mma = LLVM::InlineAsmOp::create(
        b, loc, resultType, operands,
        getWgmmaText(accType.getCols(), count,
                     element.isBF16() ? "bf16" : "f16", step,
                     /*transposeB=*/!op.getKContiguous()),
        constraints, /*has_side_effects=*/true, /*is_align_stack=*/false,
        LLVM::tailcallkind::TailCallKind::None, /*asm_dialect=*/{},
        /*operand_attrs=*/{});
    // With `pending` the op closes its group.
    if (std::optional<uint64_t> pending = op.getPending()) {
      NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
      NVVM::WgmmaWaitGroupSyncOp::create(b, loc, *pending);
    }
    SmallVector<Value> result;
    for (int64_t i = 0; i < count; ++i)
      result.push_back(
          LLVM::ExtractValueOp::create(b, loc, mma.getResult(0), i));
    rewriter.replaceOpWithMultiple(op, {result});
    return success();
  }
};

} // namespace

void lowering::populateWgmmaSpPatterns(TypeConverter &converter,
                                       RewritePatternSet &patterns) {
  patterns.add<WgmmaSpLowering>(converter, patterns.getContext());
}
