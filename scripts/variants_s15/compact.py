"""Print a probe_small.compare log compactly: each shape's cuBLAS line, then one line per candidate
(name, params, microseconds, x cuBLAS), and any WRONG or error line. Used by the fifteenth
session's GPU scripts.

    python3 scripts/variants_s15/compact.py LOG
"""

from __future__ import annotations

import re
import sys


def main() -> None:
    for line in open(sys.argv[1]):
        if re.match(r"\w+ \d+x\d+x\d+: cuBLAS", line) or "WRONG" in line or "Error" in line:
            print(line.rstrip()[:140])
            continue
        m = re.match(r"\s+(\S+) (\{.*\})\s+([\d.]+) us\s+([\d.]+)x", line)
        if m:
            print("   ", m.group(1)[:26], m.group(2).replace("'", "").replace(" ", "")[:70], m.group(3), m.group(4))


if __name__ == "__main__":
    main()
