//===- Ops.cpp - vnm_gpu op verifiers -------------------------------------===//
//
// Verifiers cite the constraints of docs/spec.md (section vnm_gpu): K1-K2
// hold for every op, the others per op.
//
//===----------------------------------------------------------------------===//

#include "vnm/Dialect/VNMGPU/IR/VNMGPU.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace vnm;
using namespace vnm::vnm_gpu;

#define GET_OP_CLASSES
#include "vnm/Dialect/VNMGPU/IR/VNMGPUOps.cpp.inc"

namespace {

/// The vnm_gpu.produce_consume of `func`'s body, if any.
ProduceConsumeOp getProduceConsume(mlir::gpu::GPUFuncOp func) {
  for (Operation &op : func.getBody().front())
    if (auto split = dyn_cast<ProduceConsumeOp>(op))
      return split;
  return {};
}

/// K1: tile ops sit in a gpu.func. K2: a layout spread over `threads`
/// threads agrees with the kernel's known block size, when it has one: all
/// of the block, or, in a kernel split by a vnm_gpu.produce_consume, its
/// producers (in the produce region) or its consumers (elsewhere).
LogicalResult verifyInKernel(Operation *op, std::optional<int64_t> threads) {
  auto func = op->getParentOfType<mlir::gpu::GPUFuncOp>();
  if (!func)
    return op->emitOpError("(K1): a tile op must sit in a gpu.func");
  if (!threads)
    return success();
  std::optional<ArrayRef<int32_t>> known = func.getKnownBlockSize();
  if (!known || known->size() != 3)
    return success();
  ArrayRef<int32_t> size = *known;
  int64_t expected = size[0];
  StringRef role = "";
  if (ProduceConsumeOp split = getProduceConsume(func)) {
    int64_t producers = split.getProducers();
    bool producing = split.getProduce().isAncestor(op->getParentRegion());
    expected = producing ? producers : size[0] - producers;
    role = producing ? " (its producers)" : " (its consumers)";
  }
  if (expected != *threads || size[1] != 1 || size[2] != 1)
    return op->emitOpError("(K2): its layout spreads over ")
           << *threads << " threads, but the kernel's block is [" << size[0]
           << ", " << size[1] << ", " << size[2] << "]" << role;
  return success();
}

/// The checks of the ops that read a k-tile pair's sparse A fragments
/// (load_sparse_a, stage_sparse_a): C1 `matrix`, C2 element types, C3 one
/// V block, C4 64 columns.
LogicalResult verifySparseARead(Operation *op, RankedTensorType tensor,
                                Value values, Value meta, SparseAType result);

/// The `matrix` attribute of the sparse ops: a static R x K tensor type
/// with a #vnm.encoding.
FailureOr<std::pair<RankedTensorType, EncodingAttr>>
getEncodedMatrix(Operation *op, RankedTensorType tensor) {
  EncodingAttr encoding = getVNMEncoding(tensor);
  if (!encoding || !tensor.hasStaticShape())
    return op->emitOpError("(C1): `matrix` must be a static tensor type with a "
                           "#vnm.encoding, got ")
           << tensor;
  return std::make_pair(tensor, encoding);
}

/// The `matrix` of the gathering ops: C1, and C2 (M > 4: with M = 4 every
/// group keeps its four columns, and B is copied as a dense tile).
FailureOr<std::pair<RankedTensorType, EncodingAttr>>
getGatheredMatrix(Operation *op, RankedTensorType tensor) {
  auto matrix = getEncodedMatrix(op, tensor);
  if (succeeded(matrix) && matrix->second.getM() == 4)
    return op->emitOpError("(C2): a 4-column group keeps all its columns; "
                           "M = 4 kernels copy B with vnm_gpu.copy_tile");
  return matrix;
}

LogicalResult verifyElementType(Operation *op, StringRef constraint,
                                StringRef what, Type actual, Type expected) {
  if (actual == expected)
    return success();
  return op->emitOpError("(") << constraint << "): " << what << " has element "
                              << "type " << actual << ", expected " << expected;
}

Type elementOf(Value buffer) {
  return cast<MemRefType>(buffer.getType()).getElementType();
}

/// The threads of `layout` copy a slot of `ring` exactly: one 16-byte chunk
/// of rows_per_thread rows each.
LogicalResult verifyCopyCoversSlot(Operation *op, StringRef constraint,
                                   CopyLayoutAttr layout, RingType ring) {
  int64_t chunks = ring.getRows() * (ring.getRowBytes() / 16);
  if (layout.getThreads() * layout.getRowsPerThread() == chunks &&
      ring.getRows() % layout.getRowsPerThread() == 0)
    return success();
  return op->emitOpError("(")
         << constraint << "): " << layout.getThreads() << " threads of "
         << layout.getRowsPerThread() << " rows do not copy the "
         << ring.getRows() << "x" << ring.getCols() << " slot's " << chunks
         << " chunks of 16 bytes one each";
}

} // namespace

