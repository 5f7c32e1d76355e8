#!/bin/bash
# twenty-seventh session: the tuner's GPU tests (tuner.candidates now also times auto's own pick),
# then auto against cuBLAS FP32 on two new random float32 sweeps (benchmarks/random_shapes.py,
# seeds 27 and 28, 40 shapes from 1). Cache: scripts/variants_s27/precompile_auto.py scratch/cubin_s27f 27,28
#   bash scripts/gpu_s27f.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ -d scratch/cubin_s27f ]; then export CUPY_CACHE_DIR=$PWD/scratch/cubin_s27f; fi
timeout 120 python3 -m pytest -q tests/test_gpu_tune.py -p no:cacheprovider > "$OUT/tune_tests.log" 2>&1
echo "== tune tests rc $?"; tail -4 "$OUT/tune_tests.log"
for seed in 27 28; do
    timeout 170 python3 benchmarks/random_shapes.py --count 40 --seed $seed --lo 1 --dtypes float32 \
        --max-gflop 200 --rounds 3 --out "$OUT/f32_${seed}_1" > "$OUT/f32_${seed}_1.txt" 2>&1
    echo "seed $seed rc $?: $(grep -i geometric "$OUT/f32_${seed}_1.txt")"
done
