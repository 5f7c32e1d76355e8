#!/bin/bash
# thirty-first session: (1) wgmma_tma (the full call: A and B copied to padded rows, C's unaligned rows
# stored by the kernel) for 16-bit short-K products with N % 8 != 0, which half_pick keeps off TMA:
# set on gpu_s31b.sh's 12 + seed 3107 (float16), held out on seed 3108 (float16, bfloat16);
# (2) the 16-bit GEMV GPU tests with heuristic.GEMV_SHORT_K in _half_gemv's A·x branch.
# Cache (CPU): probe_half_tma_short_k.py ... --compile-only scratch/cubin_s31c
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export CUPY_CACHE_DIR=$PWD/scratch/cubin_s31c
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 150 python3 scripts/variants_s31/probe_half_tma_short_k.py --dtype float16 --seed 3107 --count 8 --fixed \
  > "$OUT/s31c_tma_short_k_float16_3107.md" 2>&1; echo "set rc $?"
for dt in float16 bfloat16; do
  timeout 100 python3 scripts/variants_s31/probe_half_tma_short_k.py --dtype $dt --seed 3108 --count 8 \
    > "$OUT/s31c_tma_short_k_${dt}_3108.md" 2>&1; echo "held-out $dt rc $?"
done
timeout 240 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_gemv_half.py tests/test_gpu_gemv_ax_mma.py \
  > "$OUT/s31c_gpu_half_gemv_tests.log" 2>&1; echo "tests rc $?"; grep -E "^E|passed|failed" "$OUT/s31c_gpu_half_gemv_tests.log" | head -8
for f in "$OUT"/s31c_tma_*.md; do echo "== $(basename $f)"; grep -E "geometric|failed" "$f"; done
