// vnm-pipeline-kernels rejects schedules it cannot pipeline.
// RUN: vnm-opt %s --vnm-pipeline-kernels --split-input-file -verify-diagnostics

gpu.module @kernels {
  gpu.func @untagged() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c8 step %c1 {
      "nvvm.cp.async.commit.group"() {vnm.pipeline_stage = 0 : i64, vnm.pipeline_order = 0 : i64} : () -> ()
      // expected-error @+1 {{'nvvm.cp.async.wait.group' op in a pipelined kernel loop has no vnm.pipeline_stage or vnm.pipeline_order}}
      "nvvm.cp.async.wait.group"() <{n = 0 : i32}> : () -> ()
    }
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @waits_first() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    // expected-error @+1 {{'scf.for' op pipelined kernel loop needs its cp.async commits in an earlier stage than its waits}}
    scf.for %i = %c0 to %c8 step %c1 {
      "nvvm.cp.async.commit.group"() {vnm.pipeline_stage = 1 : i64, vnm.pipeline_order = 0 : i64} : () -> ()
      "nvvm.cp.async.wait.group"() <{n = 0 : i32}> {vnm.pipeline_stage = 1 : i64, vnm.pipeline_order = 1 : i64} : () -> ()
    }
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @split_commits() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c8 step %c1 {
      "nvvm.cp.async.commit.group"() {vnm.pipeline_stage = 0 : i64, vnm.pipeline_order = 0 : i64} : () -> ()
      // expected-error @+1 {{'nvvm.cp.async.commit.group' op is in pipeline stage 1, but an op like it is in stage 0}}
      "nvvm.cp.async.commit.group"() {vnm.pipeline_stage = 1 : i64, vnm.pipeline_order = 0 : i64} : () -> ()
      "nvvm.cp.async.wait.group"() <{n = 0 : i32}> {vnm.pipeline_stage = 2 : i64, vnm.pipeline_order = 1 : i64} : () -> ()
    }
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @too_many_stages() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c8 step %c1 {
      "nvvm.cp.async.commit.group"() {vnm.pipeline_stage = 0 : i64, vnm.pipeline_order = 0 : i64} : () -> ()
      // expected-error @+1 {{'nvvm.cp.async.wait.group' op is in pipeline stage 17, beyond the 16 a kernel loop may have}}
      "nvvm.cp.async.wait.group"() <{n = 0 : i32}> {vnm.pipeline_stage = 17 : i64, vnm.pipeline_order = 1 : i64} : () -> ()
    }
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @reads_later_stage() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c8 step %c1 {
      %x = arith.index_cast %i {vnm.pipeline_stage = 1 : i64, vnm.pipeline_order = 0 : i64} : index to i32
      // expected-error @+1 {{'arith.addi' op in pipeline stage 0 reads a value of an op in stage 1}}
      %y = arith.addi %x, %x {vnm.pipeline_stage = 0 : i64, vnm.pipeline_order = 0 : i64} : i32
      "nvvm.cp.async.commit.group"() {vnm.pipeline_stage = 0 : i64, vnm.pipeline_order = 0 : i64} : () -> ()
      "nvvm.cp.async.wait.group"() <{n = 0 : i32}> {vnm.pipeline_stage = 1 : i64, vnm.pipeline_order = 1 : i64} : () -> ()
    }
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @reads_later_in_order() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c8 step %c1 {
      %x = arith.index_cast %i {vnm.pipeline_stage = 0 : i64, vnm.pipeline_order = 2 : i64} : index to i32
      // expected-error @+1 {{'arith.addi' op in pipeline stage 0 reads a value of an op in stage 0 that comes later in the order}}
      %y = arith.addi %x, %x {vnm.pipeline_stage = 0 : i64, vnm.pipeline_order = 1 : i64} : i32
      "nvvm.cp.async.commit.group"() {vnm.pipeline_stage = 0 : i64, vnm.pipeline_order = 0 : i64} : () -> ()
      "nvvm.cp.async.wait.group"() <{n = 0 : i32}> {vnm.pipeline_stage = 1 : i64, vnm.pipeline_order = 1 : i64} : () -> ()
    }
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @carried_from_later_stage() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %z = arith.constant 0 : i32
    %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %z) -> (i32) {
      // expected-error @+1 {{'arith.addi' op in pipeline stage 0 reads a loop-carried value that stage 1 yields}}
      %a = arith.addi %acc, %acc {vnm.pipeline_stage = 0 : i64, vnm.pipeline_order = 0 : i64} : i32
      "nvvm.cp.async.commit.group"() {vnm.pipeline_stage = 0 : i64, vnm.pipeline_order = 0 : i64} : () -> ()
      "nvvm.cp.async.wait.group"() <{n = 0 : i32}> {vnm.pipeline_stage = 1 : i64, vnm.pipeline_order = 1 : i64} : () -> ()
      %b = arith.addi %a, %a {vnm.pipeline_stage = 1 : i64, vnm.pipeline_order = 1 : i64} : i32
      scf.yield %b : i32
    }
    gpu.return
  }
}
