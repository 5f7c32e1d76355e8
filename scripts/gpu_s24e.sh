#!/bin/bash
# twenty-fourth session: dispatch.MODEL_TILES held out. On float32 random shapes (seeds 26-33 from
# 256, 34-37 from 64) where the rule moves auto off the heuristic's pick, both picks timed beside
# cuBLAS FP32 (scripts/variants_s24/probe_f32_tiles.py).
#   bash scripts/gpu_s24e.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 300 python3 scripts/variants_s24/probe_f32_tiles.py 26 27 28 29 30 31 32 33 > "$OUT/f32_tiles_256.txt" 2>&1
echo "== 256 rc $?"
timeout 200 python3 scripts/variants_s24/probe_f32_tiles.py 34 35 36 37 --lo 64 > "$OUT/f32_tiles_64.txt" 2>&1
echo "== 64 rc $?"
cat "$OUT"/f32_tiles_256.txt "$OUT"/f32_tiles_64.txt | cut -c1-200
