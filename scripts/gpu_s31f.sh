#!/bin/bash
# thirty-first session, final: the 16-bit sweeps of gpu_s31a.sh (seeds 3101/3102, the same shapes)
# with the session's three changes in; the half and TMA-split GPU tests on the final code.
# Cache (CPU): precompile_auto.py scratch/cubin_s31f 3101,3102 24 1 float16,bfloat16
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export CUPY_CACHE_DIR=$PWD/scratch/cubin_s31f
nvidia-smi --query-gpu=name --format=csv,noheader
for seed in 3101 3102; do
  timeout 150 python3 benchmarks/random_shapes.py --count 24 --seed $seed --lo 1 --dtypes float16,bfloat16 \
    --out "$OUT/s31f_sweep_$seed" > "$OUT/s31f_sweep_$seed.log" 2>&1; echo "sweep $seed rc $?"
done
timeout 200 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_half.py tests/test_gpu_wgmma_tma_split_k.py \
  > "$OUT/s31f_gpu_tests.log" 2>&1; echo "tests rc $?"; grep -E "^E|passed|failed" "$OUT/s31f_gpu_tests.log" | head -6
for seed in 3101 3102; do echo "== sweep $seed"; grep -E "geometric" "$OUT/s31f_sweep_$seed/random_shapes_lo1.md"; done
