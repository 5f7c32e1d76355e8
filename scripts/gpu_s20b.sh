#!/usr/bin/env bash
# Twentieth session: gemv_xb_tma on the GPU. Tests, the heuristic's threshold (old pick against
# new on a grid of float32 x·B products), the tuner on the four float32 decode buckets, and the
# suite's memory-bound rows with the retuned database.
set -uo pipefail
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
python3 -m pytest -q -m gpu tests/test_gpu_gemv.py -k "gemv_xb_tma or auto" -x 2>&1 | tail -15 | tee "$OUT/tests_xb_tma.log"
python3 scripts/variants_s20/probe_xb_tma_rule.py 3 > "$OUT/xb_tma_rule.txt" 2>&1; tail -8 "$OUT/xb_tma_rule.txt"
cp tiled_matmul/data/tuned_h100.json "$OUT/tuned_h100.json"
python3 scripts/tune_suite.py --sizes 1x4096x16384 1x8192x8192 2x8192x8192 8x8192x8192 --dtype float32 --merge \
    --out "$OUT/tuned_h100.json" --json "$OUT/tune_decode.json" --repeat 10 -q 2>&1 | tail -12 | tee "$OUT/tune.log"
cp "$OUT/tuned_h100.json" tiled_matmul/data/tuned_h100.json
python3 benchmarks/shape_suite.py --dtypes float32 --classes "gemv" --rounds 3 --out "$OUT" 2>&1 | tail -14
