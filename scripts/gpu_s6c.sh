#!/usr/bin/env bash
# Sixth session, on one Hopper GPU:
#   1. the GPU tests of every rung that launches a reduce kernel (compile.ReduceLauncher; the new
#      search-space configs of wgmma_split_k and dmma_split_k among them)      -> $OUT/tests.log
#   2. tiled-matmul tune over dmma + dmma_split_k for the float64 compute-bound suite shapes whose
#      entries were tuned before dmma_split_k existed, into a copy of the shipped database
#                                                          -> $OUT/tuned_h100.json, $OUT/tune_f64.json
#   3. benchmarks/shape_suite.py --dtypes float64 with that copy as the shipped database
#   bash scripts/gpu_s6c.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
NSHARD=${NSHARD:-8} SHARD_TIMEOUT=280 scripts/gpu_shards.sh tests \
    tests/test_gpu_dmma_split_k.py tests/test_gpu_wgmma_split_k.py tests/test_gpu_gemv.py tests/test_gpu_core.py \
    tests/test_gpu_gemm.py -k "split or gemv"
echo "== tests $(( $(date +%s) - T0 )) s"
cp tiled_matmul/data/tuned_h100.json "$OUT/tuned_h100.json"
timeout 200 python3 -m tiled_matmul tune -s 1024 3001x2999x3007 5000x3000x1000 8192x8192x128 128x8192x8192 \
    16384x64x4096 64x8192x8192 -d float64 --json "$OUT/tune_f64.json" --strategies dmma,dmma_split_k \
    --db "$OUT/tuned_h100.json" -q > "$OUT/tune.log" 2>&1
echo "== tune rc=$? $(( $(date +%s) - T0 )) s"
grep -E "^│ [0-9]" "$OUT/tune.log" | cut -c1-150
cp "$OUT/tuned_h100.json" tiled_matmul/data/tuned_h100.json
timeout 150 python3 benchmarks/shape_suite.py --dtypes float64 --out "$OUT" > "$OUT/suite.log" 2>&1
echo "== suite rc=$? $(( $(date +%s) - T0 )) s"
grep -E "Geometric|^\| compute" "$OUT/suite.log" | cut -c1-220
