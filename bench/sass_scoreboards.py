#!/usr/bin/env python3
"""Prints a SASS listing with each instruction's dependency barriers.

  nvdisasm -hex -c kernel.cubin > kernel.sass
  python3 bench/sass_scoreboards.py kernel.sass [first address] [last address]

An sm_70+ instruction is 128 bits; its control bits say how long the
scheduler stalls after it, which barrier (scoreboard 0-5) its result sets
when it writes late (global, shared and local loads, MUFU), which barrier
its source registers hold until they are read, and which barriers it waits
on. A wait is on a barrier, not on a register: an instruction that needs
one load's result also waits for every later load that set the same
barrier. That is how a loop's global loads can be exposed by an
instruction that only needs a shared-memory load, and it is what a
`Warp Stall Sampling` line of ncu's source page cannot show by itself.

Fields (bit positions in the 128-bit word): stall 105-108, yield 109,
write barrier 110-112, read barrier 113-115 (7: none), wait mask 116-121.
Addresses are the hexadecimal offsets nvdisasm prints (e.g. 0c10).
"""

import re
import sys

_LINE = re.compile(r"\s*/\*([0-9a-f]+)\*/\s*(.*?)\s*;\s*/\*\s*(0x[0-9a-f]+)\s*\*/")
_HIGH = re.compile(r"^\s*/\*\s*(0x[0-9a-f]+)\s*\*/\s*$")


def control(word):
    """The control fields of a 128-bit instruction word."""
    wait = (word >> 116) & 0x3F
    return {"stall": (word >> 105) & 0xF,
            "write": None if (b := (word >> 110) & 7) == 7 else b,
            "read": None if (b := (word >> 113) & 7) == 7 else b,
            "wait": [i for i in range(6) if wait >> i & 1]}


def parse(text):
    """(address, instruction, control fields) of each instruction of an
    `nvdisasm -hex` listing, whose words come as a low half on the
    instruction's line and a high half on the next."""
    lines = text.splitlines()
    out = []
    for i, line in enumerate(lines):
        m = _LINE.match(line)
        if not m or i + 1 >= len(lines):
            continue
        high = _HIGH.match(lines[i + 1])
        if not high:
            continue
        word = int(high.group(1), 16) << 64 | int(m.group(3), 16)
        out.append((m.group(1).rjust(4, "0"), m.group(2), control(word)))
    return out


def describe(fields):
    s = f"stall {fields['stall']:2d}"
    if fields["write"] is not None:
        s += f"  sets SB{fields['write']}"
    if fields["read"] is not None:
        s += f"  holds SB{fields['read']}"
    if fields["wait"]:
        s += "  waits " + ",".join(f"SB{b}" for b in fields["wait"])
    return s


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    rows = parse(open(sys.argv[1]).read())
    first = sys.argv[2].rjust(4, "0") if len(sys.argv) > 2 else None
    last = sys.argv[3].rjust(4, "0") if len(sys.argv) > 3 else None
    printing = first is None
    for address, instruction, fields in rows:
        printing = printing or address == first
        if printing:
            print(f"{address}  {instruction[:64]:64s} {describe(fields)}")
        if address == last:
            break


if __name__ == "__main__":
    main()
