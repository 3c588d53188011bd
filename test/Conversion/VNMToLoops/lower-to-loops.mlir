// RUN: vnm-opt %s --vnm-lower-to-loops --split-input-file | FileCheck %s

// spmm: checks the storage through the runtime, then loops over rows, N,
// groups and the two kept slots, gathering rhs rows through colidx/meta.
// CHECK-LABEL: func.func private @vnm_rt_verify_storage_f16
// CHECK-SAME: attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @spmm(
// CHECK-SAME: %[[V:[^:]*]]: memref<128x16xf16>, %[[C:[^:]*]]: memref<2x8x4xi8>, %[[M:[^:]*]]: memref<128x16xi8>, %[[X:[^:]*]]: memref<60x?xf16>, %[[B:[^:]*]]: memref<128xf32>, %[[Y:[^:]*]]: memref<128x?xf32>)
// CHECK-DAG: %[[K:.*]] = memref.dim %[[X]], %c0
// CHECK-DAG: %[[N:.*]] = memref.dim %[[X]], %c1
// CHECK: cf.assert {{.*}} "vnm.storage.spmm: init and rhs have different N"
// CHECK: cf.assert {{.*}} "vnm.storage.spmm: bias size differs from R"
// CHECK: call @vnm_rt_verify_storage_f16(
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %{{.*}}
// CHECK: scf.for %[[COL:.*]] = %{{.*}} to %[[N]]
// CHECK: %[[ACC0:.*]] = memref.load %[[Y]][%[[R]], %[[COL]]]
// CHECK: scf.for %[[G:.*]] = {{.*}} iter_args(%{{.*}} = %[[ACC0]])
// CHECK: scf.for %[[P:.*]] = %c0{{.*}} to %c2
// CHECK: %[[BLOCK:.*]] = arith.divui %[[R]], %c64
// CHECK: %[[POS:.*]] = memref.load %[[M]][%[[R]], %[[SLOT:.*]]] : memref<128x16xi8>
// CHECK: %[[OFF:.*]] = memref.load %[[C]][%[[BLOCK]], %[[G]], %{{.*}}] : memref<2x8x4xi8>
// CHECK: %[[START:.*]] = arith.muli %[[G]], %c8
// CHECK: %[[KIDX:.*]] = arith.addi %[[START]], %{{.*}}
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[KIDX]], %[[K]]
// CHECK: %[[SAFE:.*]] = arith.select %[[IN]], %[[KIDX]], %c0
// CHECK: memref.load %[[V]][%[[R]], %[[SLOT]]]
// CHECK: memref.load %[[X]][%[[SAFE]], %[[COL]]]
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: arith.select %[[IN]]
// CHECK: memref.load %[[B]][%[[R]]]
// CHECK: arith.maximumf
// CHECK: memref.store %{{.*}}, %[[Y]][%[[R]], %[[COL]]]
func.func @spmm(%v: memref<128x16xf16>, %c: memref<2x8x4xi8>,
                %m: memref<128x16xi8>, %x: memref<60x?xf16>,
                %b: memref<128xf32>, %y: memref<128x?xf32>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<128x16xf16>, memref<2x8x4xi8>,
                       memref<128x16xi8>, memref<60x?xf16>)
      bias(%b : memref<128xf32>) outs(%y : memref<128x?xf32>)
      {encoding = #vnm.encoding<v = 64, n = 2, m = 8>, accumulate,
       activation = #vnm.activation<relu>}
  return
}

// -----

// Integer operands accumulate in i32.
// CHECK-LABEL: func.func @spmm_i8(
// CHECK: call @vnm_rt_verify_storage_i8(
// CHECK: arith.extsi %{{.*}} : i8 to i32
// CHECK: arith.muli
// CHECK: arith.addi
func.func @spmm_i8(%v: memref<64x2xi8>, %c: memref<1x1x4xi8>,
                   %m: memref<64x2xi8>, %x: memref<8x16xi8>,
                   %y: memref<64x16xi32>) {
  vnm.storage.spmm ins(%v, %c, %m, %x : memref<64x2xi8>, memref<1x1x4xi8>,
                       memref<64x2xi8>, memref<8x16xi8>)
      outs(%y : memref<64x16xi32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

// prune and compress are runtime calls into the format library, with the
// operands cast to fully dynamic strided memrefs and (v, n, m) as i64.
// CHECK-DAG: func.func private @vnm_rt_compress_bf16(memref<?x?xbf16, strided<[?, ?], offset: ?>>, memref<?x?xbf16, strided<[?, ?], offset: ?>>, memref<?x?x?xi8, strided<[?, ?, ?], offset: ?>>, memref<?x?xi8, strided<[?, ?], offset: ?>>, i64, i64, i64) attributes {llvm.emit_c_interface}
// CHECK-DAG: func.func private @vnm_rt_prune_bf16
// CHECK-LABEL: func.func @prune_compress(
// CHECK-DAG: %[[V64:.*]] = arith.constant 64 : i64
// CHECK-DAG: %[[N2:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[M8:.*]] = arith.constant 8 : i64
// CHECK: call @vnm_rt_prune_bf16(%{{.*}}, %{{.*}}, %[[V64]], %[[N2]], %[[M8]])
// CHECK: call @vnm_rt_compress_bf16(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[V64]], %[[N2]], %[[M8]])
func.func @prune_compress(%w: memref<64x16xbf16>, %p: memref<64x16xbf16>,
                          %v: memref<64x4xbf16>, %c: memref<1x2x4xi8>,
                          %m: memref<64x4xi8>) {
  vnm.storage.prune ins(%w : memref<64x16xbf16>) outs(%p : memref<64x16xbf16>)
      {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  vnm.storage.compress ins(%w : memref<64x16xbf16>)
      outs(%v, %c, %m : memref<64x4xbf16>, memref<1x2x4xi8>, memref<64x4xi8>)
      {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

// decompress zero-fills, then scatters each kept value to its column unless
// the column is padding of a ragged last group.
// CHECK-LABEL: func.func @decompress(
// CHECK: call @vnm_rt_verify_storage_f32(
// CHECK: memref.store %{{.*}}, %[[D:.*]][%{{.*}}, %{{.*}}] : memref<64x12xf32>
// CHECK: %[[IN:.*]] = arith.cmpi ult
// CHECK: scf.if %[[IN]]
// CHECK: memref.store
func.func @decompress(%v: memref<64x4xf32>, %c: memref<1x2x4xi8>,
                      %m: memref<64x4xi8>, %d: memref<64x12xf32>) {
  vnm.storage.decompress ins(%v, %c, %m : memref<64x4xf32>, memref<1x2x4xi8>,
                                          memref<64x4xi8>)
      outs(%d : memref<64x12xf32>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}

// -----

// sddmm checks the structure only (its values are the output).
// CHECK-LABEL: func.func @sddmm(
// CHECK: call @vnm_rt_verify_structure(
// CHECK: scf.for
// CHECK: arith.mulf
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @sddmm(%a: memref<64x8xf16>, %b: memref<8x16xf16>,
                 %c: memref<1x2x4xi8>, %m: memref<64x4xi8>,
                 %v: memref<64x4xf16>) {
  vnm.storage.sddmm ins(%a, %b, %c, %m : memref<64x8xf16>, memref<8x16xf16>,
                                         memref<1x2x4xi8>, memref<64x4xi8>)
      outs(%v : memref<64x4xf16>) {encoding = #vnm.encoding<v = 64, n = 2, m = 8>}
  return
}
