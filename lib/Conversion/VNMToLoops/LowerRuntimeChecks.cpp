//===- LowerRuntimeChecks.cpp - the vnm-lower-runtime-checks pass ---------===//
//
// Upstream lowers cf.assert to a message on stdout and abort(): the message
// is lost unless stdout is a terminal, and under mlir-runner (or any host
// with LLVM's signal handlers) the abort prints a stack dump asking for a
// bug report. A failed check of generated code is the user's error, not a
// crash: each cf.assert becomes a call of the CPU runtime's check_failed,
// which prints the message to stderr and exits with status 1.
//
//===----------------------------------------------------------------------===//

#include "vnm/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

#include "RuntimeCalls.h"

namespace vnm {
#define GEN_PASS_DEF_VNMLOWERRUNTIMECHECKS
#include "vnm/Conversion/Passes.h.inc"
} // namespace vnm

using namespace mlir;

namespace {

/// A private constant global holding `text`'s bytes, made once per text.
memref::GlobalOp getMessageGlobal(SymbolTable &symbols, ModuleOp module,
                                  StringRef text,
                                  llvm::StringMap<memref::GlobalOp> &made) {
  if (memref::GlobalOp global = made.lookup(text))
    return global;
  // Built detached: the symbol table inserts it under a unique name.
  OpBuilder b(module.getContext());
  auto type =
      MemRefType::get({static_cast<int64_t>(text.size())}, b.getI8Type());
  SmallVector<int8_t> bytes(text.begin(), text.end());
  auto value = DenseElementsAttr::get(
      RankedTensorType::get(type.getShape(), b.getI8Type()),
      ArrayRef<int8_t>(bytes));
  auto global = memref::GlobalOp::create(
      b, module.getLoc(), "vnm_check_message", b.getStringAttr("private"), type,
      value, /*constant=*/true, /*alignment=*/nullptr);
  symbols.insert(global, module.getBody()->begin());
  made[text] = global;
  return global;
}

struct LowerRuntimeChecksPass
    : public vnm::impl::VNMLowerRuntimeChecksBase<LowerRuntimeChecksPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<cf::AssertOp> asserts;
    // Host code only: the runtime's function is declared in this module's
    // symbol table, which nested ones (a gpu.module) do not see.
    module.walk([&](cf::AssertOp op) {
      if (op->getParentWithTrait<OpTrait::SymbolTable>() == module)
        asserts.push_back(op);
    });
    llvm::StringMap<memref::GlobalOp> messages;
    SymbolTable symbols(module);
    for (cf::AssertOp op : asserts) {
      // An empty message would make an empty global.
      std::string text =
          op.getMsg().empty() ? std::string("check failed") : op.getMsg().str();
      memref::GlobalOp global =
          getMessageGlobal(symbols, module, text, messages);
      OpBuilder b(op);
      Location loc = op.getLoc();
      Value failed = arith::XOrIOp::create(
          b, loc, op.getArg(),
          arith::ConstantOp::create(b, loc, b.getBoolAttr(true)));
      scf::IfOp::create(b, loc, failed, [&](OpBuilder &then, Location at) {
        Value message = memref::GetGlobalOp::create(then, at, global.getType(),
                                                    global.getSymName());
        vnm::loops::callRuntime(then, at, module, "check_failed", {message},
                                {});
        scf::YieldOp::create(then, at);
      });
      op.erase();
    }
  }
};

} // namespace
