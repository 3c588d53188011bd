#!/usr/bin/env python3
"""Compiles the SpMM benchmark kernels with vnm-opt (on this machine).

For every distinct (R, K, V, M, dtype) of cases.py it writes a one-op MLIR
program, runs `vnm-opt --vnm-lower-to-nvvm-pipeline` and keeps the PTX and
the launch contract under bench/build/kernels/<name>/. With ptxas available
it also records registers and spills. A manifest lists everything the device
step needs; bench/build is what travels to the GPU machine.
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import cases as case_matrix

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def program(rows, cols, v, m, dtype, out, acc, bias, act, token_major=False):
    """The one-op program of a case. `token_major`: x comes as x[N][K] and
    is transposed for the spmm, as a linear layer's activations are; the
    pipeline's vnm-fold-transposed-rhs hands kernels that read rhs
    token-major x itself (the contract's rhs_layout says which)."""
    enc = f"#vnm.encoding<v = {v}, n = 2, m = {m}>"
    w = f"tensor<{rows}x{cols}x{dtype}, {enc}>"
    y = f"tensor<{rows}x?x{out}>"
    transpose = ""
    if token_major:
        args = f"%w: {w}, %tokens: tensor<?x{cols}x{dtype}>"
        transpose = f"""  %c0 = arith.constant 0 : index
  %n = tensor.dim %tokens, %c0 : tensor<?x{cols}x{dtype}>
  %e = tensor.empty(%n) : tensor<{cols}x?x{dtype}>
  %x = linalg.transpose ins(%tokens : tensor<?x{cols}x{dtype}>) outs(%e : tensor<{cols}x?x{dtype}>) permutation = [1, 0]
"""
    else:
        args = f"%w: {w}, %x: tensor<{cols}x?x{dtype}>"
    extra = ""
    if acc:
        args += f", %c: {y}"
        extra += f" acc(%c : {y})"
    if bias:
        args += f", %b: tensor<{rows}x{out}>"
        extra += f" bias(%b : tensor<{rows}x{out}>)"
    if act != "none":
        extra += f" {{activation = #vnm.activation<{act}>}}"
    return f"""func.func @spmm({args}) -> {y} {{
{transpose}  %y = vnm.spmm %w, %x{extra} : {w}, tensor<{cols}x?x{dtype}> -> {y}
  return %y : {y}
}}
"""


def compile_one(vnm_opt, ptxas, out_dir, key, block_rows, warps_n,
                blocks_per_sm, warp_rows=0, stages=0, chip="sm_90",
                recipe="auto", block_cols=0, token_major=False,
                register_gather=False, cluster_rows=0, as24=-1, unroll=0,
                k_splits=0, staged_a=-1):
    name = case_matrix.case_name(*key)
    kdir = os.path.join(out_dir, name)
    os.makedirs(kdir, exist_ok=True)
    src = os.path.join(kdir, "spmm.mlir")
    with open(src, "w") as f:
        f.write(program(*key, token_major=token_major))
    subprocess.run([vnm_opt, src, "-o", os.devnull,
                    f"--vnm-lower-to-nvvm-pipeline=chip={chip} recipe={recipe} "
                    f"block-cols={block_cols} cluster-rows={cluster_rows} "
                    f"as-2-4={as24} unroll={unroll} k-splits={k_splits} "
                    f"staged-a={staged_a} "
                    f"features=+ptx85 "
                    f"format=isa block-rows={block_rows} warp-rows={warp_rows} "
                    f"warps-n={warps_n} stages={stages} "
                    f"blocks-per-sm={blocks_per_sm} "
                    f"register-gather={'true' if register_gather else 'false'} "
                    f"dump-dir={kdir}"],
                   check=True)
    info = {"name": name, "ptx": f"{name}/vnm_kernels.ptx",
            "contract": f"{name}/spmm_0.json"}
    # The kernel's identity: a GPU result counts for exactly this PTX
    # (bench/validated_kernels.py).
    with open(os.path.join(kdir, "vnm_kernels.ptx"), "rb") as f:
        info["ptx_sha256"] = hashlib.sha256(f.read()).hexdigest()
    if ptxas:
        res = subprocess.run([ptxas, f"-arch={chip}", "-v",
                              os.path.join(kdir, "vnm_kernels.ptx"), "-o",
                              os.devnull], capture_output=True, text=True,
                             check=True)
        regs = re.search(r"Used (\d+) registers", res.stderr)
        spill = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads",
                          res.stderr)
        info["registers"] = int(regs.group(1)) if regs else None
        info["spill_bytes"] = (int(spill.group(1)) + int(spill.group(2))
                               if spill else None)
    return info


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--vnm-opt", default=os.path.join(ROOT, "build", "bin",
                                                      "vnm-opt"))
    ap.add_argument("--format-lib", default=os.path.join(
        ROOT, "build", "lib", "libVNMFormatC.so"))
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "build"))
    ap.add_argument("--chip", default="sm_90", choices=("sm_80", "sm_90", "sm_90a"),
                    help="the GPU the kernels are for")
    ap.add_argument("--recipe", default="auto",
                    choices=("auto", "mma-sp", "wgmma-sp", "wgmma-sp-ws"),
                    help="the kernel recipe (wgmma-sp, wgmma-sp-ws: sm_90a only)")
    ap.add_argument("--block-cols", type=int, default=0,
                    help="forwarded to the pipeline (wgmma-sp: 128 or 256; 0: the heuristic)")
    ap.add_argument("--block-rows", type=int, default=0,
                    help="forwarded to the pipeline (0: the heuristic)")
    ap.add_argument("--warp-rows", type=int, default=0,
                    help="forwarded to the pipeline (0: the heuristic)")
    ap.add_argument("--stages", type=int, default=0,
                    help="forwarded to the pipeline (0: the heuristic)")
    ap.add_argument("--warps-n", type=int, default=0,
                    help="forwarded to the pipeline (0: the heuristic)")
    ap.add_argument("--blocks-per-sm", type=int, default=-1,
                    help="forwarded to the pipeline (-1: the heuristic, 0: ptxas's choice)")
    ap.add_argument("--token-major", action="store_true",
                    help="x given as x[N][K], as linear layers hold it: the "
                         "kernels that read it so get it itself (M = 4; M = 8 "
                         "with --register-gather)")
    ap.add_argument("--register-gather", action="store_true",
                    help="forwarded to the pipeline: x also for the f16/bf16 "
                         "kernels at M = 8")
    ap.add_argument("--cluster-rows", type=int, default=0,
                    help="forwarded to the pipeline (wgmma-sp, wgmma-sp-ws: "
                         "row blocks per cluster, 1 for none; 0: the heuristic)")
    ap.add_argument("--as-2-4", dest="as24", type=int, default=-1, choices=(-1, 0, 1),
                    help="forwarded to the pipeline (sm_90a: run V:2:M as 2:4 on the "
                         "warp-specialized kernel; -1: the heuristic)")
    ap.add_argument("--unroll", type=int, default=0,
                    help="forwarded to the pipeline (mma.sp: K loop unroll factor, "
                         "1 for none; 0: the heuristic)")
    ap.add_argument("--k-splits", type=int, default=0,
                    help="forwarded to the pipeline (mma.sp, sm_90: split each "
                         "tile's K loop over up to this many blocks of a "
                         "cluster; 0: none)")
    ap.add_argument("--staged-a", dest="staged_a", type=int, default=-1,
                    choices=(-1, 0, 1),
                    help="forwarded to the pipeline (mma.sp: A fragments "
                         "through a shared ring with B; -1: the heuristic)")
    args = ap.parse_args()

    ptxas = shutil.which("ptxas") or (
        "/usr/local/cuda/bin/ptxas"
        if os.path.exists("/usr/local/cuda/bin/ptxas") else None)
    kernels_dir = os.path.join(args.out, "kernels")
    os.makedirs(kernels_dir, exist_ok=True)
    cases = case_matrix.all_cases()
    keys = sorted({(c["rows"], c["cols"], c["v"], c["m"], c["dtype"], c["out"],
                    c["acc"], c["bias"], c["act"]) for c in cases})
    with ThreadPoolExecutor(max_workers=os.cpu_count()) as pool:
        kernels = list(pool.map(
            lambda k: compile_one(args.vnm_opt, ptxas, kernels_dir, k,
                                  args.block_rows, args.warps_n,
                                  args.blocks_per_sm, args.warp_rows,
                                  args.stages, args.chip, args.recipe,
                                  args.block_cols, args.token_major,
                                  args.register_gather, args.cluster_rows,
                                  args.as24, args.unroll, args.k_splits,
                                  args.staged_a),
            keys))
    shutil.copy(args.format_lib, os.path.join(args.out, "libVNMFormatC.so"))
    manifest = {"cases": cases, "kernels": {k["name"]: k for k in kernels},
                "chip": args.chip, "recipe": args.recipe,
                "block_cols": args.block_cols, "token_major": args.token_major,
                "register_gather": args.register_gather,
                "cluster_rows": args.cluster_rows, "as_2_4": args.as24,
                "block_rows": args.block_rows, "warp_rows": args.warp_rows,
                "stages": args.stages, "unroll": args.unroll,
                "k_splits": args.k_splits, "staged_a": args.staged_a,
                "warps_n": args.warps_n, "blocks_per_sm": args.blocks_per_sm}
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    spills = [k for k in kernels if k.get("spill_bytes")]
    # Spills are reported, not fatal: --blocks-per-sm experiments cause them.
    print(f"compiled {len(kernels)} kernels for {len(cases)} cases "
          f"({'ptxas: ' + str(len(spills)) + ' with spills' if ptxas else 'no ptxas'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
