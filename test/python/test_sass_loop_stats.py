"""bench/sass_loop_stats.py: which SASS loops hold tensor-core MMAs and how
much MMA work they hold, for every MMA opcode the kernels issue."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "bench"))

import sass_loop_stats as stats  # noqa: E402


def loop_of(mma_lines):
    """A SASS listing with one loop: a label, `mma_lines`, two other
    instructions and a branch back to the label."""
    lines = [".L_x_1:"]
    address = 0x100
    counter = ["IADD3 R2, R2, 0x1, RZ ;",
               "ISETP.NE.AND P0, PT, R2, R3, PT ;",
               "@P0 BRA `(.L_x_1) ;"]
    for text in mma_lines + counter:
        lines.append(f"        /*{address:04x}*/                   {text}")
        address += 0x10
    lines.append(f"        /*{address:04x}*/                   EXIT ;")
    return lines


def test_each_mma_opcode_is_counted_in_its_units():
    cases = {
        # mma.sp m16n8k32 (f16) and m16n8k64 (s8): one unit each.
        "HMMA.SP.16832.F32 R84, R4, R96, R84, R118, 0x0 ;": 1,
        "IMMA.SP.16864.S8.S8 R84, R4, R96, R84, R118, 0x0 ;": 1,
        # wgmma.sp: one warp's share of 64 x N is N / 8 of those.
        "HGMMA.SP.64x256x32.F32 R24, gdesc[UR4], R24, UR8, 0x0 ;": 32,
        "IGMMA.SP.64x128x64.S8.S8 R24, gdesc[UR4], R24, UR8, 0x0 ;": 16,
    }
    for line, units in cases.items():
        sass = loop_of([line, line])
        bodies = stats.loop_bodies(sass)
        assert len(bodies) == 1, line
        assert stats.categories(bodies[0])["hmma"] == 2, line
        assert stats.m16n8k32_equivalents(bodies[0]) == 2 * units, line
        assert stats.loops(sass) == [(5, 2, 0, 2 * units)], line


def test_a_loop_without_mma_is_not_a_k_loop():
    sass = loop_of(["LDS R4, [R2] ;"])
    assert stats.loop_bodies(sass) == []
    assert stats.k_loop_body(sass) == ("span", [])
