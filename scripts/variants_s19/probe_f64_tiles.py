"""float64 tiles of 96 (nineteenth session): does a 96-wide dmma tile's wave count beat the shipped
tiles where 128-wide tiles leave most of a last wave idle (5000 x 3000 x 1000: 1880 tiles of
128 x 64 on 264 slots are 7.1 waves, 1280 tiles of 128 x 96 on 132 are 9.7)?

    PYTHONPATH=. python3 scripts/variants_s19/probe_f64_tiles.py OUT.jsonl [ROUNDS] [twocta]

twocta: instead of the 96-wide tiles, dmma's 32 x 64 warp tile (the FRAG_AHEAD loop of its 128 x 128
pick) in blocks of four warps at two blocks per SM (128 x 64 and 64 x 128), against the shipped
tiles, on the 12 shapes and the suite's other float64 compute-bound ones.

Every candidate is checked once (tm.check), then timed (CUDA events, L2 flushed, median of 7),
with cuBLAS and auto in each round; the summary prints each candidate's median x cuBLAS.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, "scripts/variants_s17")
from probe_sweep import run  # noqa: E402

from tiled_matmul.timing import L2Flusher  # noqa: E402

SHAPES = [(5000, 3000, 1000), (3000, 5000, 1000), (5000, 3000, 3000), (3001, 2999, 3007), (2048, 2048, 2048),
          (4096, 4096, 4096), (6000, 4000, 2000), (7000, 2000, 1000), (2500, 2500, 2500), (4000, 3000, 1500),
          (10000, 1500, 1000), (1500, 10000, 1000)]
CANDS = [("dmma", {}), ("dmma", dict(bm=128, bn=64, wm=64, wn=32, min_blocks=2)),
         ("dmma", dict(bm=128, bn=96, wm=32, wn=48)), ("dmma", dict(bm=128, bn=96, bk=32, wm=32, wn=48)),
         ("dmma", dict(bm=96, bn=64, wm=48, wn=32, min_blocks=2)),
         ("dmma", dict(bm=64, bn=96, wm=32, wn=48, min_blocks=2)),
         ("dmma_tail", dict(bm=128, bn=96, wm=32, wn=48))]
TWO_CTA_SHAPES = SHAPES + [(1024, 1024, 1024), (8192, 8192, 8192), (8192, 8192, 128), (128, 8192, 8192),
                           (16384, 64, 4096), (1536, 1536, 1536), (9727, 8929, 308), (10788, 370, 3430)]
TWO_CTA = [("dmma", {}), ("dmma", dict(bm=128, bn=64, wm=64, wn=32, min_blocks=2)),
           ("dmma", dict(bm=128, bn=64, wm=32, wn=64, min_blocks=2)),
           ("dmma", dict(bm=64, bn=128, wm=32, wn=64, min_blocks=2)),
           ("dmma", dict(bm=64, bn=128, wm=32, wn=64, min_blocks=2, stages=4)),
           ("dmma", dict(bm=128, bn=64, bk=8, wm=32, wn=64, stages=5, min_blocks=2)),
           ("dmma_tail", dict(bm=128, bn=64, wm=32, wn=64, min_blocks=2))]


def probe(path: str, rounds: int, shapes, cands) -> None:
    """Every candidate of `cands` (and auto and cuBLAS) on every float64 shape, `rounds` times, one
    JSON line each into `path`; then one line per candidate: its median, x cuBLAS, auto's pick."""
    flush = L2Flusher()
    with open(path, "w") as out:
        for r in range(rounds):
            for shape in shapes:
                run("float64", shape, cands, flush, out)
    rows = [json.loads(line) for line in open(path)]
    ratio = defaultdict(list)
    for shape in shapes:
        recs = [x for x in rows if tuple(x["shape"]) == shape]
        cub = [x["ms"] for x in recs if x["strategy"] == "cublas"]
        for x in recs:
            if x["strategy"] == "cublas":
                continue
            key = (shape, x["strategy"], json.dumps(x["params"], sort_keys=True))
            ratio[key].append(x.get("ms"))
        print(f"float64 {'x'.join(map(str, shape))}: cuBLAS {statistics.median(cub) * 1e3:.1f} us")
        for key, ms in ratio.items():
            if key[0] != shape:
                continue
            if any(m is None for m in ms):
                err = [x.get("error") for x in recs if x["strategy"] == key[1]
                       and json.dumps(x["params"], sort_keys=True) == key[2]]
                print(f"    {key[1]:10s} {key[2]:70s} {err[0]}")
                continue
            t = statistics.median(ms)
            pick = [x.get("picked") for x in recs if x["strategy"] == "auto"][0] if key[1] == "auto" else ""
            print(f"    {key[1]:10s} {key[2]:70s} {t * 1e3:8.1f} us {statistics.median(cub) / t:5.2f}x {pick or ''}")


def main() -> None:
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    shapes, cands = (TWO_CTA_SHAPES, TWO_CTA) if "twocta" in sys.argv[3:] else (SHAPES, CANDS)
    probe(sys.argv[1], rounds, shapes, cands)


if __name__ == "__main__":
    main()
