#!/usr/bin/env python3
"""Feeds vnm-opt randomly mutated and truncated copies of the dialect tests.

Malformed input must end in diagnostics (exit code 0 or 1), never in a crash,
an abort, a hang or an LLVM fatal error. Each run draws a fresh seed, printed
first so that a failure can be replayed with --seed.

A crash counts against vnm when its stack dump has a frame in vnm-opt's own
code (the vnm libraries are linked into it statically) other than `main`.
Crashes entirely inside libMLIR.so are upstream bugs that upstream mlir-opt
shows on the same input (e.g. `linalg.transpose ... permutation = [?, 0]`
segfaults in LLVM 22's parser): they are listed, not counted.
"""

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

TYPE_SWAPS = [
    ("f16", "f64"), ("f16", "i8"), ("bf16", "f32"), ("f32", "i32"),
    ("i8", "i32"), ("i8", "f16"), ("tensor<", "memref<"), ("memref<", "tensor<"),
    ("xi8>", "xi1>"), ("x4x", "x5x"), ("x4x", "x?x"), ("16x", "?x"),
]
KEYWORDS = ["ins", "outs", "acc", "bias", "encoding", "activation", "relu",
            "gelu", "accumulate", "->", ":", ",", "(", ")", "<", ">", "{", "}",
            "%arg0", "#vnm.encoding<v = 64, n = 2, m = 8>", "!enc", "x"]
NUMBERS = ["0", "1", "-1", "3", "7", "17", "33", "4096", "9223372036854775807",
           "99999999999999999999", "?"]
# A sanitizer build (scripts/sanitize.sh) aborts on every report; the
# report's first line is kept so that one is never read as a diagnostic.
FATAL_MARKERS = ["LLVM ERROR", "Stack dump", "PLEASE submit a bug report",
                 "Assertion", "UNREACHABLE", "Segmentation fault",
                 "ERROR: AddressSanitizer", "ERROR: LeakSanitizer",
                 "runtime error:"]
# A sanitizer's frame of code compiled from a source file (vnm's own code
# and the headers it instantiates); libMLIR.so's frames name the library.
SOURCE_FRAME = re.compile(r" in .* (/\S+):\d+(:\d+)?$")
STACK_FRAME = re.compile(r"^\s*#\d+ 0x[0-9a-f]+ (.*)$")


def crash_is_upstream(stderr, tool_name):
    """True when every stack frame of the crash lies outside vnm-opt's code
    (libMLIR.so, libLLVM.so, libc), apart from main and the C start-up."""
    frames = [m.group(1) for m in map(STACK_FRAME.match, stderr.splitlines())
              if m]
    if not frames:
        return False
    for frame in frames:
        if re.search(r"\b(main|_start)\b", frame):
            continue
        if f"/{tool_name}+0x" in frame or f"({tool_name}+0x" in frame:
            return False
        if "vnm::" in frame:
            return False
        source = SOURCE_FRAME.search(frame)
        if source and not source.group(1).startswith("/usr/"):
            return False
    return True


def mutate(text, rng):
    """Applies one to three random edits."""
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(7)
        if kind == 0 and text:  # truncate
            text = text[: rng.randrange(len(text))]
        elif kind == 1 and text:  # delete a span
            start = rng.randrange(len(text))
            text = text[:start] + text[start + rng.randint(1, 40):]
        elif kind == 2:  # swap a type
            old, new = rng.choice(TYPE_SWAPS)
            spots = [m.start() for m in re.finditer(re.escape(old), text)]
            if spots:
                at = rng.choice(spots)
                text = text[:at] + new + text[at + len(old):]
        elif kind == 3:  # replace a number
            spots = [m for m in re.finditer(r"\b\d+\b", text)]
            if spots:
                m = rng.choice(spots)
                text = text[: m.start()] + rng.choice(NUMBERS) + text[m.end():]
        elif kind == 4 and text:  # insert a keyword
            at = rng.randrange(len(text))
            text = text[:at] + " " + rng.choice(KEYWORDS) + " " + text[at:]
        elif kind == 5:  # duplicate or drop a line
            lines = text.split("\n")
            if lines:
                i = rng.randrange(len(lines))
                if rng.random() < 0.5:
                    lines.insert(i, lines[i])
                else:
                    del lines[i]
            text = "\n".join(lines)
        elif kind == 6 and text:  # flip a character
            at = rng.randrange(len(text))
            text = text[:at] + chr(rng.randrange(32, 127)) + text[at + 1:]
    return text


