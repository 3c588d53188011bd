#!/usr/bin/env python3
"""Cuts the seed corpus of vnm-capi-fuzzer from the lit tests.

Every `// -----` part of a test file becomes seeds, with its RUN and CHECK
lines removed: one that only parses and verifies it, and one per pipeline
of the fuzzer that the file's RUN lines use (their pass names decide), so
that the fuzzer starts from inputs that reach deep into each pipeline. A
seed is one byte naming the pipeline (its index in kPipelines of
tools/vnm-capi-fuzzer/vnm-capi-fuzzer.cpp) followed by the MLIR text.

Usage: fuzz_corpus.py OUT_DIR TEST_DIR...
"""

import hashlib
import os
import re
import sys

# Index in kPipelines -> the RUN-line words that select it.
PIPELINE_WORDS = {
    1: ["canonicalize"],
    2: ["vnm-expand-storage"],
    3: ["vnm-sparsify"],
    4: ["vnm-lower-to-cpu-pipeline", "vnm-lower-to-loops"],
    5: ["vnm-lower-to-nvvm-pipeline", "convert-vnm-gpu-to-nvvm"],
    6: ["vnm-lower-to-nvvm-pipeline"],
    7: ["vnm-lower-to-gpu", "convert-vnm-gpu-to-loops", "vnm-pipeline-kernels"],
}
DIRECTIVE = re.compile(r"^\s*//\s*(RUN|CHECK|expected-|[A-Z0-9-]+:)")


def seeds_of(path):
    with open(path) as f:
        text = f.read()
    run_lines = " ".join(re.findall(r"//\s*RUN:(.*)", text))
    pipelines = [0] + [index for index, words in PIPELINE_WORDS.items()
                       if any(word in run_lines for word in words)]
    for part in text.split("// -----"):
        body = "\n".join(line for line in part.splitlines()
                         if not DIRECTIVE.match(line)).strip()
        if body:
            for index in pipelines:
                yield bytes([index]) + body.encode() + b"\n"


def main():
    out, roots = sys.argv[1], sys.argv[2:]
    os.makedirs(out, exist_ok=True)
    count = 0
    for root in roots:
        for folder, _, files in sorted(os.walk(root)):
            for name in sorted(files):
                if not name.endswith(".mlir"):
                    continue
                for seed in seeds_of(os.path.join(folder, name)):
                    digest = hashlib.sha1(seed).hexdigest()
                    with open(os.path.join(out, digest), "wb") as f:
                        f.write(seed)
                    count += 1
    print(f"fuzz_corpus: {count} seeds in {out}")


if __name__ == "__main__":
    main()
