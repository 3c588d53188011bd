// vnm-dump-kernels fails with a diagnostic and a non-zero exit when it
// cannot write what it should: an output-dir that cannot be created (its
// parent is a regular file), an output-dir that is a regular file, a file it
// must write that is a directory, names that are not plain file names, two
// objects for one file. Tests run as root, so nothing here relies on file
// permissions. Name and collision errors are found before output-dir is
// created.
// RUN: rm -rf %t && mkdir -p %t && split-file %s %t
// RUN: touch %t/regular

// RUN: not vnm-opt %t/good.mlir --vnm-dump-kernels 2>&1 | FileCheck %s --check-prefix=NODIR
// NODIR: error: vnm-dump-kernels needs output-dir=<directory>

// RUN: not vnm-opt %t/good.mlir --vnm-dump-kernels=output-dir=%t/regular/sub -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNDER-FILE
// UNDER-FILE: error: vnm-dump-kernels: cannot create output-dir {{.*}}regular/sub: Not a directory

// RUN: not vnm-opt %t/good.mlir --vnm-dump-kernels=output-dir=%t/regular -o /dev/null 2>&1 | FileCheck %s --check-prefix=IS-FILE
// IS-FILE: error: vnm-dump-kernels: output-dir {{.*}}regular exists and is not a directory

// RUN: mkdir -p %t/taken/spmm_0.json
// RUN: not vnm-opt %t/good.mlir --vnm-dump-kernels=output-dir=%t/taken -o /dev/null 2>&1 | FileCheck %s --check-prefix=IS-DIR
// IS-DIR: error: vnm-dump-kernels: cannot write {{.*}}taken/spmm_0.json: Is a directory

// RUN: not vnm-opt %t/binary-name.mlir --vnm-dump-kernels=output-dir=%t/names -o /dev/null 2>&1 | FileCheck %s --check-prefix=BINARY-NAME
// BINARY-NAME: binary-name.mlir:2:3: error: vnm-dump-kernels: gpu.binary name 'sub/kernels' is not a plain file name, so it cannot be written inside output-dir
// RUN: not vnm-opt %t/kernel-name.mlir --vnm-dump-kernels=output-dir=%t/names -o /dev/null 2>&1 | FileCheck %s --check-prefix=KERNEL-NAME
// KERNEL-NAME: kernel-name.mlir:1:1: error: vnm-dump-kernels: kernel name '..' is not a plain file name, so it cannot be written inside output-dir
// RUN: not vnm-opt %t/twice.mlir --vnm-dump-kernels=output-dir=%t/names -o /dev/null 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: twice.mlir:2:3: error: vnm-dump-kernels: two objects would both be written to vnm_kernels.ptx
// TWICE: twice.mlir:2:3: note: the first is from here
// RUN: not test -e %t/names

// The same module is written where output-dir is usable.
// RUN: vnm-opt %t/good.mlir --vnm-dump-kernels=output-dir=%t/ok -o /dev/null
// RUN: FileCheck %s --check-prefix=OK-PTX < %t/ok/vnm_kernels.ptx
// OK-PTX: // ptx text
// RUN: FileCheck %s --check-prefix=OK-JSON < %t/ok/spmm_0.json
// OK-JSON: "kernel": "spmm_0"

//--- good.mlir
module attributes {gpu.container_module, vnm.launch_contracts = [{kernel = "spmm_0", block = [128, 1, 1]}]} {
  gpu.binary @vnm_kernels [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "// ptx text">]
}

//--- binary-name.mlir
module attributes {gpu.container_module} {
  gpu.binary @"sub/kernels" [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "// ptx text">]
}

//--- kernel-name.mlir
module attributes {gpu.container_module, vnm.launch_contracts = [{kernel = "..", block = [128, 1, 1]}]} {
}

//--- twice.mlir
module attributes {gpu.container_module} {
  gpu.binary @vnm_kernels [#gpu.object<#nvvm.target<chip = "sm_80">, assembly = "// sm_80">, #gpu.object<#nvvm.target<chip = "sm_90">, assembly = "// sm_90">]
}
