#!/usr/bin/env python3
"""Checks that the tile-program execution tests catch indexing errors.

Takes hand-written tile programs of a few cases (vnm-tile-check --print),
applies one perturbation at a time to the program text -- a wait count, a
ring slot, a gathered pair, a B row offset, an MMA step, an A or column-loc
row, a bound, a pitch -- and runs the perturbed program against the dense
reference (vnm-tile-check --run). Every perturbation must fail, by a wrong
result or by a run-time check of the CPU execution. ctest runs it; by hand:

  python3 scripts/mutate_tile_program.py --tool build/bin/vnm-tile-check
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

# Cases (a regular expression on the case names): a gather kernel and a
# 2:4 copy kernel, software-pipelined with steady-state iterations, and a
# plain one.
CASES = [r"^v64_m8_.*_s4_pitch_handpipelined$",
         r"^v16_m4_.*_s5_handpipelined$",
         r"^v64_m16_.*_handplain$"]
# The same kernels as vnm-lower-to-gpu and vnm-pipeline-kernels generate
# them (their values are numbered, so GENERATED_MUTATIONS find operands by
# position).
GENERATED_CASES = [r"^v64_m8_.*_s4_pitch$", r"^v16_m4_.*_s5$",
                   r"^v64_m16_.*_s3$"]

# (name, pattern, replacement, where): the first match of `pattern` after
# the first match of `where` (None: from the start; "all": every match, for
# a bound that every copy shares) is replaced; a perturbation whose pattern
# matches nothing in a program is skipped for it (a plain loop has no
# steady-state wait). `{S-1}` and `{S-2}` stand for the copies of the stage
# count less one and two pairs (two copies a pair where A is staged).
MUTATIONS = [
    ("steady-state wait leaves S - 1 pending",
     r"pending\({S-2}\)", "pending({S-1})", r"scf\.for %i"),
    ("last wait leaves one pending",
     r"pending\(0\)(?![\s\S]*pending\()", "pending(1)", None),
    ("gather of pair i instead of i + S - 1",
     r"vnm_gpu\.gather %rhs\[%\w+,", "vnm_gpu.gather %rhs[%it,",
     r"scf\.for %i"),
    ("copy_tile of pair i instead of i + S - 1",
     r"vnm_gpu\.copy_tile %rhs\[%\w+,", "vnm_gpu.copy_tile %rhs[%it,",
     r"scf\.for %i"),
    ("compute slot i + 1",
     r"arith\.remui %it,", "arith.remui %v32_plus_one,", None),
    ("B rows 0..31 for both steps",
     r"offset\(32\)", "offset(0)", None),
    ("MMA step 0 twice",
     r"vnm_gpu\.mma_sp (%\w+)\[1\]", r"vnm_gpu.mma_sp \1[0]", None),
    ("A rows of the column index",
     r"load_sparse_a %values, %meta\[%row,", "load_sparse_a %values, "
     "%meta[%col,", None),
    ("column-locs of another V block",
     r"load_colloc %colidx\[%row,", "load_colloc %colidx[%col,", None),
    ("epilogue stores 16 rows past R",
     r"(epilogue .* bounds\()(\d+)", lambda m: m.group(1) +
     str(int(m.group(2)) + 16), None),
    ("epilogue stores up to ldc instead of N",
     r"(epilogue .* bounds\(\d+, )%n\)", r"\1%ldc)", None),
    ("copy_tile stops 8 rows before K",
     r"(copy_tile .* bounds\()(\d+)", lambda m: m.group(1) +
     str(int(m.group(2)) - 8), "all"),
    ("B read with pitch N instead of ldb",
     r"ld\(%ldb\)", "ld(%n)", None),
]

# Perturbations that only change something where ldb and ldc differ.
PITCH_MUTATIONS = [
    ("output written with pitch ldb instead of ldc",
     r"ld\(%ldc\)", "ld(%ldb)", None),
]


def _loop_body(program):
    """(start, end) of the K loop's body: from `scf.for` to its yield."""
    start = program.find("scf.for")
    end = program.find("scf.yield", start)
    return (start, end) if start >= 0 and end >= 0 else None


