#!/usr/bin/env bash
# Twentieth session, final: the float32 suite with the retuned decode buckets (gemv_xb_tma), auto
# on every suite shape, and the GEMV GPU tests on the final code.
set -uo pipefail
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}
python3 -m pytest -q -m gpu tests/test_gpu_gemv.py tests/test_gpu_suite.py 2>&1 | tail -4 | tee "$OUT/tests_final.log"
python3 benchmarks/shape_suite.py --dtypes float32 --rounds 3 --out "$OUT" 2>&1 | tail -40
