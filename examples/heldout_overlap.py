#!/usr/bin/env python3
"""How close the distillation text of examples/minilm_pruning.py comes to
its held-out numpy docstrings.

Exact duplicates are removed by the pruning script itself; this looks for
near duplicates. For each held-out numpy sentence it takes the best
word-set Jaccard similarity (lower-case words of letters) to any sentence
of a text source, and prints per source how many held-out sentences reach
0.8 and 0.6, and the median best match. The sources are the
standard-library docstrings (the default distillation text) and the
PyTorch docstrings that --torch-docs adds.

  PYTHONPATH=python python3 examples/heldout_overlap.py
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import minilm_pruning as mp  # noqa: E402


def words(sentence):
    return frozenset(re.findall(r"[a-z]+", sentence.lower()))


def best_matches(heldout, source):
    """Each held-out sentence's best Jaccard similarity to `source`."""
    pool = [w for w in map(words, source) if w]
    best = []
    for sentence in heldout:
        a = words(sentence)
        best.append(max((len(a & b) / len(a | b) for b in pool), default=0.0))
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--heldout-docs", type=int, default=300)
    ap.add_argument("--distill-docs", type=int, default=32768)
    args = ap.parse_args()
    args.calibration = 512
    _, distill_text, heldout = mp.texts(args)
    distilled = set(distill_text)
    torch_text = [s for s in mp.sentences(mp.docstrings(mp.TORCH_MODULES))
                  if s not in distilled]
    numpy_heldout = heldout["numpy docstrings"]
    print(f"{len(numpy_heldout)} held-out numpy sentences")
    for name, source in (("standard library", distill_text), ("torch", torch_text)):
        best = sorted(best_matches(numpy_heldout, source))
        print(f"{name}: {len(source)} sentences; held-out sentences with a best match "
              f">= 0.8: {sum(b >= 0.8 for b in best)}, >= 0.6: {sum(b >= 0.6 for b in best)}; "
              f"median best match {best[len(best) // 2]:.2f}")


if __name__ == "__main__":
    main()
