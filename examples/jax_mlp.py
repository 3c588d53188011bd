#!/usr/bin/env python3
"""A JAX MLP with its weights pruned to 64:2:8, lowered by vnm.jax and run
on the generated sparse-tensor-core kernels.

Two steps, because compiling needs LLVM/MLIR (libVNMCAPI.so) and running
needs a GPU:

  # here: vnm.jax.lower(mlp, x, w1, w2, sparsity=..., target="sm_90"), the
  # kernels' PTX and launch contracts, the vnm IR and the launch plan
  PYTHONPATH=python VNM_LIBRARY_PATH=build/lib \\
      python3 examples/jax_mlp.py compile bench/build/jax-mlp
  # on the GPU host: JAX (CUDA), CuPy and the format library alone
  PYTHONPATH=python VNM_LIBRARY_PATH=bench/build/jax-mlp/libVNMFormatC.so \\
      python3 examples/jax_mlp.py run bench/build/jax-mlp --out results/jax_mlp.md

The MLP is x -> relu(x @ W1.T) @ W2.T, 4096 -> 11008 -> 4096 in fp16 with
2048 tokens (`compile --tokens N` for another count). `compile` records in
plan.json which kernel the lowered IR launches for which weight argument,
in program order, and what lies between them. `run` packs random weights
with vnm.format, launches the kernels through vnm.runtime (JAX arrays cross
to CuPy through DLPack) in that order, checks the output against JAX's own
dense forward on the same pruned weights (relative error <= 1e-2), times
both (CUDA events, medians) and writes a markdown result.
"""

import argparse
import datetime
import json
import os
import re
import shutil
import sys
import time

HIDDEN, FFN, TOKENS, FORMAT = 4096, 11008, 2048, "64:2:8"
SPARSITY = {1: FORMAT, 2: FORMAT}
TOLERANCE = 1e-2


def mlp(x, w1, w2):
    import jax

    return jax.nn.relu(x @ w1.T) @ w2.T


# ---------------------------------------------------------------- compile


def _main_body(ir):
    """The lines of the entry function @main of a printed module."""
    lines = ir.splitlines()
    start = next(i for i, line in enumerate(lines) if "func.func public @main(" in line)
    body = []
    for line in lines[start + 1:]:
        if line.startswith("  }"):
            break
        body.append(line.strip())
    return body


