"""A pipeline that crashes inside LLVM, or runs out of memory, does not take
the process down.

LLVM's NVPTX backend aborts on an MMA intrinsic the chip lacks (here: the
vnm kernels lowered to NVVM, then assembled for sm_75 with upstream passes
that bypass vnm's target checks). The C API runs every pipeline under crash
recovery: the call raises CompileError naming a reproducer file, and the
interpreter goes on compiling. The crash runs in a child interpreter, so
that a regression fails this test instead of killing pytest.
"""

import json
import os
import subprocess
import sys

SOURCE = """
func.func @spmm(%w: tensor<256x256xf16, #vnm.encoding<v = 64, n = 2, m = 8>>,
                %x: tensor<256x?xf16>) -> tensor<256x?xf16> {
  %y = vnm.spmm %w, %x : tensor<256x256xf16, #vnm.encoding<v = 64, n = 2, m = 8>>,
      tensor<256x?xf16> -> tensor<256x?xf16>
  return %y : tensor<256x?xf16>
}
"""

PIPELINE = (
    "builtin.module(canonicalize,vnm-expand-storage,"
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},"
    "vnm-choose-config{chip=sm_90},vnm-lower-to-gpu,vnm-pipeline-kernels,"
    "gpu.module(convert-vnm-gpu-to-nvvm,convert-scf-to-cf,convert-gpu-to-nvvm,"
    "convert-nvvm-to-llvm,reconcile-unrealized-casts),"
    "nvvm-attach-target{chip=sm_75},gpu-module-to-binary{format=isa})")

CHILD = """
import json, sys
import vnm
from vnm.compiler import Compiler
source, pipeline = sys.argv[1], sys.argv[2]
compiler = Compiler()
outcome = {}
try:
    compiler.parse(source).run(pipeline)
    outcome["crash"] = None
except vnm.CompileError as error:
    outcome["crash"] = str(error)
# The same compiler, then a fresh one, still work.
compiler.parse(source).run("builtin.module(canonicalize)")
vnm.compile(source)
outcome["alive"] = True
print(json.dumps(outcome))
"""


def _run_child(code, *args):
    """Runs `code` in a child interpreter, which must survive; returns its
    last line of output as JSON and its stderr."""
    child = subprocess.run([sys.executable, "-c", code, *args],
                           capture_output=True, text=True,
                           env=os.environ.copy(), timeout=600)
    assert child.returncode == 0, (
        f"the child interpreter died with {child.returncode}: "
        f"{child.stderr[-2000:]}")
    outcome = json.loads(child.stdout.strip().splitlines()[-1])
    assert outcome["alive"]
    return outcome, child.stderr


def test_llvm_abort_is_a_compile_error_with_a_reproducer():
    outcome, _ = _run_child(CHILD, SOURCE, PIPELINE)
    message = outcome["crash"]
    assert message is not None and "crashed" in message, message
    path = message.split("reproducer: ")[1].split()[0]
    try:
        reproducer = open(path).read()
        # The reproducer holds the module and the pipeline that crashed.
        assert "vnm.spmm" in reproducer
        assert "nvvm-attach-target" in reproducer
    finally:
        if os.path.exists(path):
            os.remove(path)


OOM_SOURCE = """
func.func @f() -> tensor<4096x4096xf32, #vnm.encoding<v = 64, n = 2, m = 8>> {
  %d = arith.constant dense<1.5> : tensor<4096x4096xf32>
  %s = vnm.compress %d : tensor<4096x4096xf32>
      -> tensor<4096x4096xf32, #vnm.encoding<v = 64, n = 2, m = 8>>
  return %s : tensor<4096x4096xf32, #vnm.encoding<v = 64, n = 2, m = 8>>
}
"""

# Canonicalization folds the compress of the splat (64 MiB of f32, under
# the folders' size limit) while the address space left to the process is
# smaller: the allocation fails inside the pass.
OOM_CHILD = """
import json, resource, sys
import vnm
from vnm.compiler import Compiler
source = sys.argv[1]
compiler = Compiler()
module = compiler.parse(source)
status = open("/proc/self/status").read()
used = int(status.split("VmSize:")[1].split()[0]) * 1024
soft, hard = resource.getrlimit(resource.RLIMIT_AS)
resource.setrlimit(resource.RLIMIT_AS, (used + (48 << 20), hard))
outcome = {}
try:
    module.run("builtin.module(canonicalize)")
    outcome["error"] = None
except vnm.CompileError as error:
    outcome["error"] = str(error)
resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
compiler.parse(source).run("builtin.module(cse)")
outcome["alive"] = True
print(json.dumps(outcome))
"""


def test_out_of_memory_in_a_pass_is_a_compile_error():
    outcome, stderr = _run_child(OOM_CHILD, OOM_SOURCE)
    message = outcome["error"]
    assert message is not None and "crashed" in message, message
    # Where the allocation fails decides the report: LLVM's allocators
    # report "out of memory", the C++ library throws std::bad_alloc.
    assert "out of memory" in stderr or "std::bad_alloc" in stderr
    path = message.split("reproducer: ")[1].split()[0]
    if os.path.exists(path):
        os.remove(path)


# MLIR 22's parsers of linalg.transpose and linalg.broadcast dereference a
# null attribute when the array after `permutation =` / `dimensions =` is
# malformed (Debian's mlir-opt-22 crashes on these too).
MALFORMED_SOURCES = [
    """func.func @f(%x: tensor<16x8xf32>, %c: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %t = linalg.transpose ins(%x : tensor<16x8xf32>) outs(%c : tensor<8x16xf32>) permutation = x[1, 0]
  return %t : tensor<8x16xf32>
}""",
    """func.func @f(%x: tensor<16xf32>, %c: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %t = linalg.broadcast ins(%x : tensor<16xf32>) outs(%c : tensor<8x16xf32>) dimensions = [0 x]
  return %t : tensor<8x16xf32>
}""",
]

PARSE_CHILD = """
import json, sys
import vnm
outcome = {"errors": []}
for source in json.loads(sys.argv[1]):
    try:
        vnm.compile(source)
        outcome["errors"].append(None)
    except vnm.CompileError as error:
        outcome["errors"].append(str(error))
vnm.compile("func.func @g() { return }")
outcome["alive"] = True
print(json.dumps(outcome))
"""


def test_a_crashing_upstream_parser_is_a_compile_error():
    """Parsing runs under crash recovery: malformed text that crashes an
    upstream op's parser raises CompileError with the parser's diagnostic,
    and the process goes on compiling."""
    outcome, _ = _run_child(PARSE_CHILD, json.dumps(MALFORMED_SOURCES))
    for message in outcome["errors"]:
        # Either the parser crashed and was recovered from, or (a fixed
        # upstream) it rejected the text; never a silent success.
        assert message is not None
        assert "the MLIR parser crashed" in message or "failed to parse" in message
        assert "expected" in message, message
