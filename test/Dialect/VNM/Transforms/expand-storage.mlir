// RUN: vnm-opt %s --vnm-expand-storage --allow-unregistered-dialect | FileCheck %s

!enc = tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>

// An encoded argument becomes its three storage arrays; spmm without an
// accumulator writes into a fresh tensor (N is dynamic here).
// CHECK-LABEL: func.func @spmm(
// CHECK-SAME: %[[V:[^:]*]]: tensor<128x16xf16>, %[[C:[^:]*]]: tensor<2x8x4xi8>, %[[M:[^:]*]]: tensor<128x16xi8>, %[[X:[^:]*]]: tensor<64x?xf16>)
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[N:.*]] = tensor.dim %[[X]], %[[C1]]
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<128x?xf32>
// CHECK: %[[Y:.*]] = vnm.storage.spmm ins(%[[V]], %[[C]], %[[M]], %[[X]] : {{.*}}) outs(%[[E]] : tensor<128x?xf32>)
// CHECK-SAME: {encoding = #vnm.encoding<v = 64, n = 2, m = 8>} -> tensor<128x?xf32>
// CHECK: return %[[Y]]
func.func @spmm(%w: !enc, %x: tensor<64x?xf16>) -> tensor<128x?xf32> {
  %y = vnm.spmm %w, %x : !enc, tensor<64x?xf16> -> tensor<128x?xf32>
  return %y : tensor<128x?xf32>
}