def launch_plan(vnm_ir, gpu_ir, kernels):
    """The feature-major launch sequence the lowered IR implies.

    In the vnm IR of the MLP, @main transposes x to K x N (the kernels'
    layout), runs vnm.spmm on argument 1, transposes back, applies relu and
    transposes forward again for the second vnm.spmm on argument 2, and
    transposes the result. The frontend pipeline fuses relu into the first
    spmm (its `activation`) where it can; otherwise relu is a call between
    the transposes. relu is elementwise, so the transposes between the two
    spmm ops cancel: the plan keeps the activations K x N from the first
    transpose to the last and lists only the spmm launches and an unfused
    relu. The GPU IR names each spmm's kernel (vnm.gpu_kernel), in the same
    program order."""
    ops = []
    for line in _main_body(vnm_ir):
        if (m := re.search(r"vnm\.spmm %arg(\d+),", line)):
            fused = re.search(r"activation = #vnm\.activation<(\w+)>", line)
            ops.append(("spmm", int(m.group(1)) if not fused else
                        f"{m.group(1)}+{fused.group(1)}"))
        elif (m := re.search(r"call @(\w+)\(", line)):
            ops.append(("call", m.group(1)))
        elif "linalg.transpose" in line:
            ops.append(("transpose", None))
        elif "linalg." in line or "vnm." in line:
            ops.append(("other", line))
    unfused = [("transpose", None), ("spmm", 1), ("transpose", None), ("call", "relu"),
               ("transpose", None), ("spmm", 2), ("transpose", None)]
    fused = [("transpose", None), ("spmm", "1+relu"), ("transpose", None),
             ("transpose", None), ("spmm", 2), ("transpose", None)]
    if ops not in (unfused, fused):
        raise SystemExit(f"the lowered MLP is not transpose, spmm(w1), relu, spmm(w2), "
                         f"transpose; the example cannot run it: {ops}")
    launched = re.findall(r"vnm\.gpu_kernel = @\w+::@(\w+)", "\n".join(_main_body(gpu_ir)))
    contracts = {k.name: k.contract for k in kernels}
    if len(launched) != 2 or set(launched) != set(contracts):
        raise SystemExit(f"expected two kernels launched from @main, found {launched}")
    shapes = {1: (FFN, HIDDEN), 2: (HIDDEN, FFN)}
    activations = {1: "relu" if ops == fused else "none", 2: "none"}
    steps = []
    for kernel, argument in zip(launched, (1, 2)):
        c = contracts[kernel]
        # The plan keeps the activations K x N between the kernels: both
        # read rhs K x N and the first stores R x N (the last may store
        # y[N][R] itself: out_layout).
        if ((c["rows"], c["cols"]) != shapes[argument] or c["bias"] or c["accumulate"]
                or c["activation"] != activations[argument]
                or c.get("rhs_layout") == "token_major"
                or (argument == 1 and c.get("out_layout") == "token_major")):
            raise SystemExit(f"kernel {kernel} does not fit weight argument {argument}: {c}")
        steps.append({"op": "spmm", "kernel": kernel, "weight_argument": argument,
                      "rows": c["rows"], "cols": c["cols"], "activation": c["activation"],
                      "out_layout": c.get("out_layout", "r_by_n"),
                      "format": f"{c['v']}:{c['n']}:{c['m']}"})
        if argument == 1 and ops == unfused:
            steps.append({"op": "relu"})
    return {"ir_ops": [op if arg is None else f"{op}({arg})" for op, arg in ops],
            "steps": steps}


def compile_kernels(directory, tokens):
    import jax
    import jax.numpy as jnp
    import vnm
    import vnm.jax

    args = (jax.ShapeDtypeStruct((tokens, HIDDEN), jnp.float16),
            jax.ShapeDtypeStruct((FFN, HIDDEN), jnp.float16),
            jax.ShapeDtypeStruct((HIDDEN, FFN), jnp.float16))
    start = time.perf_counter()
    front = vnm.jax.lower(mlp, *args, sparsity=SPARSITY)
    gpu = vnm.jax.lower(mlp, *args, sparsity=SPARSITY, target="sm_90")
    seconds = time.perf_counter() - start
    os.makedirs(directory, exist_ok=True)
    gpu.write(directory)
    with open(os.path.join(directory, "mlp.vnm.mlir"), "w") as f:
        f.write(front.ir)
    plan = {"model": "relu(x @ w1.T) @ w2.T", "hidden": HIDDEN, "ffn": FFN,
            "tokens": tokens, "dtype": "f16", "sparsity": {str(k): v for k, v in SPARSITY.items()},
            "target": "sm_90", **launch_plan(front.ir, gpu.ir, gpu.kernels)}
    with open(os.path.join(directory, "plan.json"), "w") as f:
        json.dump(plan, f, indent=1)
    # The format library alone, for a GPU host without LLVM.
    format_library = os.path.join(os.path.dirname(str(vnm.library_path)), "libVNMFormatC.so")
    if os.path.isfile(format_library):
        shutil.copy(format_library, directory)
    for step in plan["steps"]:
        if step["op"] == "spmm":
            print(f"{step['kernel']}: weight argument {step['weight_argument']}, "
                  f"{step['rows']}x{step['cols']} f16, {step['format']}")
        else:
            print(step["op"])
    print(f"lowered and compiled in {seconds:.1f} s; kernels, plan.json and mlp.vnm.mlir "
          f"in {directory}")
    return 0


# -------------------------------------------------------------------- run


