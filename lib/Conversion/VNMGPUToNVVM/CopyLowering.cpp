//===- CopyLowering.cpp - column-locs, gather and tile copy to NVVM -------===//
//
// A slot is filled with 16-byte cp.async.cg copies: thread tid copies
// chunk tid % (row bytes / 16) of its rows_per_thread consecutive rows (one
// to four whole groups, or half of one), so it reads its colidx bytes as
// one 32-bit word per group. Rows past K and chunks starting at or past N
// are zero-filled with a 0-byte source, which reads nothing. The copies of
// one op form one commit group.
//
// Column-locs spread as B fragments (the token-major gather, which load_b
// performs) become prmt selectors (8-bit) or each lane's pairs of kept
// columns (16-bit).
//
//===----------------------------------------------------------------------===//

#include "TileLowering.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace vnm;
using namespace vnm::kernel;
using namespace vnm::vnm_gpu;
using namespace vnm::vnm_gpu::lowering;

namespace {

/// The parts of a copy that do not depend on the row: the thread's first
/// row and its swizzled byte offset within a slot, the slot's offset in the
/// ring, the source at its column, the row pitch in bytes, and the row
/// bound of its chunk (0 when the chunk starts at or past the column bound).
/// A constant slot (a K loop unrolled by the ring depth) stays a separate
/// term of each address, which becomes the copy's immediate offset (the
/// swizzle moves bits within a slot only); a variable one is part of the
/// row offset, so that each row's address is one register computed in the
/// loop rather than one kept per row across it.
struct CopySetup {
  CopyCoordinates at;
  Value rowOffset, slotOffset, source, ldBytes, columnValid, kLimit;
};

CopySetup getCopySetup(KernelIRBuilder &kb, RingType ring,
                       CopyLayoutAttr layout, Value slot, Value rhs, Value col,
                       Value cols, Value ld, Value rowBound) {
  CopySetup s;
  s.at = getCopyCoordinates(kb, layout, ring.getRowBytes());
  s.rowOffset = getCopyRowOffset(kb, ring, layout);
  s.slotOffset = getSlotOffset(kb, ring, slot);
  if (!matchPattern(slot, m_Constant())) {
    s.rowOffset = kb.add(s.slotOffset, s.rowOffset);
    s.slotOffset = kb.c32(0);
  }
  int64_t elementBytes = ring.getElementBytes();
  Value column = kb.add(col, kb.mul(s.at.chunk, kb.c32(16 / elementBytes)));
  s.columnValid = kb.ult(column, cols);
  s.kLimit = kb.select(s.columnValid, rowBound, kb.c32(0));
  s.source = kb.elementAddress(rhs, column, elementBytes);
  s.ldBytes = kb.mul(ld, kb.c32(elementBytes));
  return s;
}

/// Where row q of a thread's copy comes from: the address of its 16 bytes
/// and how many of them are read (16, or 0 to zero-fill the slot row).
struct RowSource {
  Value address, bytes;
};

/// Copies each row q < rows per thread from `sourceOf(q)` into row
/// firstRow + q of the slot, and commits the copies as one group.
void emitRowCopies(KernelIRBuilder &kb, RingType ring, CopyLayoutAttr layout,
                   Value shared, const CopySetup &s,
                   function_ref<RowSource(int64_t q)> sourceOf) {
  Value slot = kb.offsetBytes(shared, s.slotOffset);
  for (int64_t q = 0; q < layout.getRowsPerThread(); ++q) {
    RowSource from = sourceOf(q);
    // Row firstRow + q: firstRow is a multiple of the rows per thread, so
    // its swizzle differs from the first row's by q % period.
    Value to = kb.offsetBytes(slot, moveSwizzledRows(kb, ring, s.rowOffset, q));
    NVVM::CpAsyncOp::create(kb.builder(), kb.location(), to, from.address, 16,
                            NVVM::LoadCacheModifierKind::CG, from.bytes);
  }
  NVVM::CpAsyncCommitGroupOp::create(kb.builder(), kb.location());
}

/// Row k of B at the thread's column, read where k is below the chunk's
/// row bound.
RowSource getBoundedRow(KernelIRBuilder &kb, const CopySetup &s, Value k) {
  return {kb.offsetBytes(s.source, kb.mulWide(k, s.ldBytes)),
          kb.select(kb.ult(k, s.kLimit), kb.c32(16), kb.c32(0))};
}

/// The prmt selector that picks, from a group's 8 bytes, the 4 at the
/// offsets of its column-loc word `word` (offset i in byte i, each below 8):
/// offset i in nibble i. `word | word >> 4` has offsets 0, 1 in its byte 0
/// and offsets 2, 3 in its byte 2; one prmt packs those two bytes.
Value getGroupSelector(KernelIRBuilder &kb, Value word) {
  Value pairs = kb.bitOr(word, kb.shru(word, kb.c32(4)));
  return kb.permuteBytes(pairs, pairs, kb.c32(0x20));
}

struct LoadColLocLowering : OpConversionPattern<LoadColLocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LoadColLocOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ColLocType type = op.getResult().getType();
    if (!type.getCopyLayout())
      return lowerSpreadAsFragments(op, adaptor, rewriter);
    KernelIRBuilder kb(rewriter, op.getLoc());
    CopyLayoutAttr layout = type.getCopyLayout();
    EncodingAttr encoding = getVNMEncoding(op.getMatrix());
    int64_t groups = encoding.getNumGroups(op.getMatrix().getDimSize(1));
    // A slot row is 16-byte chunks; the layout covers 4 rows per group.
    int64_t rowBytes = layout.getThreads() * layout.getRowsPerThread() /
                       (4 * type.getGroups()) * 16;
    CopyCoordinates at = getCopyCoordinates(kb, layout, rowBytes);
    Value colidx = adaptor.getColidx().front();
    Value row = adaptor.getRow().front(), pair = adaptor.getPair().front();
    Value blockWord =
        kb.mul(kb.divu(row, kb.c32(encoding.getV())), kb.c32(groups));
    Value firstGroup = kb.add(kb.mul(pair, kb.c32(kGroupsPerPair)),
                              kb.shru(at.firstRow, kb.c32(2)));
    // Groups past the last read the last one's word: their rows' K (from
    // the group index) is past K, so the gather zero-fills them whatever
    // the word holds.
    SmallVector<Value> words;
    for (int64_t j = 0; j < getColLocWords(type); ++j) {
      Value group = kb.minu(kb.add(firstGroup, kb.c32(j)), kb.c32(groups - 1));
      Value word = kb.add(blockWord, group);
      words.push_back(
          kb.loadWordsHere(kb.elementAddress(colidx, word, 4), 1)[0]);
    }
    rewriter.replaceOpWithMultiple(op, {words});
    return success();
  }

  /// Spread as B fragments. 8-bit: lane l reads groups 16 pair + 4 j + l
  /// mod 4 and keeps each as the prmt selector of its kept bytes. 16-bit:
  /// lane l reads groups 16 pair + 2 j + (l mod 4) / 2, j < 8, of which its
  /// B registers take kept columns 2 (l mod 2) and 2 (l mod 2) + 1; word r
  /// holds those two offsets of groups j = 2 r (bytes 0, 1) and 2 r + 1
  /// (bytes 2, 3).
  LogicalResult
  lowerSpreadAsFragments(LoadColLocOp op, OneToNOpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const {
    ColLocType type = op.getResult().getType();
    EncodingAttr encoding = getVNMEncoding(op.getMatrix());
    bool eightBit = type.getMmaLayout().getOperandBits() == 8;
    if (eightBit && encoding.getM() != 8)
      return rewriter.notifyMatchFailure(
          op, "column-locs spread as 8-bit B fragments select from 8-byte "
              "groups (M = 8) only");
    int64_t groups = encoding.getNumGroups(op.getMatrix().getDimSize(1));
    KernelIRBuilder kb(rewriter, op.getLoc());
    ThreadCoordinates at = getThreadCoordinates(kb, type.getMmaLayout());
    Value colidx = adaptor.getColidx().front();
    Value row = adaptor.getRow().front(), pair = adaptor.getPair().front();
    Value blockWord =
        kb.mul(kb.divu(row, kb.c32(encoding.getV())), kb.c32(groups));
    Value pairGroup = kb.mul(pair, kb.c32(kGroupsPerPair));
    // Groups past the last read the last one's word: their columns lie
    // past K, where A holds zeros.
    auto readWord = [&](Value group) {
      group = kb.minu(group, kb.c32(groups - 1));
      return kb.loadWordsHere(
          kb.elementAddress(colidx, kb.add(blockWord, group), 4), 1)[0];
    };
    SmallVector<Value> words;
    if (eightBit) {
      Value firstGroup = kb.add(pairGroup, at.t);
      for (int64_t j = 0; j < getColLocWords(type); ++j)
        words.push_back(
            getGroupSelector(kb, readWord(kb.add(firstGroup, kb.c32(4 * j)))));
    } else {
      Value firstGroup = kb.add(pairGroup, kb.shru(at.t, kb.c32(1)));
      // Bytes 0, 1 (even lanes) or 2, 3 (odd lanes) of each word.
      Value halves = kb.select(kb.eq(kb.bitAnd(at.t, kb.c32(1)), kb.c32(0)),
                               kb.c32(0x5410), kb.c32(0x7632));
      for (int64_t r = 0; r < getColLocWords(type); ++r) {
        Value low = readWord(kb.add(firstGroup, kb.c32(4 * r)));
        Value high = readWord(kb.add(firstGroup, kb.c32(4 * r + 2)));
        words.push_back(kb.permuteBytes(low, high, halves));
      }
    }
    rewriter.replaceOpWithMultiple(op, {words});
    return success();
  }
};

