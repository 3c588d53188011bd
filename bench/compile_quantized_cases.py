#!/usr/bin/env python3
"""Compiles the quantized SpMM benchmark kernels with vnm-opt (here).

For every kernel of quantized_cases.py it writes a one-op program (vnm.spmm
of an i8 or i4 weight and i8 activations, with per-row weight and per-token input
scales for the f16 kernels), runs `vnm-opt --vnm-lower-to-nvvm-pipeline`
and keeps the PTX, the launch contract, the PTX's sha256 and ptxas' register
and spill report (sm_80 and sm_90) under <out>/kernels/<name>/, with a
manifest and the format library for the device step
(quantized_device_bench.py).
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

import quantized_cases as case_matrix

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def program(form, rows, cols, v, m, out):
    enc = f"#vnm.encoding<v = {v}, n = 2, m = {m}>"
    w = f"tensor<{rows}x{cols}x{case_matrix.weight_type(form)}, {enc}>"
    if form in case_matrix.WEIGHT_ONLY:
        x = f"tensor<{cols}x?xf16>"
        y = f"tensor<{rows}x?x{out}>"
        group = case_matrix.GROUP_SIZE.get(form)
        scales = (f"tensor<{rows}x{-(-cols // group)}xf32>" if group
                  else f"tensor<{rows}xf32>")
        attrs = f" {{group_size = {group}}}" if group else ""
        return f"""func.func @spmm(%w: {w}, %x: {x}, %sw: {scales}) -> {y} {{
  %y = vnm.spmm %w, %x weight_scales(%sw : {scales}){attrs}
      : {w}, {x} -> {y}
  return %y : {y}
}}
"""
    x = f"tensor<{cols}x?xi8>"
    y = f"tensor<{rows}x?x{out}>"
    if out == "i32":
        return f"""func.func @spmm(%w: {w}, %x: {x}) -> {y} {{
  %y = vnm.spmm %w, %x : {w}, {x} -> {y}
  return %y : {y}
}}
"""
    return f"""func.func @spmm(%w: {w}, %x: {x}, %sw: tensor<{rows}xf32>,
                %sx: tensor<?xf32>) -> {y} {{
  %y = vnm.spmm %w, %x weight_scales(%sw : tensor<{rows}xf32>)
      input_scales(%sx : tensor<?xf32>) : {w}, {x} -> {y}
  return %y : {y}
}}
"""


def ptxas_report(ptxas, ptx, arch):
    res = subprocess.run([ptxas, f"-arch={arch}", "-v", ptx, "-o", os.devnull],
                         capture_output=True, text=True, check=True)
    regs = re.search(r"Used (\d+) registers", res.stderr)
    spill = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads",
                      res.stderr)
    return (int(regs.group(1)) if regs else None,
            int(spill.group(1)) + int(spill.group(2)) if spill else None)


def compile_one(vnm_opt, ptxas, out_dir, key, tiling, chip="sm_90",
                sm80=True):
    name = case_matrix.kernel_name(*key)
    kdir = os.path.join(out_dir, name)
    os.makedirs(kdir, exist_ok=True)
    src = os.path.join(kdir, "spmm.mlir")
    with open(src, "w") as f:
        f.write(program(*key))
    subprocess.run([vnm_opt, src, "-o", os.devnull,
                    f"--vnm-lower-to-nvvm-pipeline=chip={chip} features=+ptx85 "
                    f"format=isa {tiling} dump-dir={kdir}"],
                   check=True)
    ptx = os.path.join(kdir, "vnm_kernels.ptx")
    info = {"name": name, "ptx": f"{name}/vnm_kernels.ptx",
            "contract": f"{name}/spmm_0.json"}
    with open(ptx, "rb") as f:
        info["ptx_sha256"] = hashlib.sha256(f.read()).hexdigest()
    if ptxas:
        info["registers"], info["spill_bytes"] = ptxas_report(ptxas, ptx,
                                                              chip)
        # The same PTX for sm_80: the .target line names the chip (not for
        # split kernels, which run as clusters: sm_80 has none, nor for
        # sm_90a's wgmma.sp).
        if not sm80 or chip == "sm_90a":
            return info
        ptx80 = os.path.join(kdir, "sm80.ptx")
        with open(ptx) as f, open(ptx80, "w") as g:
            g.write(re.sub(r"\.target sm_90a?", ".target sm_80", f.read()))
        info["registers_sm80"], info["spill_bytes_sm80"] = ptxas_report(
            ptxas, ptx80, "sm_80")
        os.remove(ptx80)
    return info


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--vnm-opt", default=os.path.join(ROOT, "build", "bin",
                                                      "vnm-opt"))
    ap.add_argument("--format-lib", default=os.path.join(
        ROOT, "build", "lib", "libVNMFormatC.so"))
    ap.add_argument("--out", default=os.path.join(ROOT, "bench",
                                                  "build-quantized"))
    ap.add_argument("--blocks-per-sm", type=int, default=-1,
                    help="forwarded to the pipeline (-1: the heuristic, 0: "
                         "ptxas's choice)")
    for option in ("block-rows", "warp-rows", "warps-n", "stages", "unroll",
                   "k-splits"):
        ap.add_argument(f"--{option}", type=int, default=0,
                        help="forwarded to the pipeline (0: the heuristic)")
    ap.add_argument("--filter", default="",
                    help="comma-separated substrings of kernel names")
    ap.add_argument("--chip", choices=("sm_90", "sm_90a"), default="sm_90",
                    help="the GPU the kernels are for")
    ap.add_argument("--recipe", choices=("auto", "mma-sp", "wgmma-sp-ws"),
                    default="auto",
                    help="the kernel recipe (wgmma-sp-ws: W8A8 2:4 on s8 "
                         "wgmma.sp, sm_90a; the other forms keep mma.sp)")
    args = ap.parse_args()
    if args.recipe == "wgmma-sp-ws" and args.chip != "sm_90a":
        ap.error("--recipe wgmma-sp-ws needs --chip sm_90a")
    # The wgmma.sp recipe takes no mma.sp tiling options: they would keep
    # recipe=auto on mma.sp and make the pipeline refuse an explicit one.
    mma_sp_options = (args.blocks_per_sm != -1 or args.block_rows
                      or args.warp_rows or args.warps_n or args.unroll
                      or args.k_splits)
    if args.recipe == "wgmma-sp-ws" and mma_sp_options:
        ap.error("--recipe wgmma-sp-ws takes none of the mma.sp tiling "
                 "options (--blocks-per-sm, --block-rows, --warp-rows, "
                 "--warps-n, --unroll, --k-splits)")
    if args.recipe == "wgmma-sp-ws":
        tiling = f"recipe=wgmma-sp-ws stages={args.stages}"
    else:
        tiling = (f"recipe={args.recipe} blocks-per-sm={args.blocks_per_sm} "
                  f"block-rows={args.block_rows} warp-rows={args.warp_rows} "
                  f"warps-n={args.warps_n} stages={args.stages} "
                  f"unroll={args.unroll} k-splits={args.k_splits}")

    ptxas = shutil.which("ptxas") or (
        "/usr/local/cuda/bin/ptxas"
        if os.path.exists("/usr/local/cuda/bin/ptxas") else None)
    kernels_dir = os.path.join(args.out, "kernels")
    os.makedirs(kernels_dir, exist_ok=True)
    filters = args.filter.split(",")
    cases = [c for c in case_matrix.all_cases()
             if any(f in c["kernel"] for f in filters)]
    keys = sorted({(c["form"], c["rows"], c["cols"], c["v"], c["m"], c["out"])
                   for c in cases})
    with ThreadPoolExecutor(max_workers=os.cpu_count()) as pool:
        kernels = list(pool.map(
            lambda k: compile_one(args.vnm_opt, ptxas, kernels_dir, k, tiling,
                                  chip=args.chip, sm80=args.k_splits <= 1),
            keys))
    shutil.copy(args.format_lib, os.path.join(args.out, "libVNMFormatC.so"))
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump({"cases": cases, "kernels": {k["name"]: k for k in kernels},
                   "tiling": tiling, "chip": args.chip}, f, indent=1)
    spills = [k["name"] for k in kernels
              if k.get("spill_bytes") or k.get("spill_bytes_sm80")]
    print(f"compiled {len(kernels)} kernels for {len(cases)} cases"
          + (f"; ptxas sm_80 and sm_90: {len(spills)} with spills {spills}"
             if ptxas else "; no ptxas"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
