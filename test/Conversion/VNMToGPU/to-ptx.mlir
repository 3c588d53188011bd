// The whole GPU pipeline to PTX, for sm_90 and sm_80, with the kernels'
// launch contracts written next to the PTX. PTX text needs no CUDA.
// RUN: rm -rf %t && mkdir -p %t
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_90 dump-dir=%t/sm90" | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=PTX90 < %t/sm90/vnm_kernels.ptx
// RUN: FileCheck %s --check-prefix=JSON < %t/sm90/spmm_1.json
// The contract names the kernel's PTX and carries its sha256, the kernel's
// identity for GPU results (bench/validated_kernels.py).
// RUN: sha256sum %t/sm90/vnm_kernels.ptx | cut -d' ' -f1 > %t/sm90/sha
// RUN: cat %t/sm90/sha %t/sm90/spmm_1.json | FileCheck %s --check-prefix=SHA
// RUN: vnm-opt %s --vnm-lower-to-nvvm-pipeline="chip=sm_80 dump-dir=%t/sm80" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX80 < %t/sm80/vnm_kernels.ptx

// IR: gpu.binary @vnm_kernels
// IR-SAME: #nvvm.target<O = 3, chip = "sm_90", features = "+ptx85">

// PTX90: .target sm_90
// PTX90: .entry spmm_0
// PTX90: cp.async.cg.shared.global
// PTX90: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX90: mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32
// PTX90: .entry spmm_1
// PTX90: mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32
// PTX80: .target sm_80
// PTX80: mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32

// SHA: [[DIGEST:[0-9a-f]{64}]]
// SHA: "binary_file": "vnm_kernels.ptx"
// SHA: "ptx_sha256": "[[DIGEST]]"

// JSON: "activation": "relu"
// JSON: "bias": true
// JSON: "block": [
// JSON-NEXT: 256,
// JSON: "element_type": "bf16"
// JSON: "grid_y": 3
// JSON: "kernel": "spmm_1"

!w0 = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
!w1 = tensor<300x1000xbf16, #vnm.encoding<v = 128, n = 2, m = 32>>
func.func @layers(%w0: !w0, %x: tensor<4096x?xf16>, %w1: !w1,
                  %x1: tensor<1000x?xbf16>, %b1: tensor<300xbf16>)
    -> (tensor<4096x?xf16>, tensor<300x?xbf16>) {
  %y0 = vnm.spmm %w0, %x : !w0, tensor<4096x?xf16> -> tensor<4096x?xf16>
  %y1 = vnm.spmm %w1, %x1 bias(%b1 : tensor<300xbf16>)
      {activation = #vnm.activation<relu>}
      : !w1, tensor<1000x?xbf16> -> tensor<300x?xbf16>
  return %y0, %y1 : tensor<4096x?xf16>, tensor<300x?xbf16>
}
