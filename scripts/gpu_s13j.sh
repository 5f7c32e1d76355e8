#!/usr/bin/env bash
# Thirteenth session (H100): `auto` with dmma_tail (its 128 x 128 tile alone: the tree) against
# `auto` without it (variants_s13/dmma_tail.patch reversed) off the suite, alternating rounds; then
# a float64 tune of the suite's large shapes with dmma and dmma_tail (gpu_s13h.sh).
#   bash scripts/gpu_s13j.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
bash scripts/variants_s12/trees.sh scripts/variants_s13/dmma_tail.patch
timeout 300 python3 scripts/variants_s12/compare.py /tmp/r base,new 3 700x1500x1000 640x4000x4000 513x8191x8191 \
    1500x1500x1500 2500x2500x2500 1200x900x1100 1536x1536x1536 3000x3000x3000 3500x2500x3000 1100x1100x1100 \
    1800x1800x1800 4000x3000x2000 2100x2100x2100 1000x1000x4000 > "$OUT/compare.log" 2>&1
echo "== compare rc $?"
tail -16 "$OUT/compare.log"
bash scripts/gpu_s13h.sh
