#!/usr/bin/env python3
"""Copies the cases of a compile_cases.py build whose names match a filter,
with their kernels, the format library and a manifest of those alone, so
that several builds fit the working tree a GPU call carries.

    python3 bench/slim_build.py bench/build-sm90a bench/build-sm90a-m4 --filter _m4_
"""

import argparse
import json
import os
import shutil


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("source")
    ap.add_argument("dest")
    ap.add_argument("--filter", required=True,
                    help="substrings of kernel names, comma-separated (any)")
    args = ap.parse_args()
    keys = [k for k in args.filter.split(",") if k]
    with open(os.path.join(args.source, "manifest.json")) as f:
        manifest = json.load(f)
    kernels = {name: k for name, k in manifest["kernels"].items()
               if any(key in name for key in keys)}
    if not kernels:
        raise SystemExit(f"no kernel of {args.source} matches {args.filter!r}")
    manifest["kernels"] = kernels
    manifest["cases"] = [c for c in manifest["cases"] if c["kernel"] in kernels]
    if os.path.exists(args.dest):
        shutil.rmtree(args.dest)
    os.makedirs(os.path.join(args.dest, "kernels"))
    for name in kernels:
        shutil.copytree(os.path.join(args.source, "kernels", name),
                        os.path.join(args.dest, "kernels", name))
    for entry in os.listdir(args.source):
        if entry not in ("kernels", "manifest.json"):
            path = os.path.join(args.source, entry)
            if os.path.isfile(path):
                shutil.copy2(path, args.dest)
    with open(os.path.join(args.dest, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    print(f"{len(kernels)} kernels, {len(manifest['cases'])} cases in {args.dest}")


if __name__ == "__main__":
    main()
