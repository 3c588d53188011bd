"""bench/ncu_top_stalls.py: an ncu source-page CSV (kernel line, header,
one row per instruction) summed and ranked by stall samples."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "bench"))

import ncu_top_stalls  # noqa: E402

PAGE = '''"Kernel Name","spmm_0",
"Address","Source","Warp Stall Sampling (All Samples)","stall_long_sb","stall_barrier"
"0x7f00ce40","      IMAD.MOV.U32 R114, RZ, RZ, R117","30","28","0"
"0x7f00cfd0","@!PT  LDS RZ, [RZ]","10","0","9"
"0x7f00d6a0","      HMMA.SP.16832.F32 R28, R12, R88, R28, R116, 0x1","60","59","0"
"0x7f00d6b0","      LDG.E.128.CONSTANT R12, desc[UR8][R104.64]","",""," "
'''


def test_ranks_instructions_by_samples(tmp_path):
    path = tmp_path / "src.csv"
    path.write_text(PAGE)
    lines = ncu_top_stalls.summary(ncu_top_stalls.read(str(path)), count=2)
    assert lines[0] == "100 samples, 87 on a long scoreboard (87%)"
    assert lines[1].startswith("d6a0     60  60.0%  long_sb     59  HMMA.SP")
    assert lines[2].startswith("ce40     30  30.0%  long_sb     28  IMAD.MOV")
    assert len(lines) == 3


def test_empty_page(tmp_path):
    path = tmp_path / "src.csv"
    path.write_text(PAGE.split("\n")[0] + "\n" + PAGE.split("\n")[1] + "\n")
    assert ncu_top_stalls.summary(ncu_top_stalls.read(str(path))) == ["no samples"]
