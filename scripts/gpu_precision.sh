#!/usr/bin/env bash
# Precision modes on the GPU machine: the numerics-suite tests, the tensor-core rungs' GPU tests,
# and benchmarks/numerics_suite.py. Logs under $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 200 python3 -m pytest -q -m gpu tests/test_gpu_precision.py -rA 2>&1 | tail -60 > "$OUT/test_precision.log"
timeout 200 python3 benchmarks/numerics_suite.py --out "$OUT" > "$OUT/numerics_suite.log" 2>&1
timeout 150 python3 -m pytest -q -m gpu tests/test_gpu_fast.py tests/test_gpu_wgmma_split_k.py tests/test_robustness_gpu.py 2>&1 | tail -30 > "$OUT/test_tc.log"
tail -25 "$OUT/test_precision.log"; tail -8 "$OUT/test_tc.log"; cat "$OUT/numerics_suite.md" 2>/dev/null || tail -30 "$OUT/numerics_suite.log"
