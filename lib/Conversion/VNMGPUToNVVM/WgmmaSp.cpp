//===- WgmmaSp.cpp - wgmma.sp tiles to NVVM -------------------------------===//
//
// vnm_gpu.wgmma_sp as `wgmma.mma_async.sp.sync.aligned` of sm_90a,
// m64nNk32 for f16/bf16 and m64nNk64 for s8, in the layouts
// docs/hopper.md records as checked on the H200:
//
// * A from registers: each warp's 16 rows in the mma.sp m16n8k32 (m16n8k64)
//   layout, the pair's metadata word read with selector `step` (s8: 0);
// * B through a descriptor of the ring slot in its canonical swizzle (S =
//   128 or 64 bytes), LBO the stride between column blocks (the slot's
//   rows x S bytes), SBO the stride between 8-row atoms (8 S). A K x N
//   slot is MN-major (imm-trans-b 1): the step's first row is `offset`
//   rows (S bytes each) into a block. A transposed slot (`k_contiguous`,
//   N x K) is K-major (imm-trans-b 0; s8 has only this form): the step
//   starts `offset` elements into the atoms' rows, which a step never
//   leaves;
// * D: the accumulators of the m16n8 tiles, in order (f32, or s32 that
//   wraps as the spmm's sums do).
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

/// Descriptor fields of the ring's canonical swizzled layout (MN- or
/// K-major alike), without the start address: LBO, SBO (both >> 4) and the
/// swizzle mode (1: 128 bytes, 2: 64 bytes).
uint64_t getDescriptorFields(RingType ring) {
  int64_t swizzleBytes = ring.getCanonicalSwizzleBytes();
  uint64_t blockStride = uint64_t(ring.getRows()) * swizzleBytes;
  uint64_t atomStride = 8 * swizzleBytes;
  uint64_t mode = swizzleBytes == 128 ? 1 : 2;
  return ((blockStride >> 4) & 0x3FFF) << 16 |
         ((atomStride >> 4) & 0x3FFF) << 32 | mode << 62;
}

/// The inline PTX of one wgmma.sp with `accumulators` registers, A in four
/// registers, selector `selector`: m64nNk32 with f32 accumulators of
/// `type` (f16, bf16) operands, B MN-major (`transposeB`) or K-major; or,
/// for `type` s8, m64nNk64 with s32 accumulators, B K-major. Operands $0..
/// the accumulators (tied to the inputs after them), then A, the
/// descriptor, the metadata word and the scale-d flag.
std::string getWgmmaText(int64_t n, int64_t accumulators, StringRef type,
                         int64_t selector, bool transposeB) {
  std::string d, text;
  for (int64_t i = 0; i < accumulators; ++i)
    d += (i ? ", $" : "$") + std::to_string(i);
  int64_t first = 2 * accumulators; // after the outputs and tied inputs
  auto operand = [&](int64_t i) { return "$" + std::to_string(first + i); };
  bool integer = type == "s8";
  std::string shape = "m64n" + std::to_string(n) + (integer ? "k64" : "k32");
  std::string types =
      integer ? ".s32.s8.s8" : ".f32." + type.str() + "." + type.str();
  // Integer wgmma has no negation or transpose immediates.
  std::string immediates =
      integer ? "" : std::string(", 1, 1, ") + (transposeB ? "1" : "0");
  text = "{\n.reg .pred p;\nsetp.ne.b32 p, " + operand(6) +
         ", 0;\nwgmma.mma_async.sp.sync.aligned." + shape + types + " {" + d +
         "}, {" + operand(0) + ", " + operand(1) + ", " + operand(2) + ", " +
         operand(3) + "}, " + operand(4) + ", " + operand(5) + ", " +
         std::to_string(selector) + ", p" + immediates + ";\n}";
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

    // The step's first K in the slot: rows are a swizzle width (128 or 64
    // bytes) apart inside a column block of a K x N slot; K values are
    // elements of the atoms' rows in a transposed one.
    int64_t offset = op.getOffsetAttr().getInt();
    int64_t swizzleBytes = ring.getCanonicalSwizzleBytes();
    int64_t offsetBytes = offset * swizzleBytes;
    if (op.getKContiguous()) {
      int64_t bytes = offset * ring.getElementBytes();
      offsetBytes = bytes / swizzleBytes * ring.getRows() * swizzleBytes +
                    bytes % swizzleBytes;
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
    Type element = op.getA().getType().getElementType();
    bool integer = element.isSignlessInteger(8);
    std::string constraints;
    for (int64_t i = 0; i < count; ++i)
      constraints += integer ? "=r," : "=f,";
    for (int64_t i = 0; i < count; ++i)
      constraints += std::to_string(i) + ",";
    constraints += "r,r,r,r,l,r,r";
    Type accElement = integer ? Type(b.getI32Type()) : Type(b.getF32Type());
    auto resultType = LLVM::LLVMStructType::getLiteral(
        b.getContext(), SmallVector<Type>(count, accElement));

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
                     integer            ? "s8"
                     : element.isBF16() ? "bf16"
                                        : "f16",
                     integer ? 0 : step, /*transposeB=*/!op.getKContiguous()),
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
