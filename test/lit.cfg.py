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
llvm_config.use_default_substitutions()

tool_dirs = [config.vnm_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["vnm-opt"], tool_dirs)
config.substitutions.append(("%vnm_src_root", config.vnm_src_root))
