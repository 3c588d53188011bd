// sddmm on the CPU against linalg.matmul masked by the pattern, for several
// formats, f32 and f16, aligned and ragged R, K and D.
// RUN: %gen-test sddmm --v 16 --m 4 --type f32 --rows 32 --cols 16 --depth 16 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test sddmm --v 16 --m 4 --type f32 --out-type f32 --rows 35 --cols 15 --depth 9 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test sddmm --v 16 --m 4 --type f16 --rows 32 --cols 16 --depth 16 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test sddmm --v 16 --m 4 --type f16 --out-type f16 --rows 35 --cols 15 --depth 9 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test sddmm --v 64 --m 8 --type f32 --rows 128 --cols 32 --depth 16 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test sddmm --v 64 --m 8 --type f32 --out-type f32 --rows 131 --cols 27 --depth 9 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test sddmm --v 64 --m 8 --type f16 --rows 128 --cols 32 --depth 16 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test sddmm --v 64 --m 8 --type f16 --out-type f16 --rows 131 --cols 27 --depth 9 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test sddmm --v 128 --m 16 --type f32 --rows 256 --cols 64 --depth 16 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test sddmm --v 128 --m 16 --type f32 --out-type f32 --rows 259 --cols 51 --depth 9 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test sddmm --v 128 --m 16 --type f16 --rows 256 --cols 64 --depth 16 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test sddmm --v 128 --m 16 --type f16 --out-type f16 --rows 259 --cols 51 --depth 9 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test sddmm --v 32 --m 32 --type f32 --rows 64 --cols 128 --depth 16 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test sddmm --v 32 --m 32 --type f32 --out-type f32 --rows 67 --cols 99 --depth 9 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test sddmm --v 32 --m 32 --type f16 --rows 64 --cols 128 --depth 16 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// RUN: %gen-test sddmm --v 32 --m 32 --type f16 --out-type f16 --rows 67 --cols 99 --depth 9 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s
// K = 2M + 1: padding slots at column K (the rhs buffer's NaN column).
// RUN: %gen-test sddmm --v 16 --m 4 --type f32 --rows 19 --cols 9 --depth 5 | vnm-opt --vnm-lower-to-cpu-pipeline | %run-cpu | FileCheck %s

// CHECK: vnm-test: seed
// CHECK: vnm-compare 1: PASS
// CHECK: vnm-compare 2: PASS
// CHECK-NOT: FAIL