LogicalResult AllocRingOp::verify() {
  int64_t alignment = getAlignment();
  if (alignment < 16 || alignment > 1024 || !llvm::isPowerOf2_64(alignment))
    return emitOpError("(C1): alignment must be a power of two in [16, 1024] "
                       "bytes, got ")
           << alignment;
  if (failed(verifyInKernel(*this, std::nullopt)))
    return failure();
  // C2: the block's dynamic shared memory holds one ring; static rings
  // share the 48 KiB a kernel may declare. Counted up to this ring, so
  // that the ring that breaks the rule is the one reported.
  auto func = (*this)->getParentOfType<mlir::gpu::GPUFuncOp>();
  int64_t dynamicRings = 0, staticBytes = 0;
  func.walk([&](AllocRingOp ring) {
    if (ring.isDynamic())
      ++dynamicRings;
    else
      staticBytes += ring.getReservedBytes();
    return ring == *this ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (dynamicRings > 1 || staticBytes > kMaxStaticSharedBytes)
    return emitOpError("(C2): a kernel holds at most one ring in dynamic "
                       "shared memory (above ")
           << kMaxStaticSharedBytes / 1024
           << " KiB) and static rings of at most that much together";
  return success();
}

bool AllocRingOp::isDynamic() {
  if (getRingBytes(getRing().getType()) > kMaxStaticSharedBytes)
    return true;
  // When the kernel's rings do not fit the static limit together, its
  // first ring (the B ring) moves to dynamic shared memory.
  auto func = (*this)->getParentOfType<mlir::gpu::GPUFuncOp>();
  if (!func)
    return false;
  int64_t total = 0;
  AllocRingOp first;
  func.walk([&](AllocRingOp ring) {
    total += getRingBytes(ring.getRing().getType());
    if (!first)
      first = ring;
  });
  return total > kMaxStaticSharedBytes && first == *this;
}

int64_t AllocRingOp::getReservedBytes() {
  int64_t bytes = getRingBytes(getRing().getType());
  return isDynamic() && getAlignment() > 128 ? bytes + getAlignment() : bytes;
}

LogicalResult LoadColLocOp::verify() {
  if (failed(getGatheredMatrix(*this, getMatrix())))
    return failure();
  if (!elementOf(getColidx()).isSignlessInteger(32))
    return emitOpError("(C3): `colidx` is read as i32 words, got ")
           << getColidx().getType();
  return verifyInKernel(*this, getResult().getType().getThreads());
}

LogicalResult GatherOp::verify() {
  auto matrix = getGatheredMatrix(*this, getMatrix());
  if (failed(matrix))
    return failure();
  RingType ring = getRing().getType();
  // B's element type: the matrix's, or f16/bf16 under an integer matrix
  // that the kernel dequantizes (W8A16, W4A16).
  Type element = matrix->first.getElementType();
  if (element.isInteger() &&
      (ring.getElementType().isF16() || ring.getElementType().isBF16()))
    element = ring.getElementType();
  if (failed(verifyElementType(*this, "C3", "`rhs`", elementOf(getRhs()),
                               element)) ||
      failed(verifyElementType(*this, "C3", "the ring", ring.getElementType(),
                               element)))
    return failure();
  ColLocType colloc = getColloc().getType();
  if (ring.getRows() != 4 * colloc.getGroups())
    return emitOpError("(C4): a slot of ")
           << ring.getRows() << " rows must hold the 4 gathered rows of each "
           << "of the column-loc's " << colloc.getGroups() << " groups";
  CopyLayoutAttr layout = colloc.getCopyLayout();
  if (!layout)
    return emitOpError("(C6): the column-loc must be spread as the copy "
                       "(a #vnm_gpu.copy layout), got ")
           << colloc.getLayout();
  if (failed(verifyCopyCoversSlot(*this, "C5", layout, ring)))
    return failure();
  return verifyInKernel(*this, layout.getThreads());
}

LogicalResult CopyTileOp::verify() {
  RingType ring = getRing().getType();
  if (failed(verifyElementType(*this, "C1", "`src`", elementOf(getSrc()),
                               ring.getElementType())))
    return failure();
  if (failed(verifyCopyCoversSlot(*this, "C2", getLayout(), ring)))
    return failure();
  return verifyInKernel(*this, getLayout().getThreads());
}

namespace {
/// Whether `value` is known to the host that launches the kernel `func`:
/// a constant or one of the kernel's scalar parameters.
bool isHostKnown(Value value, mlir::gpu::GPUFuncOp func) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return arg.getOwner() == &func.getBody().front();
  return matchPattern(value, m_Constant());
}
} // namespace

std::optional<format::FragmentGeometry>
vnm::vnm_gpu::getFragmentGeometry(RankedTensorType matrix,
                                  MmaLayoutAttr layout) {
  Type element = matrix.getElementType();
  format::ElementType type;
  if (element.isF16())
    type = format::ElementType::F16;
  else if (element.isBF16())
    type = format::ElementType::BF16;
  else if (element.isSignlessInteger(8))
    type = format::ElementType::I8;
  else if (element.isSignlessInteger(4))
    type = format::ElementType::I4;
  else
    return std::nullopt;
  EncodingAttr encoding = getVNMEncoding(matrix);
  format::StorageShape shape;
  format::FragmentClass fragmentClass = layout.getOperandBits() == 8
                                            ? format::FragmentClass::EightBit
                                            : format::FragmentClass::SixteenBit;
  if (!format::getStorageShape(
           {encoding.getV(), encoding.getN(), encoding.getM()}, type,
           fragmentClass, matrix.getDimSize(0), matrix.getDimSize(1), shape)
           .ok())
    return std::nullopt;
  return format::getFragmentGeometry(type, shape);
}

std::optional<StagedATensorMaps>
vnm::vnm_gpu::getStagedATensorMaps(StageSparseAOp op) {
  ARingType ring = op.getRing().getType();
  std::optional<format::FragmentGeometry> geometry =
      getFragmentGeometry(op.getMatrix(), ring.getTile().getLayout());
  if (!geometry)
    return std::nullopt;
  constexpr int64_t kWordBytes = 4;
  int64_t valueBits = op.getMatrix().getElementType().getIntOrFloatBitWidth();
  StagedATensorMaps maps;
  maps.rowTiles = geometry->rowTiles;
  maps.boxRowTiles = ring.getRowTiles();
  maps.valueWords =
      geometry->kTiles * geometry->valuesPerTile() * valueBits / 8 / kWordBytes;
  maps.valueBoxWords = ring.getValueBytesPerRowTile() / kWordBytes;
  maps.metaWords = geometry->metaUnitsPerRowTile() * format::kWarpLanes;
  maps.metaBoxWords = ARingType::kMetaBytesPerRowTile / kWordBytes;
  return maps;
}

bool vnm::vnm_gpu::isTensorMapParameter(BlockArgument arg) {
  return llvm::any_of(arg.getUses(), [](OpOperand &use) {
    if (auto copy = dyn_cast<TmaCopyTileOp>(use.getOwner()))
      return use.getOperandNumber() == copy.getSrcMutable().getOperandNumber();
    // The producer thread's staging of A reads the fragment arrays as 2-D
    // tensors (row tiles x K) through the TMA: one box per pair for all of
    // the slot's row tiles.
    if (auto stage = dyn_cast<StageSparseAOp>(use.getOwner()))
      return !stage.getLayout() &&
             (use.getOperandNumber() ==
                  stage.getValuesMutable().getOperandNumber() ||
              use.getOperandNumber() ==
                  stage.getMetaMutable().getOperandNumber());
    return false;
  });
}

LogicalResult TmaCopyTileOp::verify() {
  RingType ring = getRing().getType();
  if (failed(verifyElementType(*this, "C1", "`src`", elementOf(getSrc()),
                               ring.getElementType())))
    return failure();
  auto alloc = getRing().getDefiningOp<AllocRingOp>();
  if (ring.getCanonicalSwizzleBytes() == 0 ||
      (alloc && alloc.getAlignment() < 1024))
    return emitOpError("(C2): the ring must hold 128-byte column blocks in "
                       "the TMA's 128-byte swizzle (#vnm_gpu.swizzle<chunk = "
                       "16, period = 8, column_blocks = row bytes / 128>) or "
                       "64-byte rows in its 64-byte swizzle "
                       "(#vnm_gpu.swizzle<chunk = 16, period = 4, rows = 2>), "
                       "aligned to 1024 bytes");
  // One box per column block: a box has at most 256 rows.
  if (ring.getRows() > 256)
    return emitOpError("(C2): a TMA box has at most 256 rows, the ring has ")
           << ring.getRows();
  if (failed(verifyInKernel(*this, std::nullopt)))
    return failure();
  auto func = (*this)->getParentOfType<mlir::gpu::GPUFuncOp>();
  auto param = dyn_cast<BlockArgument>(getSrc());
  if (!param || param.getOwner() != &func.getBody().front())
    return emitOpError("(C3): `src` must be a parameter of the kernel (the "
                       "host passes it as a tensor map)");
  for (Operation *user : param.getUsers()) {
    auto copy = dyn_cast<TmaCopyTileOp>(user);
    if (!copy || copy.getSrc() != param)
      return emitOpError("(C3): the kernel parameter `src` is passed as a "
                         "tensor map: it may only be read by "
                         "vnm_gpu.tma_copy_tile, not by ")
             << user->getName();
    if (copy.getRowBound() != getRowBound() || copy.getCols() != getCols() ||
        copy.getLd() != getLd())
      return emitOpError("(C4): the copies of one tensor map must use the "
                         "same bounds and pitch");
  }
  for (Value known : {getRowBound(), getCols(), getLd()})
    if (!isHostKnown(known, func))
      return emitOpError("(C4): bounds and pitch are encoded in the tensor "
                         "map by the host: each must be a constant or a "
                         "scalar parameter of the kernel");
  auto split = (*this)->getParentOfType<ProduceConsumeOp>();
  if (!split || !split.getProduce().isAncestor((*this)->getParentRegion()))
    return emitOpError("(C5): only the produce region of a "
                       "vnm_gpu.produce_consume copies with the TMA (the "
                       "copy lands on the slot's barrier)");
  return success();
}

LogicalResult WaitOp::verify() {
  // A wait counts the block's copies into every ring: B's, and an A ring's
  // where the block's threads stage A, each as many as the ring's slots.
  int64_t rings = 1;
  if (auto func = (*this)->getParentOfType<mlir::gpu::GPUFuncOp>())
    func.walk([&](StageSparseAOp stage) {
      if (stage.getLayout())
        rings = 2;
    });
  int64_t stages = getRing().getType().getStages();
  int64_t pending = getPendingAttr().getInt();
  if (pending < 0 || pending >= rings * stages)
    return emitOpError("(C1): pending must be in [0, ")
           << rings * stages - 1 << "] for " << rings << " ring(s) of "
           << stages << " stages, got " << pending;
  return verifyInKernel(*this, std::nullopt);
}

LogicalResult LoadSparseAOp::verify() {
  SparseAType result = getResult().getType();
  if (failed(verifySparseARead(*this, getMatrix(), getValues(), getMeta(),
                               result)))
    return failure();
  return verifyInKernel(*this, result.getLayout().getThreads());
}

namespace {
LogicalResult verifySparseARead(Operation *op, RankedTensorType tensor,
                                Value values, Value meta, SparseAType result) {
  auto matrix = getEncodedMatrix(op, tensor);
  if (failed(matrix))
    return failure();
  Type element = matrix->first.getElementType();
  // An i4 matrix's fragment bytes hold two values each; the registers hold
  // them widened to i8 (W4A8). Under a 16-bit MMA an i8 or i4 matrix's
  // bytes are dequantized to its f16/bf16 operands (W8A16, W4A16).
  Type stored = element, widened = element;
  bool integerMatrix =
      element.isSignlessInteger(8) || element.isSignlessInteger(4);
  if (integerMatrix)
    stored = widened = IntegerType::get(op->getContext(), 8);
  if (integerMatrix && result.getLayout().getOperandBits() == 16) {
    widened = result.getElementType();
    if (!widened.isF16() && !widened.isBF16())
      return op->emitOpError("(C2): an integer matrix dequantized for ")
             << stringifyMmaGeometry(result.getLayout().getGeometry())
             << " gives f16 or bf16 operands, got " << widened;
  }
  if (failed(
          verifyElementType(op, "C2", "`values`", elementOf(values), stored)) ||
      failed(verifyElementType(op, "C2", "the result", result.getElementType(),
                               widened)))
    return failure();
  if (!elementOf(meta).isSignlessInteger(32))
    return op->emitOpError("(C2): `meta` holds i32 metadata words, got ")
           << meta.getType();
  EncodingAttr encoding = matrix->second;
  if (encoding.getM() != 4 && encoding.getV() % result.getRows() != 0)
    return op->emitOpError("(C3): the tile's ")
           << result.getRows()
           << " rows must lie in one V block (v = " << encoding.getV()
           << ") to share one column-loc, unless m = 4";
  if (result.getCols() != 64)
    return op->emitOpError("(C4): a value covers the 64 columns of K that one "
                           "metadata word per lane describes, got ")
           << result.getCols();
  return success();
}
} // namespace

LogicalResult LoadBOp::verify() {
  RingType ring = getRing().getType();
  BFragType result = getResult().getType();
  // ldmatrix addresses whole rows; column blocks are wgmma's layout.
  if (ring.getSwizzle().getColumnBlocks() != 1)
    return emitOpError("(C6): the ring's rows must be stored whole "
                       "(column_blocks = 1), got ")
           << ring.getSwizzle().getColumnBlocks() << " column blocks";
  if (failed(verifyElementType(*this, "C1", "the result",
                               result.getElementType(), ring.getElementType())))
    return failure();
  // The slot's extent along B's columns (N) and along its rows (K).
  bool transposed = getKContiguous();
  int64_t slotN = transposed ? ring.getRows() : ring.getCols();
  int64_t slotK = transposed ? ring.getCols() : ring.getRows();
  if (result.getCols() != slotN)
    return emitOpError("(C1): the result's ")
           << result.getCols() << " columns must be the slot's " << slotN
           << (transposed ? " rows (k_contiguous)" : " columns");
  int64_t offset = getOffsetAttr().getInt();
  if (offset < 0 || offset % result.getRows() != 0 ||
      offset + result.getRows() > slotK)
    return emitOpError("(C2): offset ")
           << offset << " must be a multiple of " << result.getRows()
           << " with the rows of B it reads inside the slot's " << slotK
           << (transposed ? " columns" : " rows");
  if (result.getLayout().getOperandBits() == 8 && !transposed)
    return emitOpError("(C3): 8-bit B fragments are read from a "
                       "k_contiguous slot (sm_80 and sm_90 have no "
                       "byte-transposing ldmatrix)");
  if (Value colloc = getColloc()) {
    auto type = cast<ColLocType>(colloc.getType());
    int64_t groups = type.getGroups();
    if (!transposed || type.getMmaLayout() != result.getLayout())
      return emitOpError("(C4): `via` gathers from a k_contiguous slot "
                         "through a column-loc spread as the result's "
                         "fragments (")
             << result.getLayout() << ")";
    if (ring.getCols() % groups != 0 || ring.getCols() / groups <= 4)
      return emitOpError("(C5): a slot row of ")
             << ring.getCols() << " columns must hold the column-loc's "
             << groups << " groups whole, M > 4 columns each";
    if (offset + result.getRows() > 4 * groups)
      return emitOpError("(C5): rows ")
             << offset << " .. " << offset + result.getRows() - 1
             << " of B lie past the column-loc's " << groups << " groups";
  }
  return verifyInKernel(*this, result.getLayout().getThreads());
}

LogicalResult MmaSpOp::verify() {
  SparseAType a = getA().getType();
  BFragType b = getB().getType();
  AccType acc = getAcc().getType();
  if (a.getLayout() != acc.getLayout() || b.getLayout() != acc.getLayout())
    return emitOpError("(C1): operands and accumulator must share one layout");
  if (a.getRows() != acc.getRows() || b.getCols() != acc.getCols() ||
      a.getElementType() != b.getElementType())
    return emitOpError("(C2): a ")
           << a.getRows() << "-row A and a " << b.getCols()
           << "-column B of one element type make the accumulator tile, got "
           << acc.getRows() << "x" << acc.getCols();
  int64_t steps = a.getCols() / acc.getLayout().getInstrK();
  int64_t step = getStepAttr().getInt();
  if (step < 0 || step >= steps)
    return emitOpError("(C3): step must be in [0, ")
           << steps - 1 << "], got " << step;
  return verifyInKernel(*this, acc.getLayout().getThreads());
}

LogicalResult WgmmaSpOp::verify() {
  SparseAType a = getA().getType();
  AccType acc = getAcc().getType();
  RingType ring = getRing().getType();
  MmaLayoutAttr layout = acc.getLayout();
  if (a.getLayout() != layout || !layout.isWarpgroupMma())
    return emitOpError("(C1): A and the accumulator must share one "
                       "wgmma_sp_m64nNk32 or wgmma_sp_m64nNk64 layout");
  // The slot holds B (K x N) or, with k_contiguous, its transpose.
  bool kContiguous = getKContiguous();
  int64_t slotN = kContiguous ? ring.getRows() : ring.getCols();
  int64_t slotK = kContiguous ? ring.getCols() : ring.getRows();
  StringRef nDim = kContiguous ? "rows" : "columns";
  StringRef kDim = kContiguous ? "columns" : "rows";
  if (a.getRows() != acc.getRows() || slotN != acc.getCols() ||
      ring.getElementType() != a.getElementType())
    return emitOpError("(C2): a ")
           << a.getRows() << "-row A and a ring of " << slotN << " " << nDim
           << " of A's element type make the accumulator tile, got "
           << acc.getRows() << "x" << acc.getCols() << " from a ring of "
           << ring.getElementType();
  int64_t steps = a.getCols() / layout.getInstrK();
  int64_t step = getStepAttr().getInt();
  if (step < 0 || step >= steps)
    return emitOpError("(C3): step must be in [0, ")
           << steps - 1 << "], got " << step;
  // A K-major step starts at a whole step of K inside an atom row (the
  // start addresses docs/hopper.md records as checked).
  int64_t offset = getOffsetAttr().getInt();
  int64_t multiple = kContiguous ? layout.getInstrK() : 8;
  if (offset < 0 || offset % multiple != 0 ||
      offset + layout.getInstrK() > slotK)
    return emitOpError("(C4): offset must be a multiple of ")
           << multiple << " with " << layout.getInstrK() << " " << kDim
           << " of the slot's " << slotK << " from it, got " << offset;
  if (ring.getCanonicalSwizzleBytes() == 0 || ring.getRows() % 8 != 0)
    return emitOpError("(C5): the ring must have a canonical swizzled "
                       "layout: 128-byte column blocks (16-byte chunks, "
                       "period 8) or 64-byte rows (16-byte chunks, period 4 "
                       "over pairs of rows), rows a multiple of 8");
  // 8-bit wgmma reads both operands K-major (docs/hopper.md).
  if (layout.getOperandBits() == 8 && !kContiguous)
    return emitOpError("(C8): wgmma_sp_m64nNk64 reads B K-major: the slot "
                       "must hold it transposed (k_contiguous)");
  std::optional<int64_t> pending = getPending();
  if (pending && *pending != 0 && *pending != 1)
    return emitOpError("(C6): pending must be 0 or 1, got ") << *pending;
  // A result still being written (pending = 1, or no pending: the MMA's
  // group is not even closed) may only accumulate further.
  auto feedsOneMma = [&] {
    if (!getResult().hasOneUse())
      return false;
    OpOperand &use = *getResult().getUses().begin();
    // Closed groups may run on into the next pair of a produce_consume
    // (C7 there: only MMAs accumulate into it).
    if (pending && isa<YieldOp>(use.getOwner()) &&
        isa<ProduceConsumeOp>(use.getOwner()->getParentOp()))
      return true;
    auto next = dyn_cast<WgmmaSpOp>(use.getOwner());
    return next &&
           use.getOperandNumber() == next.getAccMutable().getOperandNumber();
  };
  if (pending.value_or(1) == 1 && !feedsOneMma())
    return emitOpError("(C6): a result still running (")
           << (pending ? "pending = 1" : "no pending: its group is open")
           << ") may only be the accumulator of one vnm_gpu.wgmma_sp";
  if (!pending) {
    auto next = cast<WgmmaSpOp>(*getResult().getUses().begin()->getOwner());
    if (next->getBlock() != (*this)->getBlock())
      return emitOpError("(C6): the wgmma_sp that closes this MMA's group "
                         "must follow it in its block");
  }
  auto alloc = getRing().getDefiningOp<AllocRingOp>();
  if (!alloc || alloc.getAlignment() < 1024)
    return emitOpError("(C7): the ring must come from a vnm_gpu.alloc_ring "
                       "aligned to 1024 bytes (where the swizzle's 8-row "
                       "atoms start)");
  return verifyInKernel(*this, layout.getThreads());
}

LogicalResult EpilogueOp::verify() {
  AccType acc = getAcc().getType();
  Type out = elementOf(getOut());
  bool integerAcc = acc.getElementType().isSignlessInteger(32);
  bool plain = !getBias() && !getRowScales() && !getColScales() &&
               getActivation() == Activation::none;
  if (!(out.isF16() || out.isBF16() || out.isF32()) &&
      !(out.isSignlessInteger(32) && integerAcc && plain))
    return emitOpError("(C1): results are f16, bf16 or f32 (or i32 from i32 "
                       "accumulators with no scales, bias or activation), "
                       "got ")
           << out;
  if (getBias() && failed(verifyElementType(*this, "C2", "`bias`",
                                            elementOf(getBias()), out)))
    return failure();
  for (Value scales : {getRowScales(), getColScales()})
    if (scales && !elementOf(scales).isF32())
      return emitOpError("(C3): scales are f32, got ") << scales.getType();
  if (getRowsAttr().getInt() <= 0)
    return emitOpError("(C4): rows must be positive, got ")
           << getRowsAttr().getInt();
  return verifyInKernel(*this, acc.getLayout().getThreads());
}

//===----------------------------------------------------------------------===//
// SampledStoreOp
//===----------------------------------------------------------------------===//

LogicalResult SampledStoreOp::verify() {
  auto matrix = getEncodedMatrix(*this, getMatrix());
  if (failed(matrix))
    return failure();
  AccType acc = getAcc().getType();
  Type values = elementOf(getValues());
  bool integerAcc = acc.getElementType().isSignlessInteger(32);
  if (integerAcc ? !values.isSignlessInteger(32)
                 : !(values.isF16() || values.isBF16() || values.isF32()))
    return emitOpError("(C2): values are ")
           << (integerAcc ? "i32 for i32 accumulators"
                          : "f16, bf16 or f32 for f32 accumulators")
           << ", got " << values;
  if (!elementOf(getMeta()).isSignlessInteger(8))
    return emitOpError("(C3): meta is a memref of i8, got ")
           << getMeta().getType();
  return verifyInKernel(*this, acc.getLayout().getThreads());
}

LogicalResult GroupScaleOp::verify() {
  if (!getAcc().getType().getElementType().isF32())
    return emitOpError("(C1): group scales fold f32 accumulators, got ")
           << getAcc().getType().getElementType();
  if (!elementOf(getScales()).isF32())
    return emitOpError("(C2): scales are f32, got ") << getScales().getType();
  int64_t rows = getRowsAttr().getInt(), groups = getGroupsAttr().getInt();
  int64_t perGroup = getPairsPerGroupAttr().getInt();
  int64_t last = getLastPairAttr().getInt();
  if (rows <= 0 || groups <= 0 || perGroup <= 0 || last < 0 ||
      last / perGroup >= groups)
    return emitOpError("(C3): rows, groups and pairs_per_group are positive "
                       "and the last pair's group (")
           << last << " / " << perGroup << ") is below groups (" << groups
           << ")";
  return verifyInKernel(*this, getAcc().getType().getLayout().getThreads());
}

LogicalResult ReduceKSplitsOp::verify() {
  int64_t splits = getSplitsAttr().getInt();
  if (splits < 2 || splits > 8)
    return emitOpError("(C1): splits must be in [2, 8] (8: the portable "
                       "cluster size of sm_90), got ")
           << splits;
  AccType acc = getAcc().getType();
  auto func = (*this)->getParentOfType<mlir::gpu::GPUFuncOp>();
  if (func && (*this)->getBlock() != &func.getBody().front())
    return emitOpError("(C2): it synchronizes the cluster, so it must sit in "
                       "the body block of its gpu.func (not in a loop or a "
                       "branch)");
  if (func && getProduceConsume(func))
    return emitOpError("(C3): a kernel split by vnm_gpu.produce_consume "
                       "cannot reduce K splits (its producers are done)");
  return verifyInKernel(*this, acc.getLayout().getThreads());
}

//===----------------------------------------------------------------------===//
// Producer / consumer split
//===----------------------------------------------------------------------===//

LogicalResult StageSparseAOp::verify() {
  ARingType ring = getRing().getType();
  SparseAType tile = ring.getTile();
  if (failed(
          verifySparseARead(*this, getMatrix(), getValues(), getMeta(), tile)))
    return failure();
  // load_staged_a hands the staged words to the MMA as they are, but for
  // an i4 weight's packed nibbles, which it widens to i8 (value_bits = 4):
  // nothing dequantizes them.
  Type element = getMatrix().getElementType();
  bool packed = ring.getValueBits() == 4;
  bool fits = packed ? element.isSignlessInteger(4)
                     : element == tile.getElementType() &&
                           (element.isF16() || element.isBF16() ||
                            element.isSignlessInteger(8));
  if (!fits)
    return emitOpError("(C2): stages f16, bf16 or i8 fragments of the "
                       "tile's own element type, or an i4 matrix's packed "
                       "nibbles into a ring of value_bits = 4; got ")
           << element << " for " << tile.getElementType() << " operands"
           << (packed ? " into a ring of value_bits = 4" : "");
  std::optional<CopyLayoutAttr> layout = getLayout();
  if (layout && layout->getRowsPerThread() != 1)
    return emitOpError("(C5): the copy's threads take a slot's 16-byte "
                       "chunks round-robin (rows_per_thread = 1), got ")
           << layout->getRowsPerThread();
  // C6: copies land by the protocol of produce_consume in its produce
  // region; outside one, the block's copies (a layout) land at a
  // vnm_gpu.wait, as a gather's do. (produce_consume rejects the consume
  // region.)
  auto split = (*this)->getParentOfType<ProduceConsumeOp>();
  if (!split && !layout)
    return emitOpError("(C6): without a copy layout only the produce region "
                       "of a vnm_gpu.produce_consume stages A fragments (its "
                       "protocol lands them before they are read)");
  return verifyInKernel(*this,
                        layout ? std::optional<int64_t>(layout->getThreads())
                               : std::nullopt);
}

LogicalResult LoadStagedAOp::verify() {
  if (getResult().getType() != getRing().getType().getTile())
    return emitOpError("(C1): the result must be the ring's tile type ")
           << getRing().getType().getTile();
  // C2: the slot is read where its copy has landed: in the consume region
  // of a produce_consume, or after the vnm_gpu.wait that lands the block's
  // copies (a ring staged with a copy layout).
  auto split = (*this)->getParentOfType<ProduceConsumeOp>();
  bool inConsume =
      split && split.getConsume().isAncestor((*this)->getParentRegion());
  bool stagedByBlock = llvm::any_of(getRing().getUsers(), [](Operation *user) {
    auto stage = dyn_cast<StageSparseAOp>(user);
    return stage && stage.getLayout();
  });
  if (split ? !inConsume : !stagedByBlock)
    return emitOpError("(C2): staged A fragments are read in the consume "
                       "region of a vnm_gpu.produce_consume, or outside one "
                       "from a ring that the block's threads stage (a "
                       "vnm_gpu.stage_sparse_a with a copy layout)");
  return verifyInKernel(*this, getResult().getType().getLayout().getThreads());
}

std::optional<int64_t> ProduceConsumeOp::getConsumerThreads() {
  auto func = (*this)->getParentOfType<mlir::gpu::GPUFuncOp>();
  if (!func)
    return std::nullopt;
  std::optional<ArrayRef<int32_t>> known = func.getKnownBlockSize();
  if (!known || known->size() != 3)
    return std::nullopt;
  return (*known)[0] - getProducers();
}

namespace {

/// The ring and slot that a ring-indexing op of a produce_consume region
/// uses, or {} for other ops.
std::pair<Value, Value> getIndexedSlot(Operation *op) {
  return TypeSwitch<Operation *, std::pair<Value, Value>>(op)
      .Case<GatherOp, CopyTileOp, TmaCopyTileOp, StageSparseAOp, LoadStagedAOp,
            LoadBOp, WgmmaSpOp>([](auto x) {
        return std::make_pair(Value(x.getRing()), Value(x.getSlot()));
      })
      .Default([](Operation *) { return std::pair<Value, Value>(); });
}

int64_t getStages(Type ring) {
  if (auto b = dyn_cast<RingType>(ring))
    return b.getStages();
  return cast<ARingType>(ring).getStages();
}

} // namespace

LogicalResult ProduceConsumeOp::verify() {
  auto func = (*this)->getParentOfType<mlir::gpu::GPUFuncOp>();
  if (!func || (*this)->getBlock() != &func.getBody().front())
    return emitOpError("(C5): sits in the body block of a gpu.func (after "
                       "it only the consumers run)");
  int64_t stages = getStages();
  if (stages < 2 || stages > 8)
    return emitOpError("(C1): stages must be in [2, 8], got ") << stages;
  int64_t producers = getProducers();
  if (producers <= 0 || producers % 128 != 0)
    return emitOpError("(C2): producers must be whole warpgroups (a "
                       "positive multiple of 128 threads), got ")
           << producers;
  std::optional<int64_t> consumers = getConsumerThreads();
  if (consumers && (*consumers <= 0 || *consumers % 128 != 0))
    return emitOpError("(C2): the kernel's block leaves ")
           << *consumers << " consumer threads; they must be whole "
           << "warpgroups";
  int64_t producerRegs = getProducerRegisters();
  int64_t consumerRegs = getConsumerRegisters();
  for (int64_t regs : {producerRegs, consumerRegs})
    if (regs < 24 || regs > 256 || regs % 8 != 0)
      return emitOpError("(C3): registers per thread must be multiples of 8 "
                         "in [24, 256], got ")
             << regs;
  if (consumers && producers * producerRegs + *consumers * consumerRegs > 65536)
    return emitOpError("(C3): ")
           << producers << " x " << producerRegs << " + " << *consumers << " x "
           << consumerRegs << " registers exceed the multiprocessor's 65536";

  // C4: region signatures.
  Type i32 = IntegerType::get(getContext(), 32);
  Block &produce = getProduce().front(), &consume = getConsume().front();
  if (produce.getNumArguments() != 2 ||
      produce.getArgument(0).getType() != i32 ||
      produce.getArgument(1).getType() != i32 ||
      produce.getTerminator()->getNumOperands() != 0)
    return emitOpError("(C4): the produce region takes (pair: i32, slot: "
                       "i32) and yields nothing");
  TypeRange inits = getInits().getTypes();
  SmallVector<Type> consumeArgs = {i32, i32};
  llvm::append_range(consumeArgs, inits);
  if (TypeRange(consume.getArgumentTypes()) != TypeRange(consumeArgs) ||
      TypeRange(consume.getTerminator()->getOperandTypes()) != inits ||
      TypeRange(getResultTypes()) != inits)
    return emitOpError("(C4): the consume region takes (pair: i32, slot: "
                       "i32, iter_args...) and yields the iter_args' types, "
                       "which are the results'");

  // C1 (rings), C6 (what each region may do).
  for (Region *region : {&getProduce(), &getConsume()}) {
    bool producing = region == &getProduce();
    Value slot = region->front().getArgument(1);
    WalkResult walk = region->walk([&](Operation *op) {
      if (isa<WaitOp>(op) ||
          (producing && isa<MmaSpOp, WgmmaSpOp, LoadStagedAOp, LoadBOp>(op)) ||
          (!producing &&
           isa<GatherOp, CopyTileOp, TmaCopyTileOp, StageSparseAOp>(op))) {
        op->emitOpError("(C6): cannot sit in the ")
            << (producing ? "produce" : "consume")
            << " region of vnm_gpu.produce_consume (the producer copies into "
               "slots, the consumers read them; the op's barriers replace "
               "vnm_gpu.wait)";
        return WalkResult::interrupt();
      }
      auto [ring, used] = getIndexedSlot(op);
      if (!ring)
        return WalkResult::advance();
      if (::getStages(ring.getType()) != stages || used != slot) {
        op->emitOpError("(C1): a ring of vnm_gpu.produce_consume must have ")
            << stages << " stages and be indexed by its region's slot";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
  }
  // C7: the slot of pair p is released after the consumers' region for
  // p + 1, whose last MMA must have waited for the MMAs of p.
  WgmmaSpOp last;
  getConsume().walk([&](WgmmaSpOp mma) { last = mma; });
  if (last && !last.getPending())
    return emitOpError("(C7): the consume region's last vnm_gpu.wgmma_sp "
                       "must close its group with `pending`");
  // An accumulator yielded while its MMAs may still run is, in the next
  // pair, only the accumulator of further MMAs.
  for (BlockArgument arg : consume.getArguments().drop_front(2))
    for (OpOperand &use : arg.getUses()) {
      auto mma = dyn_cast<WgmmaSpOp>(use.getOwner());
      bool accumulates = mma && use.getOperandNumber() ==
                                    mma.getAccMutable().getOperandNumber();
      bool passedOn = isa<YieldOp>(use.getOwner());
      if (last && !accumulates && !passedOn)
        return emitOpError("(C7): an iter_arg of the consume region may still "
                           "be written by the previous pair's MMAs; it may "
                           "only be a vnm_gpu.wgmma_sp accumulator");
    }
  return success();
}
