// vnm-choose-config explain=true: a remark per spmm with the recipe chosen
// and, for every recipe the chip offers, the L2 traffic and MMA time the
// cost model predicts (lib/Conversion/VNMToGPU/RecipeCostModel.h). The
// numbers below were worked out by hand from the model's formulas.
// RUN: vnm-opt %s --vnm-choose-config="chip=sm_90a explain=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=HOPPER
// RUN: vnm-opt %s --vnm-choose-config="chip=sm_90a recipe=wgmma-sp-ws explain=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WS
// RUN: vnm-opt %s --vnm-choose-config="chip=sm_90 explain=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM90
// vnm-lower-to-nvvm-pipeline forwards the option.
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90a explain=true format=isa" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE
// PIPELINE-COUNT-3: remark: vnm-choose-config: chose
// Without explain, nothing is said.
// RUN: vnm-opt %s --vnm-choose-config="chip=sm_90a" -o /dev/null 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET

// 4096^3 f16 at V = 128, 2:32: the gathers read 4 * 128 = 512 B rows per
// row block. mma.sp 128 x 128: B = 32 * 512 * 4096 * 2 bytes = 134.2 MB,
// A = 32 * 4096 * 256 kept * 2.25 bytes = 75.5 MB, 19.1 us at 11 TB/s,
// MMA 2 * 4096 * 512 * 4096 / 953e12 = 18.0 us; cuBLAS 183.3 us.
// HOPPER: remark: vnm-choose-config: chose mma-sp 128x128; predicted at N = 4096 with the H200's rates
// HOPPER-NEXT: mma-sp 128x128: A 75.5 MB + B 134.2 MB through L2 (19.1 us), MMA 18.0 us: at most 9.61x cuBLAS
// HOPPER-NEXT: wgmma-sp 128x128: A 75.5 MB + B 134.2 MB through L2 (19.1 us), MMA 11.3 us: at most 9.61x cuBLAS
// Run as 2:4 (a 2:32 weight is one), B is a dense tile of all K = 4096
// rows for each 128-row block: A 16 * 4096 * 2048 * 2.25 = 302.0 MB, B 32 *
// 4096 * 4096 * 2 = 1073.7 MB, 125.1 us: the gather's bound is 6.5 times
// higher.
// HOPPER-NEXT: wgmma-sp-ws as-2-4 128x256: A 302.0 MB + B 1073.7 MB through L2 (125.1 us), MMA 90.1 us: at most 1.47x cuBLAS
// SM90: remark: vnm-choose-config: chose mma-sp 128x128; predicted at N = 4096
// SM90-NEXT: mma-sp 128x128: A 75.5 MB + B 134.2 MB through L2 (19.1 us), MMA 18.0 us: at most 9.61x cuBLAS
// SM90-NOT: {{^ +}}wgmma-sp
func.func @f16(%w: tensor<4096x4096xf16, #vnm.encoding<v = 128, n = 2, m = 32>>,
               %x: tensor<4096x4096xf16>) -> tensor<4096x4096xf16> {
  %y = vnm.spmm %w, %x : tensor<4096x4096xf16, #vnm.encoding<v = 128, n = 2, m = 32>>, tensor<4096x4096xf16> -> tensor<4096x4096xf16>
  return %y : tensor<4096x4096xf16>
}

// 4096^3 f16 at V = 64, 2:8: the gathers read 4 * 512 = 2048 B rows per
// 64-row block (B = 64 * 2048 * 4096 * 2 = 1073.7 MB, A = 32 * 4096 * 1024
// * 2.25 = 302.0 MB), and as 2:4 the 128-row blocks read all 4096 (B = 32 *
// 4096 * 4096 * 2, A = 16 * 4096 * 2048 * 2.25: the same bytes): every
// recipe is bound by L2 at 125.1 us, 1.47x cuBLAS, whatever its MMA time.
// HOPPER: remark: vnm-choose-config: chose wgmma-sp-ws as-2-4 128x256; predicted at N = 4096 with
// HOPPER-NEXT: mma-sp 64x128: A 302.0 MB + B 1073.7 MB through L2 (125.1 us), MMA 72.1 us: at most 1.47x cuBLAS
// HOPPER-NEXT: wgmma-sp 64x128: A 302.0 MB + B 1073.7 MB through L2 (125.1 us), MMA 45.1 us: at most 1.47x cuBLAS
// HOPPER-NEXT: wgmma-sp-ws as-2-4 128x256: A 302.0 MB + B 1073.7 MB through L2 (125.1 us), MMA 90.1 us: at most 1.47x cuBLAS
func.func @f16_v64(%w: tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>,
                   %x: tensor<4096x4096xf16>) -> tensor<4096x4096xf16> {
  %y = vnm.spmm %w, %x : tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>, tensor<4096x4096xf16> -> tensor<4096x4096xf16>
  return %y : tensor<4096x4096xf16>
}

// W8A8 2:4, N dynamic (4096 assumed): B a dense tile of all 4096 rows.
// mma.sp 64 x 128: B = 64 * 4096 * 4096 bytes = 1073.7 MB, A = 32 * 4096 *
// 2048 * 1.25 bytes = 335.5 MB, 128.1 us; MMA at 1909 TOP/s 72.0 us. The
// warp-specialized s8 wgmma.sp 128 x 256: B 536.9 MB, A 167.8 MB, 64.1 us;
// MMA at 3050 TOP/s 45.1 us. No cuBLAS bound for the integer MMA.
// HOPPER: remark: vnm-choose-config: chose mma-sp 64x128; predicted at N = 4096 (assumed: N is dynamic)
// HOPPER-NEXT: mma-sp 64x128: A 335.5 MB + B 1073.7 MB through L2 (128.1 us), MMA 72.0 us{{$}}
// HOPPER-NEXT: wgmma-sp-ws 128x256: A 167.8 MB + B 536.9 MB through L2 (64.1 us), MMA 45.1 us{{$}}
// WS: remark: vnm-choose-config: chose wgmma-sp-ws 128x256; predicted at N = 4096 (assumed: N is dynamic)
// SM90: remark: vnm-choose-config: chose mma-sp 64x128; predicted at N = 4096 (assumed: N is dynamic)
// SM90-NEXT: mma-sp 64x128: A 335.5 MB + B 1073.7 MB through L2 (128.1 us), MMA 72.0 us{{$}}
// QUIET-NOT: remark
func.func @w8a8(%w: tensor<4096x4096xi8, #vnm.encoding<v = 64, n = 2, m = 4>>,
                %x: tensor<4096x?xi8>) -> tensor<4096x?xi32> {
  %y = vnm.spmm %w, %x : tensor<4096x4096xi8, #vnm.encoding<v = 64, n = 2, m = 4>>, tensor<4096x?xi8> -> tensor<4096x?xi32>
  return %y : tensor<4096x?xi32>
}
