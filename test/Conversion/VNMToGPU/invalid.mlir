// Configurations the GPU kernel does not cover are errors that say why.
// RUN: vnm-opt %s --vnm-lower-to-gpu --split-input-file -verify-diagnostics
// RUN: vnm-opt %s --vnm-lower-to-gpu --split-input-file -verify-diagnostics | FileCheck %s

func.func @v16(%v: memref<64x2xf16>, %c: memref<4x1x4xi8>, %m: memref<64x2xi8>,
               %x: memref<8x32xf16>, %y: memref<64x32xf32>) {
  // expected-error @+1 {{vnm-lower-to-gpu: the GPU spmm kernel needs v to be a multiple of its 64-row block tile unless m = 4 (v = 16 and 32 run on the CPU path for now)}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<64x2xf16>, memref<4x1x4xi8>, memref<64x2xi8>, memref<8x32xf16>)
      outs(%y : memref<64x32xf32>) {encoding = #vnm.encoding<v = 16, n = 2, m = 8>}
  return
}

// -----

func.func @int8(%v: memref<64x2xi8>, %c: memref<1x1x4xi8>, %m: memref<64x2xi8>,
                %x: memref<8x32xi8>, %y: memref<64x32xi32>) {
  // expected-error @+1 {{vnm-lower-to-gpu: the GPU spmm kernel takes f16 or bf16 operands}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<64x2xi8>, memref<1x1x4xi8>, memref<64x2xi8>, memref<8x32xi8>)
      outs(%y : memref<64x32xi32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

func.func @dynamic_k(%v: memref<64x2xf16>, %c: memref<1x1x4xi8>, %m: memref<64x2xi8>,
                     %x: memref<?x32xf16>, %y: memref<64x32xf32>) {
  // expected-error @+1 {{vnm-lower-to-gpu: the sparse operand's R and K must be static (the kernel is specialized on them)}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<64x2xf16>, memref<1x1x4xi8>, memref<64x2xi8>, memref<?x32xf16>)
      outs(%y : memref<64x32xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

func.func @tensors(%v: tensor<64x2xf16>, %c: tensor<1x1x4xi8>, %m: tensor<64x2xi8>,
                   %x: tensor<8x32xf16>, %y: tensor<64x32xf32>) -> tensor<64x32xf32> {
  // expected-error @+1 {{vnm-lower-to-gpu: needs vnm.storage.spmm on memrefs; run --vnm-expand-storage and bufferization first}}
  %r = vnm.storage.spmm ins(%v, %c, %m, %x : tensor<64x2xf16>, tensor<1x1x4xi8>, tensor<64x2xi8>, tensor<8x32xf16>)
      outs(%y : tensor<64x32xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>} -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}

// -----

// A rejected op rewrites nothing: the accepted op before it gets no kernel
// either, and the module has no gpu.module.
// CHECK-NOT: gpu.module
// CHECK-NOT: vnm.gpu_kernel
func.func @one_bad(%v: memref<64x2xf16>, %c: memref<1x1x4xi8>, %m: memref<64x2xi8>,
                   %x: memref<8x32xf16>, %y: memref<64x32xf32>,
                   %v16: memref<64x2xf16>, %c16: memref<4x1x4xi8>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<64x2xf16>, memref<1x1x4xi8>, memref<64x2xi8>, memref<8x32xf16>)
      outs(%y : memref<64x32xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  // expected-error @+1 {{vnm-lower-to-gpu: the GPU spmm kernel needs v to be a multiple of its 64-row block tile}}
  vnm.storage.spmm ins(%v16, %c16, %m, %x : memref<64x2xf16>, memref<4x1x4xi8>, memref<64x2xi8>, memref<8x32xf16>)
      outs(%y : memref<64x32xf32>) {encoding = #vnm.encoding<v = 16, n = 2, m = 8>}
  return
}

// -----

// R = K = 2^40: R * K overflows int64_t; the kernel is refused, not
// built with wrapped 32-bit offsets.
func.func @huge(%v: memref<1099511627776x?xf16>, %c: memref<?x?x4xi8>,
                %m: memref<1099511627776x?xi8>, %x: memref<1099511627776x32xf16>,
                %y: memref<1099511627776x32xf32>) {
  // expected-error @+1 {{vnm-lower-to-gpu: the GPU spmm kernel indexes A with 32-bit offsets}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<1099511627776x?xf16>, memref<?x?x4xi8>, memref<1099511627776x?xi8>, memref<1099511627776x32xf16>)
      outs(%y : memref<1099511627776x32xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

// Quantized spmm forms have no GPU kernel yet: refused with the reason.
func.func @dequantizing(%v: memref<128x16xi8>, %c: memref<2x8x4xi8>,
                        %m: memref<128x16xi8>, %x: memref<64x32xi8>,
                        %s: memref<128xf32>, %y: memref<128x32xf16>) {
  // expected-error @+1 {{vnm-lower-to-gpu: no GPU kernel for a quantized spmm (weight scales, or a weight of another element type than rhs) yet; the CPU pipeline (vnm-lower-to-cpu-pipeline) runs it}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<128x16xi8>, memref<2x8x4xi8>, memref<128x16xi8>, memref<64x32xi8>)
      weight_scales(%s : memref<128xf32>)
      outs(%y : memref<128x32xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

func.func @mixed(%v: memref<128x16xi4>, %c: memref<2x8x4xi8>,
                 %m: memref<128x16xi8>, %x: memref<64x32xi8>,
                 %y: memref<128x32xi32>) {
  // expected-error @+1 {{vnm-lower-to-gpu: no GPU kernel for a quantized spmm}}
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<128x16xi4>, memref<2x8x4xi8>, memref<128x16xi8>, memref<64x32xi8>)
      outs(%y : memref<128x32xi32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}
