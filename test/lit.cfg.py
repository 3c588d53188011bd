# -*- Python -*-

import os

import lit.formats
from lit.llvm import llvm_config

config.name = "VNM"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.vnm_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in"]

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
# FileCheck, not, split-file and mlir-runner come from LLVM's tool directory.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.use_default_substitutions()

tool_dirs = [config.vnm_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["vnm-opt", "vnm-capi-test", "split-file"],
                                   tool_dirs)
config.substitutions.append(("%vnm_src_root", config.vnm_src_root))


# CPU integration tests: a generator writes the program, mlir-runner runs it
# with the vnm CPU runtime and the test helpers loaded.
config.substitutions.append(
    ("%gen-test",
     f"{config.python_executable} "
     f"{os.path.join(config.vnm_src_root, 'test', 'Integration', 'CPU', 'gen_test.py')}"))
runner_libs = ",".join([
    os.path.join(config.vnm_obj_root, "lib", "libvnm_cpu_runtime.so"),
    os.path.join(config.vnm_obj_root, "lib", "libvnm_test_utils.so"),
    os.path.join(config.llvm_lib_dir, "libmlir_c_runner_utils.so"),
    os.path.join(config.llvm_lib_dir, "libmlir_runner_utils.so"),
])
# In a sanitizer build (cmake/VNMSanitizers.cmake) the runtime library is
# instrumented and mlir-runner is not: it preloads the ASan runtime.
runner_env = (f"env LD_PRELOAD={config.vnm_asan_runtime} "
              if config.vnm_asan_runtime else "")
# Upstream's own mlir-opt with vnm as a plugin (test/Plugin), preloading
# the ASan runtime in a sanitizer build as mlir-runner does.
config.substitutions.append(
    ("%mlir_opt", runner_env + os.path.join(config.llvm_tools_dir, "mlir-opt")))
config.substitutions.append(
    ("%vnm_plugin", os.path.join(config.vnm_obj_root, "lib", "VNMPlugin.so")))
config.substitutions.append(
    ("%run-cpu",
     f"{runner_env}{os.path.join(config.llvm_tools_dir, 'mlir-runner')} -e main "
     f"-entry-point-result=void -shared-libs={runner_libs}"))

# PTX assembly tests need ptxas: the CUDA toolkit's, or the one
# scripts/setup.sh fetches into the build's cuda-tools/; without it they are
# reported UNSUPPORTED.
import shutil
ptxas = shutil.which("ptxas") or next(
    (p for p in ["/usr/local/cuda/bin/ptxas",
                 os.path.join(config.vnm_obj_root, "cuda-tools", "ptxas")]
     if os.path.exists(p)), None)
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
else:
    lit_config.note("ptxas not found: PTX assembly tests are skipped")
