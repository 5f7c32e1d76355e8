#!/usr/bin/env bash
# Fifth session, after AUTO_CHAIN_K went to 16384: auto's long-K accuracy test (K = AUTO_CHAIN_K
# and 65536 against cuBLAS FP32 per element), then the public shape suite in both dtypes on the
# final code and database. Logs under $OUT.
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
echo "GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>&1 | head -1)"
timeout 200 python3 -m pytest -q -m gpu tests/test_gpu_wgmma_tma_tf32.py -k "auto_long_k" -s -p no:cacheprovider \
    > "$OUT/longk.log" 2>&1; echo "long K rc=$?"; grep -E "^auto long K|passed|failed" "$OUT/longk.log"
timeout 300 python3 benchmarks/shape_suite.py --out "$OUT" > "$OUT/suite.log" 2>&1
echo "suite rc=$?"; grep -E "Geometric|16384 " "$OUT/suite.log" | cut -c1-160
