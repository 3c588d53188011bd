// vnm-lower-to-nvvm-pipeline compiles for a closed list of chips and PTX
// versions (docs/pipeline.md, "Supported targets"); anything else is a
// diagnostic before anything reaches LLVM, whose NVPTX backend otherwise
// aborts (sm_75: an unselectable intrinsic; sm_100: the PTX version the chip
// needs) or crashes (an empty chip).
// RUN: not vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_75" 2>&1 | FileCheck %s --check-prefix=OLD
// RUN: not vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_70" 2>&1 | FileCheck %s --check-prefix=OLD70
// RUN: not vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=gfx90a" 2>&1 | FileCheck %s --check-prefix=NOT-SM
// RUN: not vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=cuda" 2>&1 | FileCheck %s --check-prefix=CUDA
// RUN: not vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=" 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_100" 2>&1 | FileCheck %s --check-prefix=SM100
// RUN: not vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_120 features=+ptx87" 2>&1 | FileCheck %s --check-prefix=SM120
// RUN: not vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_86" 2>&1 | FileCheck %s --check-prefix=UNTESTED
// RUN: not vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90 features=+ptx80" 2>&1 | FileCheck %s --check-prefix=PTX80
// RUN: not vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_80 features=" 2>&1 | FileCheck %s --check-prefix=NO-PTX
// RUN: not vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90 features=+ptx99" 2>&1 | FileCheck %s --check-prefix=PTX99
// RUN: not vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90 features=+ptx85,+ptx86" 2>&1 | FileCheck %s --check-prefix=TWO-PTX
// RUN: not vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90 features=+sm_90" 2>&1 | FileCheck %s --check-prefix=NOT-PTX
// RUN: not vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90 format=llvm" 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90 opt-level=4" 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90 dump-dir=a}b" 2>&1 | FileCheck %s --check-prefix=TEXT
// RUN: not vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90a recipe=wmma" 2>&1 | FileCheck %s --check-prefix=RECIPE
// RUN: not vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_80 recipe=wgmma-sp" 2>&1 | FileCheck %s --check-prefix=WGMMA

// OLD: error: vnm-lower-to-nvvm-pipeline: chip 'sm_75' cannot run the kernels: mma.sp::ordered_metadata and cp.async need sm_80 or newer; supported chips: sm_80, sm_90, sm_90a
// OLD-NOT: LLVM ERROR
// OLD70: error: vnm-lower-to-nvvm-pipeline: chip 'sm_70' cannot run the kernels
// NOT-SM: error: vnm-lower-to-nvvm-pipeline: chip 'gfx90a' is not an NVIDIA GPU architecture (sm_NN); supported chips: sm_80, sm_90, sm_90a
// CUDA: error: vnm-lower-to-nvvm-pipeline: chip 'cuda' is not an NVIDIA GPU architecture (sm_NN); supported chips: sm_80, sm_90, sm_90a
// EMPTY: error: vnm-lower-to-nvvm-pipeline: chip is empty; supported chips: sm_80, sm_90, sm_90a
// SM100: error: vnm-lower-to-nvvm-pipeline: chip 'sm_100' is not supported: there are no kernels for the sm_100 generation and later yet, and they would need PTX 8.6 or newer; supported chips: sm_80, sm_90, sm_90a
// SM120: error: vnm-lower-to-nvvm-pipeline: chip 'sm_120' is not supported: there are no kernels for the sm_100 generation
// UNTESTED: error: vnm-lower-to-nvvm-pipeline: chip 'sm_86' is not supported: the kernels are generated and tested for the chips listed; supported chips: sm_80, sm_90, sm_90a
// PTX80: error: vnm-lower-to-nvvm-pipeline: sm_90 needs PTX 8.5 or newer (mma.sp::ordered_metadata), got +ptx80; supported features: +ptx85, +ptx86, +ptx87, +ptx88, +ptx90
// NO-PTX: error: vnm-lower-to-nvvm-pipeline: features is empty, so the NVVM target would write PTX 6.0, and mma.sp::ordered_metadata needs PTX 8.5 (+ptx85); supported features: +ptx85, +ptx86, +ptx87, +ptx88, +ptx90
// PTX99: error: vnm-lower-to-nvvm-pipeline: features '+ptx99' is not a PTX version LLVM 22 writes; supported features: +ptx85,
// TWO-PTX: error: vnm-lower-to-nvvm-pipeline: features '+ptx85,+ptx86' must be one PTX version; supported features: +ptx85,
// NOT-PTX: error: vnm-lower-to-nvvm-pipeline: features '+sm_90' is not a PTX version (+ptxNN); supported features: +ptx85,
// FORMAT: error: vnm-lower-to-nvvm-pipeline: format 'llvm' must be isa, bin or fatbin
// OPT: error: vnm-lower-to-nvvm-pipeline: opt-level 4 must be in [0, 3]
// RECIPE: error: vnm-lower-to-nvvm-pipeline: recipe 'wmma' must be auto, mma-sp, wgmma-sp or wgmma-sp-ws
// WGMMA: error: vnm-lower-to-nvvm-pipeline: recipe wgmma-sp needs chip sm_90a (wgmma.sp is an sm_90a instruction), got chip 'sm_80'
// TEXT: error: vnm-lower-to-nvvm-pipeline: the options make an invalid pipeline '{{.*}}vnm-dump-kernels{output-dir=a}b}': {{.*}}error: expected ',' after parsing pipeline

// Every supported chip compiles, with each PTX version from 8.5 on.
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_80" | FileCheck %s --check-prefix=OK80
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90 features=+ptx90" | FileCheck %s --check-prefix=OK90
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90a features=+ptx86" | FileCheck %s --check-prefix=OK90A
// OK80: .version 8.5
// OK80: .target sm_80
// OK90: .version 9.0
// OK90: .target sm_90
// OK90A: .version 8.6
// OK90A: .target sm_90a
// OK90A: mma.sp::ordered_metadata

!w = tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
func.func @f(%w: !w, %x: tensor<64x8xf16>) -> tensor<128x8xf32> {
  %y = vnm.spmm %w, %x : !w, tensor<64x8xf16> -> tensor<128x8xf32>
  return %y : tensor<128x8xf32>
}