// With an accumulator the op accumulates into it; bias and activation stay.
// CHECK-LABEL: func.func @spmm_acc(
// CHECK-SAME: %[[V:[^:]*]]: tensor<128x16xf16>, %[[C:[^:]*]]: tensor<2x8x4xi8>, %[[M:[^:]*]]: tensor<128x16xi8>, %[[X:[^:]*]]: tensor<64x8xf16>, %[[A:[^:]*]]: tensor<128x8xf16>, %[[B:[^:]*]]: tensor<128xf16>)
// CHECK: vnm.storage.spmm ins(%[[V]], %[[C]], %[[M]], %[[X]] : {{.*}}) bias(%[[B]] : tensor<128xf16>) outs(%[[A]] : tensor<128x8xf16>)
// CHECK-SAME: accumulate, activation = #vnm.activation<gelu>
func.func @spmm_acc(%w: !enc, %x: tensor<64x8xf16>, %acc: tensor<128x8xf16>,
                    %b: tensor<128xf16>) -> tensor<128x8xf16> {
  %y = vnm.spmm %w, %x acc(%acc : tensor<128x8xf16>) bias(%b : tensor<128xf16>)
      {activation = #vnm.activation<gelu>}
      : !enc, tensor<64x8xf16> -> tensor<128x8xf16>
  return %y : tensor<128x8xf16>
}

// An encoded result becomes three results; compress gets empty storage.
// CHECK-LABEL: func.func @compress(
// CHECK-SAME: -> (tensor<128x16xf16>, tensor<2x8x4xi8>, tensor<128x16xi8>)
// CHECK-DAG: %[[E0:.*]] = tensor.empty() : tensor<128x16xf16>
// CHECK-DAG: %[[E1:.*]] = tensor.empty() : tensor<2x8x4xi8>
// CHECK-DAG: %[[E2:.*]] = tensor.empty() : tensor<128x16xi8>
// CHECK: %[[S:.*]]:3 = vnm.storage.compress ins(%{{.*}} : tensor<128x64xf16>) outs(%[[E0]], %[[E1]], %[[E2]] : {{.*}})
// CHECK: return %[[S]]#0, %[[S]]#1, %[[S]]#2
func.func @compress(%w: tensor<128x64xf16>) -> !enc {
  %s = vnm.compress %w : tensor<128x64xf16> -> !enc
  return %s : !enc
}

// CHECK-LABEL: func.func @decompress(
// CHECK-SAME: %[[V:[^:]*]]: tensor<128x16xf16>, %[[C:[^:]*]]: tensor<2x8x4xi8>, %[[M:[^:]*]]: tensor<128x16xi8>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<128x64xf16>
// CHECK: vnm.storage.decompress ins(%[[V]], %[[C]], %[[M]] : {{.*}}) outs(%[[E]] : tensor<128x64xf16>)
func.func @decompress(%s: !enc) -> tensor<128x64xf16> {
  %d = vnm.decompress %s : !enc -> tensor<128x64xf16>
  return %d : tensor<128x64xf16>
}

// Dynamic dense sizes are carried over to the fresh init.
// CHECK-LABEL: func.func @prune(
// CHECK-SAME: %[[W:.*]]: tensor<?x64xf32>)
// CHECK: %[[R:.*]] = tensor.dim %[[W]], %{{.*}}
// CHECK: %[[E:.*]] = tensor.empty(%[[R]]) : tensor<?x64xf32>
// CHECK: vnm.storage.prune ins(%[[W]] : tensor<?x64xf32>) outs(%[[E]] : tensor<?x64xf32>)
func.func @prune(%w: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %p = vnm.prune %w {encoding = #vnm.encoding<v = 16, n = 1, m = 4>}
      : tensor<?x64xf32> -> tensor<?x64xf32>
  return %p : tensor<?x64xf32>
}

// sddmm computes new values and shares the pattern's colidx and meta.
// CHECK-LABEL: func.func @sddmm(
// CHECK-SAME: %[[A:[^:]*]]: tensor<128x32xf16>, %[[B:[^:]*]]: tensor<32x64xf16>, %[[V:[^:]*]]: tensor<128x16xf16>, %[[C:[^:]*]]: tensor<2x8x4xi8>, %[[M:[^:]*]]: tensor<128x16xi8>)
// CHECK-SAME: -> (tensor<128x16xf32>, tensor<2x8x4xi8>, tensor<128x16xi8>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<128x16xf32>
// CHECK: %[[S:.*]] = vnm.storage.sddmm ins(%[[A]], %[[B]], %[[C]], %[[M]] : {{.*}}) outs(%[[E]] : tensor<128x16xf32>)
// CHECK: return %[[S]], %[[C]], %[[M]]
func.func @sddmm(%a: tensor<128x32xf16>, %b: tensor<32x64xf16>, %p: !enc)
    -> tensor<128x64xf32, #vnm.encoding<v = 64, n = 2, m = 8>> {
  %s = vnm.sddmm %a, %b, %p : tensor<128x32xf16>, tensor<32x64xf16>, !enc
      -> tensor<128x64xf32, #vnm.encoding<v = 64, n = 2, m = 8>>
  return %s : tensor<128x64xf32, #vnm.encoding<v = 64, n = 2, m = 8>>
}

// assemble and disassemble disappear.
// CHECK-LABEL: func.func @assemble_disassemble(
// CHECK-SAME: %[[V:[^:]*]]: tensor<128x16xf16>, %[[C:[^:]*]]: tensor<2x8x4xi8>, %[[M:[^:]*]]: tensor<128x16xi8>)
// CHECK-NOT: vnm.assemble
// CHECK-NOT: vnm.disassemble
// CHECK: vnm.storage.decompress ins(%[[V]], %[[C]], %[[M]]
func.func @assemble_disassemble(%v: tensor<128x16xf16>, %c: tensor<2x8x4xi8>,
                                %m: tensor<128x16xi8>) -> tensor<128x64xf16> {
  %s = vnm.assemble %v, %c, %m
      : tensor<128x16xf16>, tensor<2x8x4xi8>, tensor<128x16xi8> -> !enc
  %v2, %c2, %m2 = vnm.disassemble %s
      : !enc -> tensor<128x16xf16>, tensor<2x8x4xi8>, tensor<128x16xi8>
  %s2 = vnm.assemble %v2, %c2, %m2
      : tensor<128x16xf16>, tensor<2x8x4xi8>, tensor<128x16xi8> -> !enc
  %d = vnm.decompress %s2 : !enc -> tensor<128x64xf16>
  return %d : tensor<128x64xf16>
}

// Calls and scf.for loop-carried values are expanded as well.
// CHECK-LABEL: func.func @calls_and_loops(
// CHECK-SAME: %[[V:[^:]*]]: tensor<128x16xf16>, %[[C:[^:]*]]: tensor<2x8x4xi8>, %[[M:[^:]*]]: tensor<128x16xi8>
// CHECK: %[[R:.*]]:3 = call @compress(%{{.*}}) : (tensor<128x64xf16>) -> (tensor<128x16xf16>, tensor<2x8x4xi8>, tensor<128x16xi8>)
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[V]], %{{.*}} = %[[C]], %{{.*}} = %[[M]]) -> (tensor<128x16xf16>, tensor<2x8x4xi8>, tensor<128x16xi8>)
// CHECK: scf.yield %[[R]]#0, %[[R]]#1, %[[R]]#2
func.func @calls_and_loops(%s: !enc, %w: tensor<128x64xf16>, %n: index) -> !enc {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = func.call @compress(%w) : (tensor<128x64xf16>) -> !enc
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %s) -> (!enc) {
    scf.yield %t : !enc
  }
  return %r : !enc
}