def _in_loop(program, pattern, replace):
    """Replaces the first match of `pattern` in the K loop's body by
    replace(match)."""
    span = _loop_body(program)
    if not span:
        return None
    match = re.compile(pattern).search(program, span[0], span[1])
    if not match:
        return None
    return program[:match.start()] + replace(match) + program[match.end():]


def _operand_in_loop(program, pattern, group):
    span = _loop_body(program)
    match = span and re.compile(pattern).search(program, span[0], span[1])
    return match.group(group) if match else None


def _pipelined(program):
    """Whether the K loop was software-pipelined (its wait leaves copies in
    flight)."""
    return re.search(r"pending\([1-9]", program) is not None


def _gather_pair_of_fragments(program):
    """The loop's copy reads the pair of the A fragments (i + 1)."""
    pair = _operand_in_loop(program, r"load_sparse_a %\w+, %\w+\[%\w+, (%\w+)\]", 1)
    return pair and _in_loop(
        program, r"((?:gather|copy_tile) %\w+\[)(%\w+)(,)",
        lambda m: m.group(1) + pair + m.group(3))


def _compute_slot_of_copy(program):
    """The loop's B fragments read the slot being filled."""
    slot = _operand_in_loop(program, r"(?:gather|copy_tile) .* into %\w+\[(%\w+)\]", 1)
    return slot and _in_loop(program, r"(load_b %\w+\[)(%\w+)(\])",
                             lambda m: m.group(1) + slot + m.group(3))


def _output_pitch_ldb(program):
    ldb = re.search(r"(?:gather|copy_tile) .* ld\((%\w+)\)", program)
    return ldb and re.sub(r"(epilogue .* ld\()(%\w+)(\))",
                          lambda m: m.group(1) + ldb.group(1) + m.group(3),
                          program, count=1)


# (name, transform): transform(program) is the perturbed program, or None
# where it does not apply.
GENERATED_MUTATIONS = [
    ("steady-state wait leaves S - 1 pending",
     lambda p: mutate(p, r"pending\({S-2}\)", "pending({S-1})", r"scf\.for")),
    # At the pipelined epilogue's first wait S - 1 copies are in flight; a
    # wait that leaves them all pending lets the next MMAs read a slot that
    # has not landed. (Its later waits find less pending than they allow,
    # so lowering them changes nothing.) In a plain loop, the one wait.
    ("first wait after the K loop leaves S - 1 pending",
     lambda p: mutate(p, r"pending\(0\)", "pending({S-1})",
                      r"scf\.yield" if _pipelined(p) else r"scf\.for")),
    # In a plain loop the copy, the fragments and the B loads share one pair
    # and slot, so these two only perturb pipelined programs.
    ("copy of pair i + 1 instead of i + S - 1",
     lambda p: _gather_pair_of_fragments(p) if _pipelined(p) else None),
    ("B fragments from the slot being filled",
     lambda p: _compute_slot_of_copy(p) if _pipelined(p) else None),
    ("B rows 0..31 for both steps",
     lambda p: mutate(p, r"offset\(32\)", "offset(0)", None)),
    ("MMA step 0 twice",
     lambda p: mutate(p, r"vnm_gpu\.mma_sp (%\w+)\[1\]",
                      r"vnm_gpu.mma_sp \1[0]", None)),
    ("A rows and pair swapped",
     lambda p: mutate(p, r"((?:load|stage)_sparse_a %\w+, %\w+\[)(%\w+), (%[\w#]+)\]",
                      r"\1\3, \2]", None)),
    ("column-locs of row and pair swapped",
     lambda p: mutate(p, r"(load_colloc %\w+\[)(%\w+), (%[\w#]+)\]",
                      r"\1\3, \2]", None)),
    ("epilogue stores 16 rows past R",
     lambda p: mutate(p, r"(epilogue .* bounds\()(\d+)",
                      lambda m: m.group(1) + str(int(m.group(2)) + 16), None)),
    ("epilogue stores up to ldc instead of N",
     lambda p: mutate(p, r"(epilogue .* bounds\(\d+, )(%\w+)(\) ld\()(%\w+)\)",
                      r"\1\4\3\4)", None)),
    ("copy_tile stops 8 rows before K",
     lambda p: mutate(p, r"(copy_tile .* bounds\()(\d+)",
                      lambda m: m.group(1) + str(int(m.group(2)) - 8), "all")),
    ("B read with pitch N instead of ldb",
     lambda p: mutate(p, r"((?:gather|copy_tile) .* bounds\()(%\w+)(\) ld\()(%\w+)\)",
                      r"\1\2\3\2)", "all")),
]
GENERATED_PITCH_MUTATIONS = [
    ("output written with pitch ldb instead of ldc", _output_pitch_ldb),
]


