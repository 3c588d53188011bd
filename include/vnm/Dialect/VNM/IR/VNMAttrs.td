//===- VNMAttrs.td - vnm attributes ------------------------*- tablegen -*-===//

#ifndef VNM_DIALECT_VNM_IR_VNMATTRS_TD
#define VNM_DIALECT_VNM_IR_VNMATTRS_TD

include "vnm/Dialect/VNM/IR/VNMDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/TensorEncoding.td"

class VNM_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<VNM_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def VNM_EncodingAttr : VNM_Attr<"Encoding", "encoding",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "V:N:M structured-sparse tensor encoding";
  let description = [{
    Put on a rank-2 tensor of R rows by K columns, it says the tensor is held
    in the V:N:M format: rows in blocks of `v`, columns in groups of `m`,
    four columns selected per `v`x`m` block, `n` values kept per row among
    those four. Density is `n/m`. See docs/spec.md (encoding C1-C6).

    ```mlir
    tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>
    ```
  }];
  let parameters = (ins "int64_t":$v, "int64_t":$n, "int64_t":$m);
  let assemblyFormat = "`<` `v` `=` $v `,` `n` `=` $n `,` `m` `=` $m `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Number of column groups of a matrix with `cols` columns (ceil(K/M)).
    int64_t getNumGroups(int64_t cols) const;
    /// Number of row blocks of a matrix with `rows` rows (ceil(R/V)).
    int64_t getNumBlocks(int64_t rows) const;
  }];
}

def VNM_ActivationNone : I32EnumAttrCase<"none", 0>;
def VNM_ActivationRelu : I32EnumAttrCase<"relu", 1>;
def VNM_ActivationGelu : I32EnumAttrCase<"gelu", 2>;
def VNM_ActivationKind : I32EnumAttr<"Activation",
    "activation applied by the spmm epilogue",
    [VNM_ActivationNone, VNM_ActivationRelu, VNM_ActivationGelu]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::vnm";
}
def VNM_ActivationAttr : EnumAttr<VNM_Dialect, VNM_ActivationKind,
                                  "activation"> {
  let assemblyFormat = "`<` $value `>`";
}

#endif // VNM_DIALECT_VNM_IR_VNMATTRS_TD
