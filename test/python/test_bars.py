"""bench/bars.py: which cases each bar takes, and its verdict."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "bench"))

import bars  # noqa: E402


def float_row(rows, v, m, speedup, dtype="f16", epilogue="none", n=4096, correct=True):
    return {"case": f"r{rows}_k4096_v{v}_m{m}_{dtype}_n{n}", "rows": str(rows),
            "cols": "4096", "n": str(n), "v": str(v), "m": str(m), "dtype": dtype,
            "out": dtype, "epilogue": epilogue, "correct": str(correct),
            "speedup_vs_cublas": str(speedup)}


def by_name(result):
    return {name: (cases, bar) for name, cases, _, bar, _ in result}


def test_float_bars_take_the_f16_bar_shapes_only():
    rows = [
        float_row(4096, 64, 4, 0.9), float_row(11008, 128, 4, 0.7),
        float_row(1024, 64, 4, 2.0),                     # not a bar shape
        float_row(4096, 64, 4, 2.0, dtype="bf16"),       # not f16
        float_row(4096, 64, 4, 2.0, epilogue="relu"),    # an epilogue
        float_row(4096, 64, 4, 2.0, n=512),              # another N
        float_row(4096, 64, 4, 2.0, correct=False),      # wrong result
        float_row(4096, 128, 8, 1.6), float_row(11008, 128, 8, 1.5),
    ]
    result = by_name(bars.float_rows("mma.sp", rows))
    cases, bar = result["mma.sp 2:4"]
    assert bar == 0.8
    assert sorted(float(r["speedup_vs_cublas"]) for r in cases) == [0.7, 0.9]
    cases, bar = result["mma.sp V = 128 2:8"]
    assert bar == 1.5 and len(cases) == 2
    assert result["mma.sp V = 64 2:8"][0] == []
    assert by_name(bars.float_rows("wgmma.sp", rows))["wgmma.sp 2:4"][1] == 1.6


def test_quantized_bars():
    def row(form, rows, v, m, n, int_mm, fp16):
        return {"case": f"{form}_r{rows}_k4096_v{v}_m{m}_f16_n{n}", "rows": str(rows),
                "cols": "4096", "n": str(n), "v": str(v), "m": str(m), "correct": "True",
                "speedup_vs_int_mm": str(int_mm), "speedup_vs_fp16_mm": str(fp16)}

    rows = [row("w8a8", 4096, 64, 4, 4096, 1.3, 1.0), row("w8a8", 4096, 128, 8, 4096, 2.1, 1.0),
            row("w8a8", 4096, 64, 8, 4096, 9.0, 1.0), row("w8a8", 4096, 64, 4, 512, 0.1, 1.0),
            row("w4a16g128", 4096, 64, 8, 1, 0.0, 4.5), row("w4a16", 4096, 64, 8, 16, 0.0, 3.0),
            row("w4a16", 4096, 64, 8, 4096, 0.0, 0.1), row("w4a16", 4096, 128, 8, 1, 0.0, 0.1)]
    result = by_name(bars.quantized_rows(rows))
    assert [r["case"] for r in result["W8A8 2:4"][0]] == ["w8a8_r4096_k4096_v64_m4_f16_n4096"]
    assert [r["case"] for r in result["W8A8 V = 128 2:8"][0]] == \
        ["w8a8_r4096_k4096_v128_m8_f16_n4096"]
    assert sorted(r["case"] for r in result["W4A16 64:2:8, N <= 16"][0]) == \
        ["w4a16_r4096_k4096_v64_m8_f16_n16", "w4a16g128_r4096_k4096_v64_m8_f16_n1"]


def test_verdicts(tmp_path, capsys):
    path = tmp_path / "results.csv"
    fields = list(float_row(4096, 64, 4, 0).keys())
    lines = [",".join(fields)]
    for r in (float_row(4096, 64, 4, 0.9), float_row(11008, 64, 4, 0.85),
              float_row(4096, 128, 8, 1.6), float_row(11008, 128, 8, 1.4)):
        lines.append(",".join(r[f] for f in fields))
    path.write_text("\n".join(lines) + "\n")
    sys.argv = ["bars.py", f"mma.sp={path}"]
    assert bars.main() == 1  # bars without a case in the run
    out = capsys.readouterr().out
    assert "| mma.sp 2:4 | 2 | 0.85-0.90x | cuBLAS | 0.8x | yes |" in out
    assert "| mma.sp V = 128 2:8 | 2 | 1.40-1.60x | cuBLAS | 1.5x | no (best 1.60x) |" in out
    assert "| mma.sp V = 64 2:8 | 0 | - | cuBLAS | 1.3x | no case |" in out
