#!/bin/bash
# twenty-ninth session: MODEL_SMALL's picks through the general path (a batch, gemm's epilogue on
# A^T), and random float32 shapes on two fresh seeds (32, 33) on the shipped code.
# Cache (CPU): scripts/variants_s27/precompile_auto.py scratch/cubin_s29c 32,33 40 1
#   bash scripts/gpu_s29b.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ -d scratch/cubin_s29c ]; then export CUPY_CACHE_DIR=$PWD/scratch/cubin_s29c; fi
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 90 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_layouts.py -k "small_skinny_model" > "$OUT/s29b_tests.log" 2>&1
echo "== tests rc $?"; grep -E "^E|passed|failed" "$OUT/s29b_tests.log" | head -12
for seed in 32 33; do
  timeout 200 python3 benchmarks/random_shapes.py --count 40 --seed $seed --lo 1 --dtypes float32 --max-gflop 200 --rounds 3 \
    --out "$OUT/s29b_seed$seed" > "$OUT/s29b_seed$seed.log" 2>&1
  echo "== seed $seed rc $?"; tail -2 "$OUT/s29b_seed$seed.log"
done
