#!/bin/bash
# twenty-eighth session: random float32 shapes on the shipped code (seed 28, as in the twenty-seventh
# session's s27f run, and a fresh seed 29).
# Cache (CPU): scripts/variants_s27/precompile_auto.py scratch/cubin_s28c 28,29 40 1
#   bash scripts/gpu_s28d.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ -d scratch/cubin_s28c ]; then export CUPY_CACHE_DIR=$PWD/scratch/cubin_s28c; fi
for seed in 28 29; do
  timeout 270 python3 benchmarks/random_shapes.py --count 40 --seed $seed --lo 1 --dtypes float32 --max-gflop 200 --rounds 3 \
    --out "$OUT/s28d_random_shapes_seed${seed}_lo1.md" > "$OUT/s28d_seed$seed.log" 2>&1
  echo "== seed $seed rc $?"; tail -2 "$OUT/s28d_seed$seed.log"
done
