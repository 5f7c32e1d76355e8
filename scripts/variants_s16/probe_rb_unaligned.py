"""register_blocked (float32's FFMA pick for large outputs with a short K) where C's rows are not
16-byte aligned, against its aligned neighbour (N + 1 or N - 1) and cuBLAS: the staged store's
effect (sixteenth session). Run once per template (gpu_s16d.sh swaps in the one before).

    PYTHONPATH=. python3 scripts/variants_s16/probe_rb_unaligned.py LABEL
"""

from __future__ import annotations

import sys

from tiled_matmul.timing import L2Flusher

sys.path.insert(0, "scripts/variants_s14")
from probe_small import compare  # noqa: E402

SHAPES = [(8192, 8191, 8), (8192, 8192, 8), (8191, 8191, 1), (16383, 16383, 16), (2000, 4001, 8),
          (5000, 3001, 32), (3000, 3001, 64), (8192, 8190, 100), (3001, 2999, 16), (8192, 8192, 1),
          (16384, 16384, 16), (8192, 8192, 7)]


def main() -> None:
    flush = L2Flusher()
    print("template:", sys.argv[1] if sys.argv[1:] else "current", flush=True)
    for M, N, K in SHAPES:
        compare("float32", M, N, K, [("auto", {}), ("register_blocked", {}),
                                     ("register_blocked", dict(bm=64, bn=64, bk=16, tm=4, tn=4))], flush)
    for M, N, K in SHAPES[:3]:
        compare("float64", M, N, K, [("register_blocked", {}), ("register_blocked", dict(bm=64, bn=64, bk=16, tm=4, tn=4))],
                flush)


if __name__ == "__main__":
    main()
