#!/usr/bin/env bash
# Thirteenth session (H100): `auto` with dmma's default moved to the 128 x 128 tile of 32 x 64 warps
# (the tree) against `auto` with the four-row default (variants_s13/dmma_default_b2.patch reversed),
# on float64 shapes off the suite where the cost model's pick is that 128 x 128 tile (151 of 605
# shapes of a grid: every changed pick is the four-row tile -> the two-row one), alternating rounds.
#   bash scripts/gpu_s13n.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
bash scripts/variants_s12/trees.sh scripts/variants_s13/dmma_default_b2.patch
timeout 400 python3 scripts/variants_s12/compare.py /tmp/r base,new 3 640x2500x2000 1000x4000x2000 1536x2500x2000 \
    2000x1000x4000 2000x5000x8000 2500x1536x4000 3000x640x8000 4000x1536x2000 4000x4000x2000 5000x4000x8000 \
    6000x6000x2000 10000x2500x2000 4000x3000x2000 > "$OUT/compare.log" 2>&1
echo "== compare rc $?"
tail -15 "$OUT/compare.log"