def stages_of(program):
    return int(re.search(r"!vnm_gpu\.ring<(\d+)x", program).group(1))


def copies_per_pair(program):
    """Commit groups per k-tile pair: B's copy, and A's where the block's
    threads stage it (staged_a); a wait counts them all."""
    return 2 if re.search(r"stage_sparse_a .*layout = ", program) else 1


def mutate(program, pattern, replacement, where):
    # {S-2} and {S-1}: the copies of that many pairs.
    s, c = stages_of(program), copies_per_pair(program)
    pattern = pattern.replace("{S-2}", str(c * (s - 2))).replace(
        "{S-1}", str(c * (s - 1)))
    if isinstance(replacement, str):
        replacement = replacement.replace("{S-1}", str(c * (s - 1)))
    compiled = re.compile(pattern)
    expand = (lambda m: m.expand(replacement)) \
        if isinstance(replacement, str) else replacement
    if where == "all":
        mutated, count = compiled.subn(expand, program)
        return mutated if count else None
    start = 0
    if where:
        anchor = re.search(where, program)
        if not anchor:
            return None
        start = anchor.start()
    match = compiled.search(program, start)
    if not match:
        return None
    return program[:match.start()] + expand(match) + program[match.end():]


def fix_slot_mutation(program):
    """`compute slot i + 1` needs the value it names: define it."""
    if "%v32_plus_one" not in program:
        return program
    return program.replace(
        "    %it = arith.index_cast %i : index to i32\n",
        "    %it = arith.index_cast %i : index to i32\n"
        "    %one_more = arith.constant 1 : i32\n"
        "    %v32_plus_one = arith.addi %it, %one_more : i32\n", 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tool", required=True, help="vnm-tile-check")
    args = ap.parse_args()
    names = subprocess.run([args.tool, "--list"], capture_output=True,
                           text=True, check=True).stdout.split()
    cases = []
    for pattern in CASES + GENERATED_CASES:
        found = [n for n in names if re.search(pattern, n)]
        if not found:
            print(f"no case matches {pattern}")
            return 1
        cases.append(found[0])

    def perturbations(case, program):
        """(name, perturbed program) of every mutation that applies."""
        pitch = "_pitch" in case
        if "_hand" in case:
            for name, pattern, replacement, where in MUTATIONS + (
                    PITCH_MUTATIONS if pitch else []):
                mutated = mutate(program, pattern, replacement, where)
                if mutated is not None:
                    yield name, fix_slot_mutation(mutated)
            return
        for name, transform in GENERATED_MUTATIONS + (
                GENERATED_PITCH_MUTATIONS if pitch else []):
            mutated = transform(program)
            if mutated is not None and mutated != program:
                yield name, mutated

    missed, tried = [], 0
    with tempfile.TemporaryDirectory() as scratch:
        for case in cases:
            program = subprocess.run([args.tool, "--print", case],
                                     capture_output=True, text=True,
                                     check=True).stdout
            path = os.path.join(scratch, "program.mlir")
            # The unperturbed program must pass, or a failure proves nothing.
            with open(path, "w") as f:
                f.write(program)
            if subprocess.run([args.tool, "--run", case, path],
                              capture_output=True).returncode:
                print(f"{case}: the unperturbed program fails")
                return 1
            for name, mutated in perturbations(case, program):
                with open(path, "w") as f:
                    f.write(mutated)
                run = subprocess.run([args.tool, "--run", case, path],
                                     capture_output=True, text=True)
                tried += 1
                output = (run.stdout + run.stderr).strip().splitlines()
                how = output[0] if output else f"exit {run.returncode}"
                if run.returncode == 0:
                    missed.append(f"{case}: {name}")
                    print(f"NOT CAUGHT  {case}: {name}")
                else:
                    print(f"caught      {case}: {name}: {how[:150]}")
    print(f"{tried - len(missed)}/{tried} perturbations caught")
    return 1 if missed or not tried else 0


if __name__ == "__main__":
    sys.exit(main())
