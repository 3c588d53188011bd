//===- Types.cpp - vnm_gpu ring and tile types ----------------------------===//
//
// Verifiers cite the constraints of docs/spec.md (section vnm_gpu).
//
//===----------------------------------------------------------------------===//

#include "vnm/Dialect/VNMGPU/IR/VNMGPU.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace vnm::vnm_gpu;

namespace {

/// Parses `<` d0 `x` ... `x` type `,` attribute `>` with `rank` dimensions.
template <typename AttrT>
ParseResult parseShapedBody(AsmParser &parser, unsigned rank,
                            SmallVectorImpl<int64_t> &shape, Type &element,
                            AttrT &attr) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(element) || parser.parseComma() ||
      parser.parseAttribute(attr) || parser.parseGreater())
    return failure();
  if (shape.size() != rank)
    return parser.emitError(loc)
           << "expected " << rank << " dimensions, got " << shape.size();
  return success();
}

void printShapedBody(AsmPrinter &printer, ArrayRef<int64_t> shape, Type element,
                     Attribute attr) {
  printer << "<";
  for (int64_t dim : shape)
    printer << dim << "x";
  printer << element << ", " << attr << ">";
}

bool isFloatOperand(Type type) { return type.isF16() || type.isBF16(); }

/// Checks a tile type against its layout: a non-empty shape (C1), the
/// element type of the layout's MMA (C2), whole warp and instruction tiles
/// (C3).
LogicalResult verifyTileShape(function_ref<InFlightDiagnostic()> emitError,
                              StringRef name, int64_t rows, int64_t cols,
                              Type element, MmaLayoutAttr layout,
                              bool isAccumulator, int64_t rowUnit,
                              int64_t colUnit, bool exactRows) {
  if (rows <= 0 || cols <= 0)
    return emitError() << name << " (C1): the tile must be non-empty, got "
                       << rows << "x" << cols;
  // One wgmma.sp covers a warpgroup's 64 rows by all the tile's columns:
  // each warp holds exactly one 16-row tile, and N is at most 256.
  // The integer wgmma takes fewer N: 8, 16, 24 and multiples of 16 up to
  // 256 (the PTX ISA's list for .s8).
  if (layout.isWarpgroupMma()) {
    exactRows = true;
    bool integer = layout.getOperandBits() == 8;
    if (cols > 256 || (integer && cols > 24 && cols % 16 != 0))
      return emitError() << name << " (C4): "
                         << stringifyMmaGeometry(layout.getGeometry())
                         << " tiles have at most 256 columns (N of one "
                            "wgmma)"
                         << (integer ? ", above 24 a multiple of 16" : "")
                         << ", got " << cols;
  }
  bool eightBit = layout.getOperandBits() == 8;
  bool elementFits =
      isAccumulator
          ? (eightBit ? element.isSignlessInteger(32) : element.isF32())
          : (eightBit ? element.isSignlessInteger(8) : isFloatOperand(element));
  if (!elementFits)
    return emitError() << name << " (C2): "
                       << stringifyMmaGeometry(layout.getGeometry())
                       << " needs "
                       << (isAccumulator ? (eightBit ? "i32" : "f32")
                                         : (eightBit ? "i8" : "f16 or bf16"))
                       << " elements here, got " << element;
  bool rowsFit = exactRows ? rows == rowUnit : rows % rowUnit == 0;
  if (!rowsFit || cols % colUnit != 0)
    return emitError() << name << " (C3): a " << rows << "x" << cols
                       << " tile does not split into the layout's warp and "
                          "instruction tiles (rows "
                       << (exactRows ? "equal to " : "a multiple of ")
                       << rowUnit << ", columns a multiple of " << colUnit
                       << ")";
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// RingType
//===----------------------------------------------------------------------===//

Type RingType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type element;
  SwizzleAttr swizzle;
  if (parseShapedBody(parser, 3, shape, element, swizzle))
    return {};
  return parser.getChecked<RingType>(parser.getContext(), shape[0], shape[1],
                                     shape[2], element, swizzle);
}

void RingType::print(AsmPrinter &printer) const {
  printShapedBody(printer, {getStages(), getRows(), getCols()},
                  getElementType(), getSwizzle());
}

