//===- consumer.cpp - Uses the installed vnm dialect library --------------===//

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

#include "vnm/Dialect/VNM/IR/VNM.h"

#include "llvm/Support/raw_ostream.h"

int main() {
  mlir::DialectRegistry registry;
  vnm::registerVNMDialect(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  mlir::Attribute attr =
      mlir::parseAttribute("#vnm.encoding<v = 32, n = 1, m = 16>", &context);
  auto encoding = llvm::dyn_cast_if_present<vnm::EncodingAttr>(attr);
  if (!encoding)
    return 1;
  llvm::outs() << "consumer-cxx: " << encoding << "\n";
  return 0;
}
