"""bench/validated_kernels.py: which recorded GPU results validate a kernel,
and on which GPU."""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "bench"))

import validated_kernels  # noqa: E402


def test_kernels_by_ptx_identity_and_device(tmp_path, capsys):
    build = tmp_path / "build"
    build.mkdir()
    kernels = {name: {"name": name, "ptx_sha256": sha} for name, sha in
               (("a", "aa"), ("b", "bb"), ("c", "cc"), ("d", "dd"))}
    (build / "manifest.json").write_text(json.dumps({"kernels": kernels}))
    results = tmp_path / "results"
    results.mkdir()
    # The device from the file name (older files) or from the row.
    (results / "2026-01-01-h200-run.csv").write_text(
        "case,correct,ptx_sha256\nx,True,aa\ny,False,bb\n")
    (results / "later.csv").write_text(
        "case,correct,ptx_sha256,device\nx,True,aa,NVIDIA H100 80GB HBM3\n"
        "z,True,cc,NVIDIA H100 80GB HBM3\nw,True,dd,\n")
    # A record's folder: its name gives the GPU of rows without a device.
    (results / "2026-02-01-h100-record" / "family").mkdir(parents=True)
    (results / "2026-02-01-h100-record" / "family" / "results.csv").write_text(
        "case,correct,ptx_sha256\nv,True,ee\n")
    kernels["e"] = {"name": "e", "ptx_sha256": "ee"}
    (build / "manifest.json").write_text(json.dumps({"kernels": kernels}))
    sys.argv = ["validated_kernels.py", "--build", str(build), "--results", str(results)]
    assert validated_kernels.main() == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("validated on H100 and H200   a  (")
    assert lines[1].startswith("untested on a GPU      b")  # its run was wrong
    assert lines[2].startswith("validated on H100   c  (later.csv)")
    assert lines[3].startswith("validated on an unrecorded GPU   d")
    assert lines[4].startswith(
        "validated on H100   e  (2026-02-01-h100-record/family/results.csv)")
    assert lines[5] == ("4/5 kernels of the case matrix have a correct GPU result "
                        "recorded for exactly their PTX; 1/5 on an H200")