int64_t RingType::getElementBytes() const {
  return getElementType().getIntOrFloatBitWidth() / 8;
}

int64_t RingType::getCanonicalSwizzleBytes() const {
  SwizzleAttr swizzle = getSwizzle();
  if (swizzle.getChunkBytes() != 16)
    return 0;
  // Swizzle<3, 4, 3>: chunk bits 4..6 XOR-ed with address bits 7..9, the
  // row of a 128-byte block.
  if (swizzle.getPeriod() == 8 && swizzle.getRowsPerPhase() == 1 &&
      getRowBytes() == 128 * swizzle.getColumnBlocks())
    return 128;
  // Swizzle<2, 4, 3>: chunk bits 4..5 XOR-ed with address bits 7..8, the
  // pair of 64-byte rows.
  if (swizzle.getPeriod() == 4 && swizzle.getRowsPerPhase() == 2 &&
      swizzle.getColumnBlocks() == 1 && getRowBytes() == 64)
    return 64;
  return 0;
}

LogicalResult RingType::verify(function_ref<InFlightDiagnostic()> emitError,
                               int64_t stages, int64_t rows, int64_t cols,
                               Type element, SwizzleAttr swizzle) {
  if (stages < 1 || stages > 8)
    return emitError() << "!vnm_gpu.ring (C1): stages must be in [1, 8], got "
                       << stages;
  if (rows <= 0 || cols <= 0)
    return emitError() << "!vnm_gpu.ring (C2): a slot must be non-empty, got "
                       << rows << "x" << cols;
  if (!isFloatOperand(element) && !element.isSignlessInteger(8))
    return emitError() << "!vnm_gpu.ring (C3): element type must be f16, bf16 "
                          "or i8, got "
                       << element;
  std::optional<int64_t> rowBytes =
      llvm::checkedMul(cols, int64_t(element.getIntOrFloatBitWidth() / 8));
  if (!rowBytes)
    return emitError() << "!vnm_gpu.ring (C4): a row of " << cols
                       << " elements does not fit int64_t bytes";
  int64_t swizzleSpan = swizzle.getChunkBytes() * swizzle.getPeriod();
  int64_t blocks = swizzle.getColumnBlocks();
  if (*rowBytes % 16 != 0 || *rowBytes % (swizzleSpan * blocks) != 0) {
    InFlightDiagnostic diag = emitError()
                              << "!vnm_gpu.ring (C4): a row of " << *rowBytes
                              << " bytes must hold whole 16-byte chunks and ";
    if (blocks > 1)
      diag << "in each of its " << blocks << " column blocks ";
    return diag << "whole swizzle spans of " << swizzleSpan << " bytes";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ColLocType
//===----------------------------------------------------------------------===//

LogicalResult ColLocType::verify(function_ref<InFlightDiagnostic()> emitError,
                                 int64_t groups, Attribute layout) {
  if (groups <= 0)
    return emitError() << "!vnm_gpu.colloc (C1): groups must be positive, got "
                       << groups;
  if (isa<CopyLayoutAttr>(layout))
    return success();
  auto mma = dyn_cast<MmaLayoutAttr>(layout);
  if (!mma)
    return emitError() << "!vnm_gpu.colloc (C2): the layout is a "
                          "#vnm_gpu.copy or a #vnm_gpu.mma, got "
                       << layout;
  // The lanes' B registers of one k-tile pair: 8-bit (m16n8k64, one step)
  // register j of lane l reads group 4 j + l mod 4; 16-bit (m16n8k32, two
  // steps) register j of step s reads group 8 s + 2 j + (l mod 4) / 2.
  if (mma.getGeometry() != MmaGeometry::mma_sp_m16n8k64 &&
      mma.getGeometry() != MmaGeometry::mma_sp_m16n8k32)
    return emitError() << "!vnm_gpu.colloc (C3): a column-loc spread as B "
                          "fragments needs an mma.sp layout (mma_sp_m16n8k32 "
                          "or mma_sp_m16n8k64), got "
                       << stringifyMmaGeometry(mma.getGeometry());
  if (groups != kGroupsPerPair)
    return emitError() << "!vnm_gpu.colloc (C3): a column-loc spread as B "
                          "fragments covers one k-tile pair ("
                       << kGroupsPerPair << " groups), got " << groups;
  return success();
}

int64_t ColLocType::getThreads() const {
  if (CopyLayoutAttr copy = getCopyLayout())
    return copy.getThreads();
  return getMmaLayout().getThreads();
}

//===----------------------------------------------------------------------===//
// Tile types
//===----------------------------------------------------------------------===//

namespace {
template <typename TileType> Type parseTile(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type element;
  MmaLayoutAttr layout;
  if (parseShapedBody(parser, 2, shape, element, layout))
    return {};
  return parser.getChecked<TileType>(parser.getContext(), shape[0], shape[1],
                                     element, layout);
}

template <typename TileType>
void printTile(AsmPrinter &printer, TileType type) {
  printShapedBody(printer, {type.getRows(), type.getCols()},
                  type.getElementType(), type.getLayout());
}
} // namespace

Type SparseAType::parse(AsmParser &parser) {
  return parseTile<SparseAType>(parser);
}
void SparseAType::print(AsmPrinter &printer) const {
  printTile(printer, *this);
}
Type BFragType::parse(AsmParser &parser) {
  return parseTile<BFragType>(parser);
}
void BFragType::print(AsmPrinter &printer) const { printTile(printer, *this); }
Type AccType::parse(AsmParser &parser) { return parseTile<AccType>(parser); }
void AccType::print(AsmPrinter &printer) const { printTile(printer, *this); }

LogicalResult SparseAType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  int64_t rows, int64_t cols, Type element,
                                  MmaLayoutAttr layout) {
  return verifyTileShape(emitError, "!vnm_gpu.sparse_a", rows, cols, element,
                         layout, /*isAccumulator=*/false,
                         layout.getWarpsM() * layout.getInstrM(),
                         layout.getInstrK(), /*exactRows=*/false);
}

LogicalResult BFragType::verify(function_ref<InFlightDiagnostic()> emitError,
                                int64_t rows, int64_t cols, Type element,
                                MmaLayoutAttr layout) {
  if (layout.isWarpgroupMma())
    return emitError() << "!vnm_gpu.b_frag (C4): "
                       << stringifyMmaGeometry(layout.getGeometry())
                       << " reads B "
                          "from shared memory (vnm_gpu.wgmma_sp), not from "
                          "B fragments";
  return verifyTileShape(emitError, "!vnm_gpu.b_frag", rows, cols, element,
                         layout, /*isAccumulator=*/false, layout.getInstrK(),
                         layout.getWarpsN() * layout.getInstrN(),
                         /*exactRows=*/true);
}

LogicalResult AccType::verify(function_ref<InFlightDiagnostic()> emitError,
                              int64_t rows, int64_t cols, Type element,
                              MmaLayoutAttr layout) {
  return verifyTileShape(emitError, "!vnm_gpu.acc", rows, cols, element, layout,
                         /*isAccumulator=*/true,
                         layout.getWarpsM() * layout.getInstrM(),
                         layout.getWarpsN() * layout.getInstrN(),
                         /*exactRows=*/false);
}

LogicalResult ARingType::verify(function_ref<InFlightDiagnostic()> emitError,
                                int64_t stages, SparseAType tile,
                                int64_t valueBits) {
  if (stages < 1 || stages > 8)
    return emitError() << "!vnm_gpu.a_ring (C1): stages must be in [1, 8], "
                          "got "
                       << stages;
  // Every sparse MMA's A registers are the same per warp and 16-row tile
  // (docs/hopper.md section 1), so one slot layout serves all of them.
  if (tile.getCols() != 64)
    return emitError() << "!vnm_gpu.a_ring (C2): a slot holds one k-tile pair "
                          "(64 columns) of a sparse A tile, got "
                       << tile;
  // Packed nibbles (an i4 weight) widen to the s8 MMA's bytes only.
  if (valueBits != 0 &&
      !(valueBits == 4 && tile.getElementType().isSignlessInteger(8)))
    return emitError() << "!vnm_gpu.a_ring (C3): value_bits = 4 stages the "
                          "packed nibbles of an i4 weight for an i8 tile; got "
                          "value_bits = "
                       << valueBits << " for " << tile.getElementType();
  return success();
}
