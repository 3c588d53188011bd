#!/usr/bin/env python3
"""Counts what the K loop of compiled benchmark kernels executes, in SASS.

For each kernel of a compile_cases.py build (default bench/build) it
assembles the PTX with ptxas for sm_90, disassembles the cubin with
nvdisasm, finds the loops (a branch back to an earlier label) that hold
HMMA (for the i8 kernels IMMA; for the sm_90a wgmma.sp kernels HGMMA, and
IGMMA for s8) instructions, and prints their instruction, MMA and
register-move counts and the instructions per MMA. One warp's share of an
HGMMA.SP.64xNx32 is the work of N / 8 mma.sp m16n8k32 (of an
IGMMA.SP.64xNx64, N / 8 m16n8k64), so the last column counts instructions
per m16n8k32-equivalent (m16n8k64 for s8), comparable across the two
families. The chip is the manifest's (compile_cases.py --chip).

nvdisasm is not part of the CUDA install here; `pip install
nvidia-cuda-nvdisasm` provides it (pass --nvdisasm with its path).

  python3 bench/sass_loop_stats.py --filter r4096_k4096_v64_m8_f16
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
LABEL = re.compile(r"^\s*(\.L_x_\d+):")
BACK_BRANCH = re.compile(r"BRA `\((\.L_x_\d+)\)")


# What an instruction of a K loop does, by its opcode (the first word after
# the address comment and any predicate).
CATEGORIES = ["hmma", "ldsm", "ldgsts", "ldg", "lds", "move", "uniform",
              "sync_branch", "integer", "other"]
OPCODE = re.compile(r"^\s*/\*[0-9a-f]+\*/\s*(?:@!?U?P\w+\s+)?([A-Z0-9_.]+)")


def category(line):
    match = OPCODE.match(line)
    op = match.group(1) if match else ""
    base = op.split(".")[0]
    # f16/bf16 and s8 tensor-core MMAs; HGMMA and IGMMA are sm_90a's
    # wgmma (f16/bf16 and s8).
    if base in ("HMMA", "IMMA", "HGMMA", "IGMMA"):
        return "hmma"
    if base == "LDSM":
        return "ldsm"
    if base == "LDGSTS":
        return "ldgsts"
    if base == "LDG":
        return "ldg"
    if base == "LDS":
        return "lds"
    if base == "MOV" or op.startswith("IMAD.MOV"):
        return "move"
    if base in ("BAR", "DEPBAR", "LDGDEPBAR", "BRA", "WARPSYNC"):
        return "sync_branch"
    if base.startswith("U"):
        return "uniform"
    if base in ("IMAD", "IADD3", "VIADD", "LOP3", "SHF", "ISETP", "PRMT",
                "LEA", "SEL", "PLOP3", "IABS", "IMNMX", "VIMNMX", "SGXT",
                "FLO", "POPC", "BMSK", "ISCADD", "P2R", "R2P"):
        return "integer"
    return "other"


def loop_bodies(sass_lines):
    """The instruction lines of each innermost loop that holds HMMAs.

    A branch back to an earlier label closes a loop. ptxas also places the
    retry paths of mbarrier waits (the warp-specialized kernels) out of
    line after the kernel's EXIT, branching back into the K loop: such a
    "loop" spans an unconditional EXIT and is left out, as is a span that
    holds another loop with MMAs."""
    labels = {}
    spans = []
    for i, line in enumerate(sass_lines):
        match = LABEL.match(line)
        if match:
            labels[match.group(1)] = i
        branch = BACK_BRANCH.search(line)
        if branch and labels.get(branch.group(1), len(sass_lines)) < i:
            start = labels[branch.group(1)]
            body = [x for x in sass_lines[start:i + 1] if ";" in x]
            if any(MMA_OPCODE.search(x) for x in body) and \
                    not any(EXIT.match(x) for x in body):
                spans.append((start, i))
    innermost = [(a, b) for a, b in spans
                 if not any(a <= c and d <= b and (c, d) != (a, b)
                            for c, d in spans)]
    return [[x for x in sass_lines[a:b + 1] if ";" in x] for a, b in innermost]


MMA_OPCODE = re.compile(r"\b(HMMA|IMMA|HGMMA|IGMMA)\b")
EXIT = re.compile(r"^\s*/\*[0-9a-f]+\*/\s+EXIT\b")
WGMMA_SHAPE = re.compile(r"[HI]GMMA(?:\.SP)?\.64x(\d+)x")


def mma_span(sass_lines):
    """The instruction lines from a kernel's first MMA to its last: its K
    loop where the loop is unrolled completely (by vnm-unroll-kernel-loops
    or ptxas), without the setup before it and the epilogue after it, as a
    loop body leaves them out."""
    lines = [x for x in sass_lines if ";" in x and OPCODE.match(x)]
    marks = [i for i, x in enumerate(lines) if MMA_OPCODE.search(x)]
    return lines[marks[0]:marks[-1] + 1] if marks else []


def k_loop_body(sass_lines):
    """(scope, lines) of a kernel's K loops: "loop" and the bodies of the
    loops that hold MMAs, or "span" and mma_span where ptxas kept none (a
    K loop unrolled completely)."""
    body = [line for loop in loop_bodies(sass_lines) for line in loop]
    return ("loop", body) if body else ("span", mma_span(sass_lines))


def m16n8k32_equivalents(body):
    """One warp's MMA work in the loop, in mma.sp m16n8k32 (or m16n8k64 for
    the s8 IMMA and IGMMA) units: 1 per HMMA/IMMA, N / 8 per HGMMA.64xNx32
    or IGMMA.64xNx64."""
    total = 0
    for line in body:
        if not MMA_OPCODE.search(line):
            continue
        shape = WGMMA_SHAPE.search(line)
        total += int(shape.group(1)) // 8 if shape else 1
    return total


def loops(sass_lines):
    """(instructions, MMAs, moves, m16n8k32-equivalents) of each loop that
    holds MMAs."""
    found = []
    for body in loop_bodies(sass_lines):
        counts = categories(body)
        found.append((len(body), counts["hmma"], counts["move"],
                      m16n8k32_equivalents(body)))
    return found


def categories(body):
    """{category: instructions} of a loop body."""
    counts = dict.fromkeys(CATEGORIES, 0)
    for line in body:
        counts[category(line)] += 1
    return counts


def assemble(ptxas, nvdisasm, ptx, cubin, arch="sm_90"):
    """(registers, spill bytes, SASS lines) of the PTX file `ptx` assembled
    for `arch` into `cubin`."""
    res = subprocess.run([ptxas, f"-arch={arch}", "-v", "-o", cubin, ptx],
                         capture_output=True, text=True, check=True)
    regs = int(re.search(r"Used (\d+) registers", res.stderr).group(1))
    spill = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads",
                      res.stderr)
    spills = int(spill.group(1)) + int(spill.group(2)) if spill else 0
    sass = subprocess.run([nvdisasm, "-c", cubin], check=True,
                          capture_output=True, text=True).stdout
    return regs, spills, sass.splitlines()


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(HERE, "build"))
    ap.add_argument("--filter", default="", help="substring of kernel names")
    ap.add_argument("--ptxas", default=shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas")
    ap.add_argument("--nvdisasm", default=shutil.which("nvdisasm") or "nvdisasm")
    args = ap.parse_args()
    manifest = json.load(open(os.path.join(args.build, "manifest.json")))
    arch = manifest.get("chip", "sm_90")
    print("kernel,loop_instructions,hmma,moves,instructions_per_hmma,"
          "instructions_per_m16n8k32")
    with tempfile.TemporaryDirectory() as tmp:
        for name, kernel in sorted(manifest["kernels"].items()):
            if args.filter not in name:
                continue
            _, _, sass = assemble(
                args.ptxas, args.nvdisasm,
                os.path.join(args.build, "kernels", kernel["ptx"]),
                os.path.join(tmp, name + ".cubin"), arch)
            for instructions, hmma, moves, units in loops(sass):
                print(f"{name},{instructions},{hmma},{moves},"
                      f"{instructions / hmma:.2f},{instructions / units:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