def event_median_ms(cupy, fn, runs, warmup):
    """Median over `runs` of CUDA-event time on CuPy's stream, the GPU idle
    before each run. fn returns a JAX array; handing it to CuPy through
    DLPack makes the stream wait for it, so the end event follows the work
    of JAX's own streams as well."""
    stream = cupy.cuda.get_current_stream()
    for _ in range(warmup):
        cupy.from_dlpack(fn())
    times = []
    for _ in range(runs):
        cupy.cuda.Device().synchronize()
        start, end = cupy.cuda.Event(), cupy.cuda.Event()
        start.record(stream)
        cupy.from_dlpack(fn())
        end.record(stream)
        end.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, end))
    return sorted(times)[len(times) // 2]


def run(directory, out_path, runs, warmup):
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    import cupy
    import jax
    import jax.numpy as jnp
    import numpy as np
    from vnm.jax_runtime import SparseMatmul, to_cupy, to_jax
    from vnm.runtime import SpmmKernel

    if jax.devices()[0].platform != "gpu":
        raise SystemExit(f"JAX runs on {jax.devices()[0].platform}, not on a GPU")
    with open(os.path.join(directory, "plan.json")) as f:
        plan = json.load(f)
    hidden, ffn, tokens = plan["hidden"], plan["ffn"], plan["tokens"]
    seed = int.from_bytes(os.urandom(4), "little")
    rng = np.random.default_rng(seed)
    weights = {1: (rng.standard_normal((ffn, hidden)) / np.sqrt(hidden)).astype(np.float16),
               2: (rng.standard_normal((hidden, ffn)) / np.sqrt(ffn)).astype(np.float16)}
    x = jnp.asarray(rng.standard_normal((tokens, hidden)).astype(np.float16))

    # Pack each weight for the kernel the plan launches for it.
    layers = {}
    for step in plan["steps"]:
        if step["op"] == "spmm":
            kernel = SpmmKernel.from_files(directory, step["kernel"])
            layers[step["weight_argument"]] = SparseMatmul(kernel, weights[step["weight_argument"]])
    w1p, w2p = layers[1].pruned_weight(), layers[2].pruned_weight()

    def vnm_feature_major(act, n):
        """The plan's steps on K x ld activations (CuPy)."""
        for step in plan["steps"]:
            if step["op"] == "spmm":
                act = layers[step["weight_argument"]].apply_t(act, n=n)
            elif step["op"] == "relu":
                cupy.maximum(act, 0, out=act)
            else:
                raise SystemExit(f"unknown step {step}")
        return act

    def vnm_forward(x):
        """JAX in, JAX out: the lowered IR's first and last transposes,
        around the plan's steps."""
        n = x.shape[0]
        ld = (n + 7) // 8 * 8
        act = cupy.zeros((x.shape[1], ld), dtype=cupy.float16)
        act[:, :n] = to_cupy(x).T
        y = vnm_feature_major(act, n)
        # The last kernel stores y[N][R] itself where its contract says so.
        if layers[2].kernel.token_major_out:
            return to_jax(cupy.ascontiguousarray(y[:n]))
        return to_jax(cupy.ascontiguousarray(y[:, :n].T))

    dense = jax.jit(mlp)
    y_dense = dense(x, w1p, w2p).astype(jnp.float32)
    y_sparse = vnm_forward(x).astype(jnp.float32)
    error = float(jnp.linalg.norm(y_sparse - y_dense) / jnp.linalg.norm(y_dense))
    finite = bool(jnp.isfinite(y_sparse).all())
    # One layer through SparseMatmul.__call__ (the JAX-callable form).
    h_dense = (x @ w1p.T).astype(jnp.float32)
    if plan["steps"][0]["activation"] == "relu":  # fused into the first kernel
        h_dense = jax.nn.relu(h_dense)
    h_sparse = layers[1](x).astype(jnp.float32)
    layer_error = float(jnp.linalg.norm(h_sparse - h_dense) / jnp.linalg.norm(h_dense))
    ok = finite and error <= TOLERANCE and layer_error <= TOLERANCE

    act_in = cupy.zeros((hidden, (tokens + 7) // 8 * 8), dtype=cupy.float16)
    act_in[:, :tokens] = to_cupy(x).T
    t_dense = event_median_ms(cupy, lambda: dense(x, w1p, w2p), runs, warmup)
    t_vnm = event_median_ms(cupy, lambda: vnm_forward(x), runs, warmup)
    t_kernels = event_median_ms(
        cupy, lambda: to_jax(vnm_feature_major(act_in, tokens)), runs, warmup)

    properties = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)
    device = (f"{properties['name'].decode()} (sm_{properties['major']}{properties['minor']}), "
              f"JAX device {jax.devices()[0].device_kind}")
    command = " ".join(["python3"] + sys.argv)
    kernels = ", ".join(f"{s['kernel']} ({s['rows']}x{s['cols']}, {s['format']})"
                        for s in plan["steps"] if s["op"] == "spmm")
    lines = [
        "# JAX MLP on vnm's sparse-tensor-core kernels",
        "",
        f"- date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}",
        f"- device: {device}",
        f"- command: `{command}`",
        f"- versions: jax {jax.__version__}, cupy {cupy.__version__}, "
        f"CUDA runtime {cupy.cuda.runtime.runtimeGetVersion()}",
        f"- model: `{plan['model']}`, {hidden} -> {ffn} -> {hidden}, fp16, {tokens} tokens, "
        f"weights pruned to {FORMAT} (random, seed {seed})",
        f"- kernels (vnm.jax.lower, {plan['target']}): {kernels}; lowered IR ops in @main: "
        f"{', '.join(plan['ir_ops'])}",
        "",
        "| forward | median ms | speed-up over JAX dense |",
        "| --- | ---: | ---: |",
        f"| JAX dense (jax.jit, XLA) on the pruned weights | {t_dense:.3f} | 1.00x |",
        f"| vnm, JAX array in and out (DLPack, input/output transposes) | {t_vnm:.3f} "
        f"| {t_dense / t_vnm:.2f}x |",
        f"| vnm kernels and ReLU only (activations already feature-major) | {t_kernels:.3f} "
        f"| {t_dense / t_kernels:.2f}x |",
        "",
        f"Relative error (Frobenius) of vnm's output against the JAX dense forward on the "
        f"same pruned weights: {error:.2e}; first layer alone through "
        f"vnm.jax_runtime.SparseMatmul: {layer_error:.2e} (bound {TOLERANCE:g}; "
        f"{'ok' if ok else 'WRONG'}{'' if finite else ', non-finite output'}).",
        "",
        f"Timing: CUDA events on CuPy's stream, median of {runs} runs after {warmup} warm-up "
        "runs, the GPU idle before each run; every run ends with the result handed to CuPy "
        "through DLPack, which makes the stream wait for JAX's work. Host dispatch between "
        "the events is included for both.",
        "",
    ]
    text = "\n".join(lines)
    if out_path:
        os.makedirs(os.path.dirname(os.path.abspath(out_path)), exist_ok=True)
        with open(out_path, "w") as f:
            f.write(text)
    print(text)
    return 0 if ok else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("compile", help="lower and compile (needs libVNMCAPI.so)")
    c.add_argument("directory")
    c.add_argument("--tokens", type=int, default=TOKENS)
    r = sub.add_parser("run", help="run and time on the GPU (JAX, CuPy)")
    r.add_argument("directory")
    r.add_argument("--out", help="markdown result file")
    r.add_argument("--runs", type=int, default=30)
    r.add_argument("--warmup", type=int, default=5)
    args = parser.parse_args()
    if args.command == "compile":
        return compile_kernels(args.directory, args.tokens)
    if args.runs < 20:
        parser.error("--runs must be at least 20")
    return run(args.directory, args.out, args.runs, args.warmup)


if __name__ == "__main__":
    sys.exit(main())
