#!/usr/bin/env python3
"""Checks that the CPU integration tests catch index errors in the lowering.

Applies one off-by-one mutation at a time to
lib/Conversion/VNMToLoops/StorageOpLowerings.cpp in a scratch worktree,
rebuilds vnm-opt there, runs the CPU integration tests, and reports which
mutations the tests caught. Usage (takes a few minutes per mutation):

  git worktree add /tmp/vnm-mut HEAD
  python3 scripts/mutate_lowering.py --worktree /tmp/vnm-mut --build /tmp/vnm-mut-build
"""

import argparse
import os
import subprocess
import sys

FILE = "lib/Conversion/VNMToLoops/StorageOpLowerings.cpp"

# (name, original text, mutated text); each original must occur exactly once.
MUTATIONS = [
    ("row block r / (V + 1)",
     "b, loc, r, indexConstant(b, loc, encoding.getV()));",
     "b, loc, r, indexConstant(b, loc, encoding.getV() + 1));"),
    ("group start g * (M - 1)",
     "b, loc, g, indexConstant(b, loc, encoding.getM()));",
     "b, loc, g, indexConstant(b, loc, encoding.getM() - 1));"),
    ("column + 1",
     "return arith::AddIOp::create(b, loc, groupStart, offset);",
     "return arith::AddIOp::create(\n        b, loc, arith::AddIOp::create(b, loc, groupStart, offset),\n        indexConstant(b, loc, 1));"),
    ("one kept slot per group",
     "gb, gl, indexConstant(gb, gl, 2), gArgs,",
     "gb, gl, indexConstant(gb, gl, 1), gArgs,"),
    ("slot 2g + p + 1",
     "arith::MulIOp::create(pb, pl, g, indexConstant(pb, pl, 2)),\n                  p);",
     "arith::MulIOp::create(pb, pl, g, indexConstant(pb, pl, 2)),\n                  arith::AddIOp::create(pb, pl, p, indexConstant(pb, pl, 1)));"),
    ("metadata read at the group, not the slot",
     "Value position = loadIndex(b, loc, meta, {r, slot});",
     "Value position = loadIndex(b, loc, meta, {r, g});"),
    ("groups - 1",
     "scf::ForOp outer = buildLoop(\n      b, loc, groups, inits,",
     "scf::ForOp outer = buildLoop(\n      b, loc, arith::SubIOp::create(b, loc, groups, indexConstant(b, loc, 1)), inits,"),
    ("padding test column <= K",
     "arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, col, cols);",
     "arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, col, cols);"),
    ("sddmm dot product over D - 1",
     "sb, sl, depth, {zero(sb, sl, accType)},",
     "sb, sl, arith::SubIOp::create(sb, sl, depth, indexConstant(sb, sl, 1)), {zero(sb, sl, accType)},"),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--worktree", required=True)
    ap.add_argument("--build", required=True)
    args = ap.parse_args()
    path = os.path.join(args.worktree, FILE)
    original = open(path).read()
    tests = [os.path.join(args.build, "test", "Integration", "CPU")]
    results = []
    try:
        for name, old, new in MUTATIONS:
            if original.count(old) != 1:
                results.append((name, "mutation site not found"))
                continue
            open(path, "w").write(original.replace(old, new))
            build = subprocess.run(["ninja", "-C", args.build, "vnm-opt"],
                                   capture_output=True, text=True)
            if build.returncode:
                results.append((name, "did not build"))
                continue
            lit = subprocess.run(["/usr/lib/llvm-22/bin/lit", "-q"] + tests,
                                 capture_output=True, text=True)
            failed = [l.split("::")[-1].strip() for l in lit.stdout.splitlines()
                      if l.strip().startswith("VNM ::")]
            results.append((name, f"caught by {', '.join(failed)}"
                            if lit.returncode else "NOT CAUGHT"))
            print(f"{name}: {results[-1][1]}", flush=True)
    finally:
        open(path, "w").write(original)
        subprocess.run(["ninja", "-C", args.build, "vnm-opt"],
                       capture_output=True)
    missed = [n for n, r in results if not r.startswith("caught")]
    print(f"{len(results) - len(missed)}/{len(results)} mutations caught")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