PIPELINES = [
    [],
    ["--canonicalize"],
    ["--vnm-expand-storage"],
    ["--vnm-expand-storage", "--one-shot-bufferize=bufferize-function-boundaries"],
    ["--mlir-print-op-generic"],
    ["--vnm-sparsify=default-format=64:2:8"],
    ["--vnm-lower-to-cpu-pipeline"],
    ["--vnm-expand-storage", "--one-shot-bufferize=bufferize-function-boundaries",
     "--vnm-lower-to-gpu"],
    ["--vnm-expand-storage", "--one-shot-bufferize=bufferize-function-boundaries",
     "--vnm-choose-config", "--vnm-lower-to-gpu", "--vnm-pipeline-kernels"],
    ["--vnm-pipeline-kernels"],
    ["--pass-pipeline=builtin.module(gpu.module(convert-vnm-gpu-to-nvvm))"],
    ["--pass-pipeline=builtin.module(vnm-lower-to-gpu,vnm-pipeline-kernels,"
     "gpu.module(convert-vnm-gpu-to-nvvm))"],
    ["--vnm-lower-to-loops"],
    ["--convert-vnm-gpu-to-loops"],
    # The sm_90a recipes: the multistage and warp-specialized wgmma.sp tile
    # programs (TMA, mbarriers, the s8 instruction) and their lowerings.
    ["--vnm-expand-storage", "--one-shot-bufferize=bufferize-function-boundaries",
     "--vnm-choose-config=chip=sm_90a", "--vnm-lower-to-gpu",
     "--vnm-pipeline-kernels"],
    ["--vnm-expand-storage", "--one-shot-bufferize=bufferize-function-boundaries",
     "--vnm-choose-config=chip=sm_90a recipe=wgmma-sp-ws", "--vnm-lower-to-gpu",
     "--vnm-pipeline-kernels"],
    ["--vnm-expand-storage", "--one-shot-bufferize=bufferize-function-boundaries",
     "--vnm-choose-config=chip=sm_90a recipe=wgmma-sp", "--vnm-lower-to-gpu",
     "--vnm-pipeline-kernels", "--convert-vnm-gpu-to-loops"],
    ["--vnm-lower-to-nvvm-pipeline=chip=sm_90a recipe=wgmma-sp-ws"],
    ["--vnm-lower-to-nvvm-pipeline=chip=sm_90 k-splits=4"],
]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--vnm-opt", required=True)
    parser.add_argument("--inputs", nargs="+", required=True)
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    print(f"mutate_inputs: seed {seed}", flush=True)
    rng = random.Random(seed)
    # Sorted, so that a seed names the same cases whatever order the paths
    # come in.
    sources = [open(path).read() for path in sorted(args.inputs)]

    failures = 0
    diagnosed = 0
    upstream = 0
    tool_name = os.path.basename(args.vnm_opt)
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.count):
            text = mutate(rng.choice(sources), rng)
            path = os.path.join(tmp, f"case{i}.mlir")
            with open(path, "w") as f:
                f.write(text)
            cmd = [args.vnm_opt, path, "-split-input-file",
                   "--allow-unregistered-dialect", "-o", os.devnull]
            cmd += rng.choice(PIPELINES)
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True,
                                      timeout=30)
            except subprocess.TimeoutExpired:
                failures += 1
                print(f"HANG: {' '.join(cmd)}")
                continue
            fatal = [m for m in FATAL_MARKERS if m in proc.stderr]
            if (proc.returncode not in (0, 1) or fatal) and crash_is_upstream(
                    proc.stderr, tool_name):
                upstream += 1
                print(f"upstream crash (not counted), input:\n"
                      f"{text[:4000]}\n{proc.stderr[-1500:]}")
            elif proc.returncode not in (0, 1) or fatal:
                failures += 1
                kept = os.path.join(os.getcwd(), f"mutate-failure-{seed}-{i}.mlir")
                with open(kept, "w") as f:
                    f.write(text)
                print(f"CRASH (exit {proc.returncode}, {fatal}): {' '.join(cmd[1:])}"
                      f"\n  input kept at {kept}\n{proc.stderr[-2000:]}")
            elif proc.returncode == 1:
                if "error" not in proc.stderr:
                    failures += 1
                    print(f"FAILED WITHOUT DIAGNOSTIC: {' '.join(cmd)}")
                else:
                    diagnosed += 1
    print(f"mutate_inputs: {args.count} cases, {diagnosed} rejected with "
          f"diagnostics, {upstream} upstream crashes, {failures} vnm crashes "
          f"or hangs")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
