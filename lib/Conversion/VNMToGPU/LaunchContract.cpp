//===- LaunchContract.cpp - what a host needs to launch a kernel ----------===//

#include "LaunchContract.h"

#include "vnm/Dialect/VNMGPU/IR/VNMGPU.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace vnm;
using namespace vnm::kernel;

namespace {

/// How the host knows a tensor map's bound or pitch (tma_copy_tile C4): a
/// constant, or the name of the kernel parameter that holds it.
Attribute describeHostValue(Builder &b, Value value,
                            ArrayRef<Attribute> params) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return params[arg.getArgNumber()];
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return b.getI64IntegerAttr(constant.getSExtValue());
  return b.getStringAttr("?");
}

/// What the host encodes in the tensor map of each parameter that the TMA
/// reads: the matrix (rows x cols elements, row pitch ld elements), the box
/// and the swizzle. Each parameter is described once, by its first reader.
class TensorMapDescriptions {
public:
  TensorMapDescriptions(Builder &b, ArrayRef<Attribute> params)
      : b(b), params(params) {}

  void add(BlockArgument arg, Attribute rows, Attribute cols, Attribute ld,
           int64_t elementBytes, int64_t boxRows, int64_t boxCols,
           int64_t swizzleBytes) {
    auto name = cast<StringAttr>(params[arg.getArgNumber()]);
    if (llvm::any_of(maps,
                     [&](NamedAttribute m) { return m.getName() == name; }))
      return;
    maps.push_back(b.getNamedAttr(
        name,
        b.getDictionaryAttr({
            b.getNamedAttr("rows", rows),
            b.getNamedAttr("cols", cols),
            b.getNamedAttr("ld", ld),
            b.getNamedAttr("element_bytes", b.getI64IntegerAttr(elementBytes)),
            b.getNamedAttr("box_rows", b.getI64IntegerAttr(boxRows)),
            b.getNamedAttr("box_cols", b.getI64IntegerAttr(boxCols)),
            b.getNamedAttr("swizzle_bytes", b.getI64IntegerAttr(swizzleBytes)),
        })));
  }
  DictionaryAttr get() const { return b.getDictionaryAttr(maps); }

private:
  Builder &b;
  ArrayRef<Attribute> params;
  SmallVector<NamedAttribute> maps;
};

/// The tensor maps of the kernel's TMA readers: B of vnm_gpu.tma_copy_tile
/// (one column block of the ring's rows in its swizzle: 128 bytes wide in
/// the 128-byte swizzle, 64 in the 64-byte one), and
/// the fragment arrays of a vnm_gpu.stage_sparse_a that are parameters
/// (32-bit words, one row per 16-row tile, a box of the slot's row tiles x
/// one pair, no swizzle).
DictionaryAttr describeTensorMaps(Builder &b, gpu::GPUFuncOp kernel,
                                  ArrayRef<Attribute> params) {
  TensorMapDescriptions maps(b, params);
  kernel.walk([&](vnm_gpu::TmaCopyTileOp copy) {
    vnm_gpu::RingType ring = copy.getRing().getType();
    int64_t elementBytes = ring.getElementBytes();
    int64_t swizzleBytes = ring.getCanonicalSwizzleBytes();
    maps.add(cast<BlockArgument>(copy.getSrc()),
             describeHostValue(b, copy.getRowBound(), params),
             describeHostValue(b, copy.getCols(), params),
             describeHostValue(b, copy.getLd(), params), elementBytes,
             ring.getRows(), swizzleBytes / elementBytes, swizzleBytes);
  });
  kernel.walk([&](vnm_gpu::StageSparseAOp stage) {
    std::optional<vnm_gpu::StagedATensorMaps> views =
        vnm_gpu::getStagedATensorMaps(stage);
    if (!views)
      return;
    auto describe = [&](Value array, int64_t words, int64_t boxWords) {
      auto arg = dyn_cast<BlockArgument>(array);
      if (!arg || !vnm_gpu::isTensorMapParameter(arg))
        return;
      maps.add(arg, b.getI64IntegerAttr(views->rowTiles),
               b.getI64IntegerAttr(words), b.getI64IntegerAttr(words),
               /*elementBytes=*/4, views->boxRowTiles, boxWords,
               /*swizzleBytes=*/0);
    };
    describe(stage.getValues(), views->valueWords, views->valueBoxWords);
    describe(stage.getMeta(), views->metaWords, views->metaBoxWords);
  });
  return maps.get();
}

} // namespace

