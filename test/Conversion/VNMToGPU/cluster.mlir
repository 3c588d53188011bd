// The warp-specialized sm_90a kernel launches pairs of consecutive row blocks
// (which copy the same B tiles) as clusters where they pair up: the kernel
// carries nvvm.cluster_dim, its PTX `.reqnctapercluster`, so that a plain
// launch makes the clusters, and the launch contract says so.
// cluster-rows=1 launches no clusters.
// RUN: rm -rf %t && mkdir -p %t
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90a recipe=wgmma-sp-ws dump-dir=%t/pairs" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/pairs/vnm_kernels.ptx
// RUN: FileCheck %s --check-prefix=JSON < %t/pairs/spmm_0.json
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90a recipe=wgmma-sp-ws cluster-rows=1 dump-dir=%t/none" -o /dev/null
// RUN: FileCheck %s --check-prefix=NONE-PTX < %t/none/vnm_kernels.ptx
// RUN: FileCheck %s --check-prefix=NONE-JSON < %t/none/spmm_0.json
// The multistage kernel in clusters of four, when asked for.
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90a recipe=wgmma-sp cluster-rows=4 dump-dir=%t/four" -o /dev/null
// RUN: FileCheck %s --check-prefix=FOUR < %t/four/vnm_kernels.ptx
// Four row blocks do not make clusters of eight: refused, not launched as a
// partial cluster.
// RUN: not vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90a recipe=wgmma-sp-ws cluster-rows=8" 2>&1 | FileCheck %s --check-prefix=EIGHT

// PTX: .maxntid 384, 1, 1
// PTX-NEXT: .explicitcluster
// PTX-NEXT: .reqnctapercluster 1, 2, 1
// JSON: "cluster": [
// JSON-NEXT: 1,
// JSON-NEXT: 2,
// JSON-NEXT: 1
// JSON-NEXT: ],
// JSON: "grid_y": 4,
// NONE-PTX-NOT: explicitcluster
// NONE-PTX-NOT: reqnctapercluster
// NONE-JSON-NOT: "cluster"
// FOUR: .maxntid 256, 1, 1
// FOUR-NEXT: .explicitcluster
// FOUR-NEXT: .reqnctapercluster 1, 4, 1
// EIGHT: cluster.mlir:[[@LINE+4]]:8: error: vnm-lower-to-gpu: the sm_90a wgmma.sp spmm kernel launches its row blocks in clusters of 8: the 4 row blocks of 128 of the 512 rows must be a multiple of it (cluster_rows = 1 launches no clusters)

!w = tensor<512x192xf16, #vnm.encoding<v = 64, n = 2, m = 4>>
func.func @f(%w: !w, %x: tensor<192x?xf16>) -> tensor<512x?xf16> {
  %y = vnm.spmm %w, %x : !w, tensor<192x?xf16> -> tensor<512x?xf16>
  return %y : tensor<512x?xf16>
}
