#!/bin/bash
# twenty-eighth session, last code: random float32 shapes on two fresh seeds (30, 31).
# Cache (CPU): scripts/variants_s27/precompile_auto.py scratch/cubin_s28l 30,31 40 1
#   bash scripts/gpu_s28l.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ -d scratch/cubin_s28l ]; then export CUPY_CACHE_DIR=$PWD/scratch/cubin_s28l; fi
for seed in 30 31; do
  timeout 250 python3 benchmarks/random_shapes.py --count 40 --seed $seed --lo 1 --dtypes float32 --max-gflop 200 --rounds 3 \
    --out "$OUT/s28l_seed$seed" > "$OUT/s28l_seed$seed.log" 2>&1
  echo "== seed $seed rc $?"; tail -2 "$OUT/s28l_seed$seed.log"
done
