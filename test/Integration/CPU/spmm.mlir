// spmm on the CPU against linalg.matmul of the decompressed weight, for
// several formats, f32 and f16, aligned and ragged R, K and N.
// RUN: %gen-test spmm --v 16 --m 4 --type f32 --rows 32 --cols 16 --n-cols 16 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test spmm --v 16 --m 4 --type f32 --rows 35 --cols 15 --n-cols 7 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test spmm --v 16 --m 4 --type f16 --rows 32 --cols 16 --n-cols 16 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test spmm --v 16 --m 4 --type f16 --rows 35 --cols 15 --n-cols 7 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test spmm --v 64 --m 8 --type f32 --rows 128 --cols 32 --n-cols 16 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test spmm --v 64 --m 8 --type f32 --rows 131 --cols 27 --n-cols 7 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test spmm --v 64 --m 8 --type f16 --rows 128 --cols 32 --n-cols 16 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test spmm --v 64 --m 8 --type f16 --rows 131 --cols 27 --n-cols 7 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test spmm --v 128 --m 16 --type f32 --rows 256 --cols 64 --n-cols 16 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test spmm --v 128 --m 16 --type f32 --rows 259 --cols 51 --n-cols 7 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test spmm --v 128 --m 16 --type f16 --rows 256 --cols 64 --n-cols 16 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test spmm --v 128 --m 16 --type f16 --rows 259 --cols 51 --n-cols 7 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test spmm --v 32 --m 32 --type f32 --rows 64 --cols 128 --n-cols 16 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test spmm --v 32 --m 32 --type f32 --rows 67 --cols 99 --n-cols 7 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test spmm --v 32 --m 32 --type f16 --rows 64 --cols 128 --n-cols 16 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test spmm --v 32 --m 32 --type f16 --rows 67 --cols 99 --n-cols 7 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// K = 2M + 1: the last group holds one real column, so every row keeps a
// zero from the padding, right at column K (the rhs buffer's NaN row).
// RUN: %gen-test spmm --v 16 --m 4 --type f32 --rows 19 --cols 9 --n-cols 5 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test spmm --v 64 --m 8 --type f16 --rows 70 --cols 17 --n-cols 6 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// K smaller than one group, a single partial row block, n = 1, bf16:
// RUN: %gen-test spmm --v 32 --m 32 --type f32 --rows 5 --cols 5 --n-cols 3 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test spmm --v 16 --m 7 --n 1 --type f16 --rows 21 --cols 30 --n-cols 5 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test spmm --v 64 --m 8 --type bf16 --out-type bf16 --rows 70 --cols 40 --n-cols 9 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s

// CHECK: vnm-test: seed
// CHECK: vnm-compare 1: PASS
// CHECK: vnm-compare 2: PASS
// CHECK-NOT: FAIL
