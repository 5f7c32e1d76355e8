#!/bin/bash
# thirtieth session: the tuner's transposed test after the review mend (8856659), then the held-out
# check of dispatch.SMALL_XB_SHORT_K (scripts/gpu_s29g.sh, seed 2904) with the rule applied.
#   bash scripts/gpu_s30a.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export CUPY_CACHE_DIR=$PWD/scratch/cubin_s30b  # the s29g probe kernels and seeds 34, 35 copied in
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 150 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_tune.py -k transposed > "$OUT/s30a_tune.log" 2>&1
echo "tune rc $?"; grep -E "^E|passed|failed" "$OUT/s30a_tune.log" | head -8
bash scripts/gpu_s29g.sh
# fresh float32 draws with the rule in (seeds 34, 35; cache: precompile_auto.py scratch/cubin_s30b 34,35 40 1)
for s in 34 35; do
  timeout 200 python3 benchmarks/random_shapes.py --count 40 --lo 1 --max-gflop 200 --dtypes float32 --seed $s \
    --out "$OUT" > "$OUT/s30a_random_$s.log" 2>&1
  echo "random $s rc $?"; tail -4 "$OUT/s30a_random_$s.log"
done
