#!/usr/bin/env bash
# Operand layouts read in place on the GPU machine. Two steps, each within one 10-minute call:
#   bash scripts/gpu_layouts.sh tests   # tests/test_gpu_layouts.py (every tunable rung x A/B row- or
#                                       # column-major x ragged shapes, no copy) + tests/test_gpu_gemm.py
#   bash scripts/gpu_layouts.sh bench   # benchmarks/transposes.py: a.T @ b etc. vs contiguous and
#                                       # cupy.matmul at 4096³, float32 and float64
# Logs (and transposes.md) under $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ "${1:-tests}" = tests ]; then
    timeout 560 python3 -m pytest -q -m gpu tests/test_gpu_layouts.py tests/test_gpu_gemm.py -p no:cacheprovider \
        > "$OUT/tests.log" 2>&1
    grep -E "^(FAILED|ERROR)|passed|failed" "$OUT/tests.log" | tail -30
else
    timeout 560 python3 benchmarks/transposes.py --repeat 20 > "$OUT/bench.log" 2>&1
    tail -30 "$OUT/bench.log"
fi
