// The spmm epilogue: accumulator, bias, relu and gelu, converted last, against
// the same epilogue written densely after linalg.matmul.
// RUN: %gen-test spmm --v 64 --m 8 --type f16 --rows 131 --cols 77 --n-cols 9 --acc | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test spmm --v 16 --m 4 --type f32 --rows 40 --cols 36 --n-cols 8 --bias --activation relu | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test spmm --v 32 --m 16 --type f16 --out-type f16 --rows 70 --cols 50 --n-cols 6 --acc --bias --activation gelu | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test spmm --v 128 --m 32 --type bf16 --rows 128 --cols 64 --n-cols 8 --acc --bias --activation relu | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s

// CHECK: vnm-compare 1: PASS
// CHECK: vnm-compare 2: PASS
// CHECK-NOT: FAIL
