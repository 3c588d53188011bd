// What vnm-expand-storage refuses, each checked before anything is
// rewritten: an encoded tensor inside another type (a function value, a
// tuple), a reference to a function whose signature the expansion changes
// other than a call, and a branch that forwards an encoded tensor but is not
// one of those the pass expands. Ops it does not know keep encoded values
// through vnm.assemble / vnm.disassemble instead (expand-storage.mlir).
// RUN: vnm-opt %s --vnm-expand-storage --allow-unregistered-dialect -split-input-file -verify-diagnostics
// RUN: not vnm-opt %s --vnm-expand-storage --allow-unregistered-dialect -split-input-file --mlir-print-ir-after-failure 2>&1 | FileCheck %s

!enc = tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>

func.func @callee(%s: !enc) {
  return
}

func.func @function_value() -> ((!enc) -> ()) {
  // expected-error @+1 {{'func.constant' op vnm-expand-storage: a result has type '(tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>) -> ()', which holds an encoded tensor inside another type; only encoded tensors themselves can be expanded into their storage tensors}}
  %f = func.constant @callee : (!enc) -> ()
  return %f : (!enc) -> ()
}

// -----

!enc = tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>

// A function-typed argument: an indirect call through it could not be
// matched with the expanded callee.
// expected-error @+1 {{'func.func' op vnm-expand-storage: a block argument of its region has type '(tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>) -> ()', which holds an encoded tensor}}
func.func @indirect(%s: !enc, %f: (!enc) -> ()) {
  func.call_indirect %f(%s) : (!enc) -> ()
  return
}

// -----

!enc = tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>

// expected-error @+1 {{'func.func' op vnm-expand-storage: a block argument of its region has type 'tuple<tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>>', which holds an encoded tensor}}
func.func @tuple(%t: tuple<!enc>) {
  return
}

// -----

!enc = tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>

func.func @unknown_tuple(%s: !enc) {
  // expected-error @+1 {{'test.pack' op vnm-expand-storage: a result has type 'tuple<tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>, i32>', which holds an encoded tensor}}
  %t = "test.pack"(%s) : (!enc) -> tuple<!enc, i32>
  return
}

// -----

!enc = tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>

// expected-note @+1 {{@callee is defined here}}
func.func @callee(%s: !enc) -> !enc {
  return %s : !enc
}

func.func @symbol_reference() {
  // expected-error @+1 {{'test.reference' op vnm-expand-storage: refers to @callee, whose signature has an encoded tensor and changes with the expansion; only func.call is rewritten with it}}
  "test.reference"() {callee = @callee} : () -> ()
  return
}

// -----

!enc = tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>

// The reference is checked through nested symbol tables too.
module @inner {
  // expected-note @+1 {{@callee is defined here}}
  func.func @callee() -> !enc {
    %s = "test.make"() : () -> !enc
    return %s : !enc
  }
}

func.func @nested_reference() {
  // expected-error @+1 {{refers to @callee, whose signature has an encoded tensor}}
  "test.reference"() {callee = @inner::@callee} : () -> ()
  return
}

// -----

!enc = tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>

func.func @switch(%s: !enc, %i: i32) -> tensor<128x64xf16> {
  // expected-error @+1 {{'cf.switch' op vnm-expand-storage: forwards an encoded tensor to another block through a branch other than cf.br and cf.cond_br, which the pass cannot expand}}
  cf.switch %i : i32, [ default: ^bb1(%s : !enc) ]
^bb1(%t: !enc):
  %d = vnm.decompress %t : !enc -> tensor<128x64xf16>
  return %d : tensor<128x64xf16>
}

// -----

!enc = tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>

// Nothing is rewritten when anything is refused: the spmm before the
// refused op stays as it was.
// CHECK-LABEL: IR Dump After VNMExpandStorage Failed
// CHECK-LABEL: func.func @nothing_rewritten(%{{[^:]*}}: tensor<128x64xf16, #vnm.encoding<v = 64, n = 2, m = 8>>,
// CHECK-NEXT: vnm.spmm
func.func @nothing_rewritten(%s: !enc, %x: tensor<64x8xf16>, %i: i32)
    -> tensor<128x8xf32> {
  %y = vnm.spmm %s, %x : !enc, tensor<64x8xf16> -> tensor<128x8xf32>
  // expected-error @+1 {{'cf.switch' op vnm-expand-storage: forwards an encoded tensor}}
  cf.switch %i : i32, [ default: ^bb1(%s : !enc) ]
^bb1(%t: !enc):
  return %y : tensor<128x8xf32>
}
