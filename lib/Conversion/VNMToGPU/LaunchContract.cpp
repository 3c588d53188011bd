//===- LaunchContract.cpp - what a host needs to launch a kernel ----------===//

#include "LaunchContract.h"

#include "vnm/Dialect/VNMGPU/IR/VNMGPU.h"

using namespace mlir;
using namespace vnm;
using namespace vnm::kernel;

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
    // Buffers are passed as bare device pointers, scalars as themselves.
    paramTypes.push_back(
        b.getStringAttr(isa<MemRefType>(type) ? "ptr" : "i32"));
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
  llvm::append_range(fields, problem);
  return b.getDictionaryAttr(fields);
}
