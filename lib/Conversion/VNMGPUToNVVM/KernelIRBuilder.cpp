//===- KernelIRBuilder.cpp - building blocks of generated GPU kernels -----===//

#include "KernelIRBuilder.h"

using namespace mlir;
using namespace vnm::kernel;

Value KernelIRBuilder::c32(int64_t value) {
  return arith::ConstantIntOp::create(b, loc, value, 32);
}
Value KernelIRBuilder::c64(int64_t value) {
  return arith::ConstantIntOp::create(b, loc, value, 64);
}
Value KernelIRBuilder::permuteBytes(Value lo, Value hi, Value selector) {
  return NVVM::PermuteOp::create(b, loc, b.getI32Type(), lo, hi, selector,
                                 NVVM::PermuteMode::DEFAULT);
}
Value KernelIRBuilder::zext64(Value x) {
  return arith::ExtUIOp::create(b, loc, b.getI64Type(), x);
}

Value KernelIRBuilder::roundTo(Type type, Value x) {
  return x.getType() == type ? x : arith::TruncFOp::create(b, loc, type, x);
}

Value KernelIRBuilder::offsetBytes(Value base, Value byteOffset) {
  return LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base,
                             ValueRange{byteOffset});
}

Value KernelIRBuilder::elementAddress(Value base, Value index,
                                      int64_t elementBytes) {
  return offsetBytes(base, mul(zext64(index), c64(elementBytes)));
}

Value KernelIRBuilder::load(Type type, Value ptr, unsigned alignment) {
  return LLVM::LoadOp::create(b, loc, type, ptr, alignment);
}

SmallVector<Value> KernelIRBuilder::loadWordsHere(Value ptr, int words) {
  assert((words == 1 || words == 2 || words == 4) && "1, 2 or 4 words");
  std::string registers, constraints;
  for (int i = 0; i < words; ++i) {
    registers += (i ? ", $" : "$") + std::to_string(i);
    constraints += "=r,";
  }
  std::string vector = words == 1 ? "" : ".v" + std::to_string(words);
  std::string text = "ld.global.nc" + vector + ".b32 " +
                     (words == 1 ? registers : "{" + registers + "}") + ", [$" +
                     std::to_string(words) + "];";
  Type resultType = words == 1
                        ? i32()
                        : Type(LLVM::LLVMStructType::getLiteral(
                              b.getContext(), SmallVector<Type>(words, i32())));
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, resultType, ValueRange{ptr}, text, constraints + "l",
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None, /*asm_dialect=*/{},
      /*operand_attrs=*/{});
  if (words == 1)
    return {asmOp.getResult(0)};
  SmallVector<Value> values;
  for (int i = 0; i < words; ++i)
    values.push_back(
        LLVM::ExtractValueOp::create(b, loc, asmOp.getResult(0), i));
  return values;
}

Value KernelIRBuilder::ptxValue(Type type, StringRef text, ValueRange operands,
                                StringRef constraints, bool sideEffects) {
  return LLVM::InlineAsmOp::create(
             b, loc, type, operands, text, constraints, sideEffects,
             /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
             /*asm_dialect=*/{}, /*operand_attrs=*/{})
      .getResult(0);
}

Value KernelIRBuilder::mulWide(Value x, Value y) {
  return ptxValue(b.getI64Type(), "mul.wide.u32 $0, $1, $2;", {x, y}, "=l,r,r",
                  /*sideEffects=*/false);
}

void KernelIRBuilder::store(Value value, Value ptr, unsigned alignment) {
  LLVM::StoreOp::create(b, loc, value, ptr, alignment);
}

void KernelIRBuilder::ptx(StringRef text, ValueRange operands,
                          StringRef constraints) {
  std::string clobbered = constraints.str();
  clobbered += clobbered.empty() ? "~{memory}" : ",~{memory}";
  LLVM::InlineAsmOp::create(b, loc, TypeRange(), operands, text, clobbered,
                            /*has_side_effects=*/true,
                            /*is_align_stack=*/false,
                            LLVM::tailcallkind::TailCallKind::None,
                            /*asm_dialect=*/{}, /*operand_attrs=*/{});
}

Value KernelIRBuilder::sharedAddress(Value ptr) {
  return LLVM::PtrToIntOp::create(b, loc, i32(), ptr);
}

Value KernelIRBuilder::threadIdX() {
  return NVVM::ThreadIdXOp::create(b, loc, i32());
}

void KernelIRBuilder::ifThen(Value cond, function_ref<void()> thenBody) {
  auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  thenBody();
}

void KernelIRBuilder::ifThenElse(Value cond, function_ref<void()> thenBody,
                                 function_ref<void()> elseBody) {
  auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  thenBody();
  b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
  elseBody();
}