struct GatherLowering : OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RingType ring = op.getRing().getType();
    if (failed(checkLowerableRing(op, ring, rewriter)))
      return failure();
    KernelIRBuilder kb(rewriter, op.getLoc());
    CopyLayoutAttr layout = op.getColloc().getType().getCopyLayout();
    EncodingAttr encoding = getVNMEncoding(op.getMatrix());
    int64_t m = encoding.getM();
    CopySetup s = getCopySetup(
        kb, ring, layout, adaptor.getSlot().front(), adaptor.getRhs().front(),
        adaptor.getCol().front(), adaptor.getCols().front(),
        adaptor.getLd().front(), kb.c32(op.getMatrix().getDimSize(1)));
    ValueRange words = adaptor.getColloc();
    // Row 4j + i of the pair is row (16 pair + j) M + colloc[j][i] of B;
    // the thread's rows start at group firstRow / 4 of the pair.
    Value pairK =
        kb.add(kb.mul(adaptor.getPair().front(), kb.c32(kGroupsPerPair * m)),
               kb.mul(kb.shru(s.at.firstRow, kb.c32(2)), kb.c32(m)));
    int64_t rowsPerThread = layout.getRowsPerThread();
    // Fewer than 4 rows per thread: the thread's bytes sit higher in its
    // group's word.
    Value shift;
    if (rowsPerThread < 4)
      shift = kb.mul(kb.bitAnd(s.at.firstRow, kb.c32(3)), kb.c32(8));
    auto wordOf = [&](int64_t q) {
      Value word = words[q / 4];
      return shift ? kb.shru(word, shift) : word;
    };
    // The column-loc byte of row q, zero-extended by one prmt.
    auto offsetOf = [&](Value word, int64_t q) {
      return kb.permuteBytes(word, kb.c32(0), kb.c32(0x4440 + q % 4));
    };
    int64_t k = op.getMatrix().getDimSize(1);
    if (k % (kGroupsPerPair * m) != 0 || !llvm::isPowerOf2_64(m)) {
      // Pairs run past K: each row is checked against it.
      emitRowCopies(kb, ring, layout, adaptor.getRing().front(), s,
                    [&](int64_t q) {
                      Value row = kb.add(kb.add(pairK, kb.c32(q / 4 * m)),
                                         offsetOf(wordOf(q), q));
                      return getBoundedRow(kb, s, row);
                    });
      rewriter.eraseOp(op);
      return success();
    }
    // Every pair is whole: a group's rows lie below K whatever its word
    // holds once each byte is masked to the group (M is a power of two),
    // so no row needs a bound, only the chunk its column bound. Each group
    // gets its first row's address; a row adds its offset times the pitch.
    Value bytes = kb.select(s.columnValid, kb.c32(16), kb.c32(0));
    SmallVector<Value> groupWords, groupRows;
    for (int64_t j = 0; j * 4 < rowsPerThread; ++j) {
      groupWords.push_back(
          kb.bitAnd(wordOf(4 * j), kb.c32(0x01010101 * (m - 1))));
      Value first = kb.add(pairK, kb.c32(j * m));
      groupRows.push_back(
          kb.offsetBytes(s.source, kb.mulWide(first, s.ldBytes)));
    }
    emitRowCopies(
        kb, ring, layout, adaptor.getRing().front(), s, [&](int64_t q) {
          Value offset = offsetOf(groupWords[q / 4], q);
          return RowSource{
              kb.offsetBytes(groupRows[q / 4], kb.mulWide(offset, s.ldBytes)),
              bytes};
        });
    rewriter.eraseOp(op);
    return success();
  }
};

struct CopyTileLowering : OpConversionPattern<CopyTileOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CopyTileOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RingType ring = op.getRing().getType();
    if (failed(checkLowerableRing(op, ring, rewriter)))
      return failure();
    KernelIRBuilder kb(rewriter, op.getLoc());
    CopySetup s =
        getCopySetup(kb, ring, op.getLayout(), adaptor.getSlot().front(),
                     adaptor.getSrc().front(), adaptor.getCol().front(),
                     adaptor.getCols().front(), adaptor.getLd().front(),
                     adaptor.getRowBound().front());
    Value firstK = kb.add(adaptor.getRow().front(), s.at.firstRow);
    emitRowCopies(kb, ring, op.getLayout(), adaptor.getRing().front(), s,
                  [&](int64_t q) {
                    return getBoundedRow(kb, s, kb.add(firstK, kb.c32(q)));
                  });
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void lowering::populateCopyPatterns(TypeConverter &converter,
                                    RewritePatternSet &patterns) {
  patterns.add<LoadColLocLowering, GatherLowering, CopyTileLowering>(
      converter, patterns.getContext());
}
