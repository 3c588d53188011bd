//===- SpmmConfig.cpp - the kernel recipe of a vnm.storage.spmm -----------===//

#include "SpmmConfig.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace vnm;
using namespace vnm::kernel;

std::string vnm::kernel::typeName(Type type) {
  std::string name;
  llvm::raw_string_ostream os(name);
  type.print(os);
  return name;
}

bool vnm::kernel::isKContiguous(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  SmallVector<int64_t> strides;
  int64_t offset;
  return memref && succeeded(memref.getStridesAndOffset(strides, offset)) &&
         strides.size() == 2 && strides[0] == 1 && strides[1] != 1;
}

FailureOr<SpmmKernelConfig>
vnm::kernel::getSpmmKernelConfigQuietly(StorageSpmmOp op, MemRefType rhs,
                                        MemRefType init) {
  ScopedDiagnosticHandler quiet(op.getContext(),
                                [](Diagnostic &) { return success(); });
  return getSpmmKernelConfig(op, rhs, init);
}

FailureOr<SpmmKernelConfig> vnm::kernel::getSpmmKernelConfig(StorageSpmmOp op,
                                                             MemRefType rhs,
                                                             MemRefType init) {
  if (op->getNumResults() != 0)
    return op.emitError("vnm-lower-to-gpu: needs vnm.storage.spmm on "
                        "memrefs; run --vnm-expand-storage and "
                        "bufferization first");
  auto values = cast<MemRefType>(op.getValues().getType());
  if (!rhs)
    rhs = cast<MemRefType>(op.getRhs().getType());
  if (!init)
    init = cast<MemRefType>(op.getInit().getType());
  auto refuse = [&](const Twine &what) {
    return op.emitError("vnm-lower-to-gpu: ")
           << what << "; the CPU pipeline (vnm-lower-to-cpu-pipeline) runs it";
  };
  Type weight = values.getElementType();
  Type rhsElement = rhs.getElementType();
  bool integerWeight =
      weight.isSignlessInteger(8) || weight.isSignlessInteger(4);
  // The integer MMA (W8A8, W4A8) reads i8 rhs token-major; an integer
  // weight times f16/bf16 rhs is dequantized for the f16 MMA (W8A16,
  // W4A16).
  bool integer = rhsElement.isSignlessInteger(8);
  if (integerWeight && !integer && !rhsElement.isF16() && !rhsElement.isBF16())
    return refuse("no GPU kernel for an " + typeName(weight) +
                  " weight times " + typeName(rhsElement) +
                  " rhs (i8 rhs: W8A8/W4A8; f16 or bf16 rhs: W8A16/W4A16)");
  if (!integerWeight && weight != rhsElement)
    return refuse("no GPU kernel for a weight of another element type than "
                  "rhs");
  if (!integerWeight && op.getWeightScales())
    return refuse("no GPU kernel for weight scales on a float weight");
  if (op.getGroupSize() && integer)
    return refuse("no GPU kernel for per-group weight scales with i8 "
                  "activations yet (W8A16 and W4A16 take them)");
  if (auto scales = op.getInputScales();
      scales && cast<MemRefType>(scales.getType()).getRank() != 1)
    return refuse("no GPU kernel for a per-tensor input scale yet (per-token "
                  "input scales run on the GPU)");
  // Which way the kernel reads rhs's K x N: token-major (x[N][K], K
  // contiguous: a memref<KxN, strided<[1, ?]>>) for the i8 kernels, and
  // for the f16/bf16 kernels when rhs is statically K-contiguous (the
  // transpose of an x[N][K], as vnm-fold-transposed-rhs hands it); else
  // K x N with contiguous rows. The launch contract's rhs_layout tells the
  // host. A layout known to be the other one is refused (after
  // bufferization the strides are usually dynamic: the host's arrays
  // decide).
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(rhs.getStridesAndOffset(strides, offset)) || strides.size() != 2)
    return op.emitError("vnm-lower-to-gpu: rhs must be a strided 2-D memref");
  auto knownNot = [](int64_t stride) {
    return !ShapedType::isDynamic(stride) && stride != 1;
  };
  bool tokenMajor = integer || isKContiguous(rhs);
  if (integer && knownNot(strides[0]))
    return op.emitError(
        "vnm-lower-to-gpu: the i8 kernels read rhs token-major (K "
        "contiguous, e.g. memref<KxN, strided<[1, ?]>>, the transpose of an "
        "x[N][K]): sm_80 and sm_90 have no byte-transposing ldmatrix");
  if (!tokenMajor && knownNot(strides[1]))
    return op.emitError("vnm-lower-to-gpu: the f16/bf16 kernels read rhs as "
                        "K x N with contiguous rows (memref<KxN> or "
                        "strided<[?, 1]>) or token-major (strided<[1, ?]>)");
  // Which way the kernel stores y: R x N with contiguous rows, or
  // transposed into y[N][R] when out is statically N-contiguous (the
  // transposed view vnm-fold-transposed-result hands it). The launch
  // contract's out_layout tells the host.
  SmallVector<int64_t> outStrides;
  if (failed(init.getStridesAndOffset(outStrides, offset)) ||
      outStrides.size() != 2)
    return op.emitError("vnm-lower-to-gpu: the result must be a strided 2-D "
                        "memref");
  bool tokenMajorOut = isKContiguous(init);
  if (!tokenMajorOut && knownNot(outStrides[1]))
    return op.emitError("vnm-lower-to-gpu: the kernels store the result as "
                        "R x N with contiguous rows (memref<RxN> or "
                        "strided<[?, 1]>) or transposed, y[N][R] "
                        "(strided<[1, ?]>)");
  if (integer && !isa<FloatType>(init.getElementType()) &&
      (op.getBias() || op.getActivation() != Activation::none))
    return refuse("no GPU kernel for an i32 result with a bias or an "
                  "activation");
  SpmmKernelConfig config;
  config.tokenMajorRhs = tokenMajor;
  config.tokenMajorOut = tokenMajorOut;
  config.hasWeightScales = static_cast<bool>(op.getWeightScales());
  if (std::optional<int64_t> groupSize = op.getGroupSize())
    config.groupSize = *groupSize;
  config.hasInputScales = static_cast<bool>(op.getInputScales());
  config.elementType = values.getElementType();
  config.rhsType = rhs.getElementType();
  config.resultType = init.getElementType();
  config.v = op.getEncoding().getV();
  config.n = op.getEncoding().getN();
  config.m = config.opM = op.getEncoding().getM();
  config.rows = values.getDimSize(0);
  config.cols = rhs.getDimSize(0);
  config.accumulate = op.getAccumulate();
  config.hasBias = static_cast<bool>(op.getBias());
  config.activation = op.getActivation();
  // The op's own tiling (set by hand or by vnm-choose-config) wins;
  // without one the pass picks the default mma.sp tiling.
  Attribute tiling = op->getAttr("vnm.config");
  if (auto hopper = dyn_cast_or_null<vnm_gpu::WgmmaSpTilingAttr>(tiling)) {
    config.applyConfig(hopper);
  } else {
    auto chosen = dyn_cast_or_null<vnm_gpu::MmaSpTilingAttr>(tiling);
    if (tiling && !chosen)
      return op.emitError("vnm-lower-to-gpu: no kernel recipe for the tiling ")
             << tiling
             << " (the mma.sp kernels take #vnm_gpu.mma_sp_tiling, the "
                "sm_90a wgmma.sp kernels #vnm_gpu.wgmma_sp_tiling)";
    if (!chosen)
      chosen = chooseSpmmConfig(op.getContext(), config.v, config.m,
                                config.hasIntegerWeight(), config.groupSize > 0,
                                config.tokenMajorRhs, TilingOptions());
    config.applyConfig(chosen);
  }
  if (ShapedType::isDynamic(config.rows) || ShapedType::isDynamic(config.cols))
    return op.emitError("vnm-lower-to-gpu: the sparse operand's R and K must "
                        "be static (the kernel is specialized on them)");
  if (std::string why = checkSpmmKernelConfig(config); !why.empty())
    return op.emitError("vnm-lower-to-gpu: ") << why;
  return config;
}
