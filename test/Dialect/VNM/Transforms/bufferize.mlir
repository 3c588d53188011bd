// Storage ops bufferize like destination-style ops; encoded-tensor ops must
// be expanded first.
// RUN: vnm-opt %s --vnm-expand-storage --one-shot-bufferize="bufferize-function-boundaries" --canonicalize | FileCheck %s

!enc = tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>

// CHECK-LABEL: func.func @prune_compress_spmm(
// CHECK-SAME: %[[W:[^:]*]]: memref<128x64xf16{{.*}}>, %[[X:[^:]*]]: memref<64x32xf16{{.*}}>, %[[Y:[^:]*]]: memref<128x32xf32{{.*}}>)
// CHECK: %[[P:.*]] = memref.alloc() {{.*}} : memref<128x64xf16>
// CHECK: vnm.storage.prune ins(%[[W]] : {{.*}}) outs(%[[P]] : memref<128x64xf16>)
// CHECK-DAG: %[[V:.*]] = memref.alloc() {{.*}} : memref<128x16xf16>
// CHECK-DAG: %[[C:.*]] = memref.alloc() {{.*}} : memref<2x8x4xi8>
// CHECK-DAG: %[[M:.*]] = memref.alloc() {{.*}} : memref<128x16xi8>
// CHECK: vnm.storage.compress ins(%[[P]] : memref<128x64xf16>) outs(%[[V]], %[[C]], %[[M]] : memref<128x16xf16>, memref<2x8x4xi8>, memref<128x16xi8>)
// The accumulator is written in place.
// CHECK: vnm.storage.spmm ins(%[[V]], %[[C]], %[[M]], %[[X]] : {{.*}}) outs(%[[Y]] : {{.*}}) {accumulate
// CHECK: return %[[Y]]
func.func @prune_compress_spmm(%w: tensor<128x64xf16>, %x: tensor<64x32xf16>,
                               %y: tensor<128x32xf32>) -> tensor<128x32xf32> {
  %p = vnm.prune %w {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
      : tensor<128x64xf16> -> tensor<128x64xf16>
  %s = vnm.compress %p : tensor<128x64xf16> -> !enc
  %r = vnm.spmm %s, %x acc(%y : tensor<128x32xf32>)
      : !enc, tensor<64x32xf16> -> tensor<128x32xf32>
  return %r : tensor<128x32xf32>
}

// The accumulator is read later, so spmm must not overwrite it: a copy is
// made first.
// CHECK-LABEL: func.func @acc_still_used(
// CHECK-SAME: %{{[^:]*}}: memref<128x16xf16{{.*}}>, %{{[^:]*}}: memref<2x8x4xi8{{.*}}>, %{{[^:]*}}: memref<128x16xi8{{.*}}>, %{{[^:]*}}: memref<64x32xf16{{.*}}>, %[[A:[^:]*]]: memref<128x32xf32{{.*}}>)
// CHECK: %[[COPY:.*]] = memref.alloc() {{.*}} : memref<128x32xf32>
// CHECK: memref.copy %[[A]], %[[COPY]]
// CHECK: vnm.storage.spmm {{.*}} outs(%[[COPY]] : memref<128x32xf32>)
func.func @acc_still_used(%s: !enc, %x: tensor<64x32xf16>,
                          %a: tensor<128x32xf32>)
    -> (tensor<128x32xf32>, tensor<128x32xf32>) {
  %r = vnm.spmm %s, %x acc(%a : tensor<128x32xf32>)
      : !enc, tensor<64x32xf16> -> tensor<128x32xf32>
  return %r, %a : tensor<128x32xf32>, tensor<128x32xf32>
}

// Decompress and sddmm write fresh buffers; sddmm's structure is the
// pattern's.
// CHECK-LABEL: func.func @decompress_sddmm(
// CHECK: vnm.storage.decompress ins({{.*}}) outs(%{{.*}} : memref<128x64xf16>)
// CHECK: vnm.storage.sddmm ins({{.*}}) outs(%{{.*}} : memref<128x16xf32>)
func.func @decompress_sddmm(%s: !enc, %a: tensor<128x32xf16>,
                            %b: tensor<32x64xf16>)
    -> (tensor<128x64xf16>,
        tensor<128x64xf32, #vnm.encoding<v = 64, n = 2, m = 8>>) {
  %d = vnm.decompress %s : !enc -> tensor<128x64xf16>
  %t = vnm.sddmm %a, %b, %s : tensor<128x32xf16>, tensor<32x64xf16>, !enc
      -> tensor<128x64xf32, #vnm.encoding<v = 64, n = 2, m = 8>>
  return %d, %t
      : tensor<128x64xf16>, tensor<128x64xf32, #vnm.encoding<v = 64, n = 2, m = 8>>
}
