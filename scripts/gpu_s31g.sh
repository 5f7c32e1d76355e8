#!/bin/bash
# thirty-first session: item 5's rule on narrow outputs (N 300-1500, K 128-255, C of at least half a
# wave of 128 x 256 tiles' area; seed 3111, float16): its 128 x 256 tile against wgmma_tma's 128 x 64
# and 128 x 128 tiles and mma_half's default (the pick before). Measured for the next session.
# Cache (CPU): probe_half_tma_short_k.py --dtype float16 --seed 3111 --count 12 --narrow --compile-only scratch/cubin_s31g
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export CUPY_CACHE_DIR=$PWD/scratch/cubin_s31g
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 120 python3 scripts/variants_s31/probe_half_tma_short_k.py --dtype float16 --seed 3111 --count 12 --narrow \
  > "$OUT/s31g_tma_narrow_float16_3111.md" 2>&1; echo "narrow rc $?"
grep -E "geometric|failed" "$OUT/s31g_tma_narrow_float16_3111.md"; grep -E "^\| [0-9]" "$OUT/s31g_tma_narrow_float16_3111.md" | cut -c1-120
