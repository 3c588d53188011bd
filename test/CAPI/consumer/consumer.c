//===- consumer.c - Uses the installed vnm C API --------------------------===//

#include "vnm-c/Compiler.h"
#include "vnm-c/Format.h"

#include <stdio.h>

int main(void) {
  VnmStorageShape shape;
  VnmStatus status = vnmFormatGetStorageShape(
      (VnmEncoding){64, 2, 8}, VnmElementTypeF16, 128, 64, &shape);
  if (!vnmStatusIsOk(status)) {
    vnmStatusDestroy(status);
    return 1;
  }
  printf("consumer-c: values %lld\n", (long long)shape.valueCount);

  VnmCompiler compiler = vnmCompilerCreate();
  VnmModule module = {NULL};
  status = vnmModuleParse(
      compiler,
      vnmStringRefCreateFromCString("func.func private @f(tensor<64x64xf16, "
                                    "#vnm.encoding<v = 64, n = 2, m = 8>>)"),
      vnmStringRefCreateFromCString("consumer"), &module);
  int ok = vnmStatusIsOk(status);
  vnmStatusDestroy(status);
  VnmString text = {NULL, 0};
  if (ok) {
    status = vnmModulePrint(module, VnmPrintFlagsNone, &text);
    ok = vnmStatusIsOk(status);
    vnmStatusDestroy(status);
  }
  if (ok)
    printf("consumer-c: %s", text.data);
  vnmStringDestroy(text);
  vnmModuleDestroy(module);
  vnmCompilerDestroy(compiler);
  return ok ? 0 : 1;
}
