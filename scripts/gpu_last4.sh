#!/usr/bin/env bash
# Fourth session, after the last merges: auto's long-K chain rule on the GPU (K = AUTO_CHAIN_K and
# 65536 against cuBLAS FP32 per element), the float32 shape suite after the database drop, and
# compute-sanitizer memcheck over wgmma_tma_tf32 with an epilogue and B column-major. Logs under $OUT.
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 200 python3 -m pytest -q -m gpu tests/test_gpu_wgmma_tma_tf32.py -k "auto_long_k" -s -p no:cacheprovider \
    > "$OUT/longk.log" 2>&1; echo "long K rc=$?"; grep -E "^auto long K|passed|failed" "$OUT/longk.log"
SAN_TIMEOUT=200 scripts/gpu_sanitize.sh memcheck scripts/sanitize_tma_tf32.py --col b --modes tf32x3,tf32 \
    --shapes 300x260x200,129x127x33 --seed 3
timeout 200 python3 benchmarks/shape_suite.py --dtypes float32 --out "$OUT" > "$OUT/suite32.log" 2>&1
echo "suite rc=$?"; grep -E "compute-bound|Geometric" "$OUT/suite32.log" | cut -c1-140