DictionaryAttr
vnm::kernel::buildLaunchContract(gpu::GPUFuncOp kernel, StringRef moduleName,
                                 StringRef opName, const LaunchGrid &grid,
                                 ArrayRef<NamedAttribute> problem,
                                 StringRef requirements) {
  Builder b(kernel.getContext());
  SmallVector<Attribute> params, paramTypes;
  for (auto [index, type] : llvm::enumerate(kernel.getArgumentTypes())) {
    auto name =
        kernel.getArgAttrOfType<StringAttr>(index, vnm_gpu::kParamAttrName);
    params.push_back(name ? name
                          : b.getStringAttr("arg" + std::to_string(index)));
    // Buffers are passed as bare device pointers, scalars as themselves,
    // buffers that the TMA reads as tensor maps the host makes of them.
    bool mapped = !kernel.getBody().empty() &&
                  vnm_gpu::isTensorMapParameter(kernel.getArgument(index));
    paramTypes.push_back(b.getStringAttr(mapped                  ? "tensor_map"
                                         : isa<MemRefType>(type) ? "ptr"
                                                                 : "i32"));
  }
  int64_t staticBytes = 0, dynamicBytes = 0;
  kernel.walk([&](vnm_gpu::AllocRingOp ring) {
    (ring.isDynamic() ? dynamicBytes : staticBytes) += ring.getReservedBytes();
  });
  SmallVector<int64_t> block = {1, 1, 1};
  if (std::optional<ArrayRef<int32_t>> known = kernel.getKnownBlockSize())
    block.assign(known->begin(), known->end());

  SmallVector<NamedAttribute> fields = {
      b.getNamedAttr("kernel", b.getStringAttr(kernel.getName())),
      b.getNamedAttr("module", b.getStringAttr(moduleName)),
      b.getNamedAttr("op", b.getStringAttr(opName)),
      b.getNamedAttr("params", b.getArrayAttr(params)),
      b.getNamedAttr("param_types", b.getArrayAttr(paramTypes)),
      b.getNamedAttr("block", b.getI64ArrayAttr(block)),
      b.getNamedAttr("grid_x_divisor", b.getI64IntegerAttr(grid.gridXDivisor)),
      b.getNamedAttr("grid_y", b.getI64IntegerAttr(grid.gridY)),
      b.getNamedAttr("static_shared_bytes", b.getI64IntegerAttr(staticBytes)),
      b.getNamedAttr("dynamic_shared_bytes", b.getI64IntegerAttr(dynamicBytes)),
      b.getNamedAttr("requirements", b.getStringAttr(requirements)),
  };
  // Cluster dimensions fixed in the kernel's code: a plain launch makes
  // them, and the grid is a multiple of them.
  if (auto cluster = kernel->getAttrOfType<DenseI32ArrayAttr>(
          NVVM::NVVMDialect::getClusterDimAttrName())) {
    SmallVector<int64_t> dims(cluster.asArrayRef());
    fields.push_back(b.getNamedAttr("cluster", b.getI64ArrayAttr(dims)));
  }
  DictionaryAttr maps = describeTensorMaps(b, kernel, params);
  if (!maps.empty())
    fields.push_back(b.getNamedAttr("tensor_maps", maps));
  llvm::append_range(fields, problem);
  return b.getDictionaryAttr(fields);
}
