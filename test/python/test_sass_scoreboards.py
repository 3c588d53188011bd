"""bench/sass_scoreboards.py: the control fields of real sm_90 words (from
ptxas 13 output of a tile-program kernel), decoded as nvdisasm's listing
gives them: low half on the instruction's line, high half on the next."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "bench"))

import sass_scoreboards  # noqa: E402

LISTING = """\
.L_x_0:
        /*0c40*/                   IMAD.MOV.U32 R114, RZ, RZ, R117 ;     /* 0x000000ffff727224 */
                                                                          /* 0x020fe400078e0075 */
        /*11c0*/                   HMMA.SP.16832.F32 R28, R20, R88, R28, R116, 0x0 ; /* 0x00007458141c723c */
                                                                          /* 0x004ff00000005a1c */
        /*1390*/                   LDSM.16.MT88.4 R88, [R118+UR6+0x2000] ; /* 0x002000067658783b */
                                                                          /* 0x000eee0008004200 */
        /*1440*/                   LDG.E.CONSTANT R117, desc[UR8][R106.64] ; /* 0x000000086a757981 */
                                                                          /* 0x002364000c1e9900 */
"""


def test_parse_reads_each_instruction_once():
    rows = sass_scoreboards.parse(LISTING)
    assert [r[0] for r in rows] == ["0c40", "11c0", "1390", "1440"]
    assert rows[2][1] == "LDSM.16.MT88.4 R88, [R118+UR6+0x2000]"


def test_control_fields():
    fields = {a: f for a, _, f in sass_scoreboards.parse(LISTING)}
    # The move of a loaded register waits for the load's barrier.
    assert fields["0c40"]["wait"] == [5]
    assert fields["0c40"]["write"] is None
    # The MMA waits for its B fragment's ldmatrix.
    assert fields["11c0"] == {"stall": 8, "write": None, "read": None,
                              "wait": [2]}
    # The shared load sets barrier 3 and waits for none.
    assert fields["1390"]["write"] == 3 and fields["1390"]["wait"] == []
    # The global load sets 5, holds 1 until its address is read, waits 1.
    assert fields["1440"] == {"stall": 2, "write": 5, "read": 1,
                              "wait": [1]}


def test_describe_names_the_barriers():
    fields = sass_scoreboards.parse(LISTING)[3][2]
    assert sass_scoreboards.describe(fields) == \
        "stall  2  sets SB5  holds SB1  waits SB1"
