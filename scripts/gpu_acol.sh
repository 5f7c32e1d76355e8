#!/usr/bin/env bash
# wgmma_tma_tf32 reading A column-major (a.T @ b) in tf32x3 (fifth session), on the GPU:
#   1. the rung's layout tests and the layout suite's cases of it (scripts/gpu_shards.sh);
#   2. compute-sanitizer racecheck, synccheck and memcheck over the A_COL kernel (plain, with a
#      gemm epilogue, a ragged shape with rows past M in a box, a NaN so the exact path runs);
#   3. benchmarks/transposes.py for auto and wgmma_tma_tf32 (issue 14: a.T @ b within 10% of a @ b).
# Logs under $OUT; a short table last.
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
echo "GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>&1 | head -1)"
scripts/gpu_shards.sh acol_tests tests/test_gpu_wgmma_tma_tf32_layouts.py tests/test_gpu_layouts.py \
    -k "wgmma_tma_tf32 or auto_reads_layouts or layout_read_in_place or a_column_major or direct_entry or nonfinite"
# (stages=5: the kernel that writes A's big parts back into the stage after a barrier, the default then)
scripts/gpu_sanitize.sh racecheck,synccheck,memcheck scripts/sanitize_tma_tf32.py --col a --params stages=5 --nan
timeout 200 python3 benchmarks/transposes.py --strategies auto,wgmma_tma_tf32 --repeat 10 > "$OUT/transposes.log" 2>&1
echo "transposes rc=$?"
grep -E "Error|Traceback" "$OUT/transposes.log" | head -5
grep -E "^\||^##" "$OUT/transposes.log"
