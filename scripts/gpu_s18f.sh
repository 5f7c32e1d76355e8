#!/bin/bash
# eighteenth session: the 16-bit rules for small A·x (gemv_ax_mma to 64 columns) and small outputs
# (wgmma_tma's 128 x 64 tile) -- the GPU tests they touch, then the session's 16-bit picks against
# the session start's (scripts/variants_s18/probe_s18f.py), with cuBLAS.
#   bash scripts/gpu_s18f.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 300 python3 -m pytest -q -m gpu tests/test_gpu_wgmma_tma.py tests/test_gpu_wgmma_tma_split_k.py \
    "tests/test_gpu_mma_half_split_k.py::test_auto_takes_it_for_small_outputs_with_long_k" \
    "tests/test_gpu_half.py::test_auto_runs_half_products" tests/test_gpu_gemv_ax_mma.py > "$OUT/tests.log" 2>&1
echo "tests rc $?"; tail -3 "$OUT/tests.log"
timeout 280 python3 scripts/variants_s18/probe_s18f.py float16 bfloat16 > "$OUT/picks_s18f.txt" 2>&1
echo "picks rc $?"; grep -E "moved|WRONG" "$OUT/picks_s18f.txt"
