#!/usr/bin/env bash
# Twelfth session (H100): auto with dmma's 128 x 64 x 32 tile in 8 warps in the search space (the
# working tree) against auto without it (variants_s12/dmma_tile_128x64x32.patch reversed), on the
# float64 shapes without database entries where the cost model now picks it, alternating rounds.
#   bash scripts/gpu_s12q.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
bash scripts/variants_s12/trees.sh scripts/variants_s12/dmma_tile_128x64x32.patch
timeout 300 python3 scripts/variants_s12/compare.py /tmp/r base,new 3 640x1024x1024 512x1536x1024 900x1000x1100 \
    1001x1001x1001 768x1024x768 1280x768x1024 1000x1000x4000 960x1024x1000 > "$OUT/compare.log" 2>&1
echo "== compare rc $?"
tail -11 "$OUT/compare.log"