// An op the pass does not know keeps its encoded operand through assemble.
// CHECK-LABEL: func.func @unknown_user(
// CHECK-SAME: %[[V:[^:]*]]: tensor<128x16xf16>, %[[C:[^:]*]]: tensor<2x8x4xi8>, %[[M:[^:]*]]: tensor<128x16xi8>)
// CHECK: %[[S:.*]] = vnm.assemble %[[V]], %[[C]], %[[M]]
// CHECK: "test.use"(%[[S]])
func.func @unknown_user(%s: !enc) {
  "test.use"(%s) : (!enc) -> ()
  return
}

// A declaration is expanded like a definition, so a function defined in
// another module that went through this pass links with its callers here.
// CHECK-LABEL: func.func private @external(tensor<128x16xf16>, tensor<2x8x4xi8>, tensor<128x16xi8>) -> tensor<128x64xf16>
// CHECK-LABEL: func.func @call_external(
// CHECK-SAME: %[[V:[^:]*]]: tensor<128x16xf16>, %[[C:[^:]*]]: tensor<2x8x4xi8>, %[[M:[^:]*]]: tensor<128x16xi8>)
// CHECK: call @external(%[[V]], %[[C]], %[[M]])
func.func private @external(!enc) -> tensor<128x64xf16>
func.func @call_external(%s: !enc) -> tensor<128x64xf16> {
  %d = func.call @external(%s) : (!enc) -> tensor<128x64xf16>
  return %d : tensor<128x64xf16>
}

// Argument and result attributes stay with their values: an encoded one's
// go on each of its three storage arrays.
// CHECK-LABEL: func.func @attributes(
// CHECK-SAME: %{{[^:]*}}: tensor<64x8xf16> {test.x},
// CHECK-SAME: %{{[^:]*}}: tensor<128x16xf16> {test.w}, %{{[^:]*}}: tensor<2x8x4xi8> {test.w}, %{{[^:]*}}: tensor<128x16xi8> {test.w},
// CHECK-SAME: %{{[^:]*}}: i1)
// CHECK-SAME: -> (tensor<128x16xf16> {test.r}, tensor<2x8x4xi8> {test.r}, tensor<128x16xi8> {test.r}, tensor<128x8xf32> {test.y})
func.func @attributes(%x: tensor<64x8xf16> {test.x}, %w: !enc {test.w}, %b: i1)
    -> (!enc {test.r}, tensor<128x8xf32> {test.y}) {
  %y = vnm.spmm %w, %x : !enc, tensor<64x8xf16> -> tensor<128x8xf32>
  return %w, %y : !enc, tensor<128x8xf32>
}

// Branches forward the three arrays to blocks whose arguments are expanded.
// CHECK-LABEL: func.func @branches(
// CHECK-SAME: %[[V:[^:]*]]: tensor<128x16xf16>, %[[C:[^:]*]]: tensor<2x8x4xi8>, %[[M:[^:]*]]: tensor<128x16xi8>, %[[B:[^:]*]]: i1)
// CHECK: cf.cond_br %[[B]], ^[[JOIN:.*]](%[[V]], %[[C]], %[[M]] : {{.*}}), ^[[OTHER:[^ ]*]]
// CHECK: ^[[OTHER]]:
// CHECK: cf.br ^[[JOIN]](%[[V]], %[[C]], %[[M]] :
// CHECK: ^[[JOIN]](%[[JV:[^:]*]]: tensor<128x16xf16>, %[[JC:[^:]*]]: tensor<2x8x4xi8>, %[[JM:[^:]*]]: tensor<128x16xi8>):
// CHECK: vnm.storage.decompress ins(%[[JV]], %[[JC]], %[[JM]] :
func.func @branches(%s: !enc, %b: i1) -> tensor<128x64xf16> {
  cf.cond_br %b, ^join(%s : !enc), ^other
^other:
  cf.br ^join(%s : !enc)
^join(%t: !enc):
  %d = vnm.decompress %t : !enc -> tensor<128x64xf16>
  return %d : tensor<128x64xf16>
}

// A region-carrying op the pass does not rewrite (here scf.execute_region)
// keeps an encoded value through assemble and disassemble, like any other
// op it does not know.
// CHECK-LABEL: func.func @unknown_region(
// CHECK-SAME: %[[V:[^:]*]]: tensor<128x16xf16>, %[[C:[^:]*]]: tensor<2x8x4xi8>, %[[M:[^:]*]]: tensor<128x16xi8>)
// CHECK: %[[S:.*]] = vnm.assemble %[[V]], %[[C]], %[[M]]
// CHECK: %[[R:.*]] = scf.execute_region
// CHECK: scf.yield %[[S]]
// CHECK: %{{.*}}, %{{.*}}, %{{.*}} = vnm.disassemble %[[R]]
func.func @unknown_region(%s: !enc) -> !enc {
  %r = scf.execute_region -> !enc {
    scf.yield %s : !enc
  }
  return %r : !enc
}
