#!/usr/bin/env bash
# Twentieth session: the final gemv_xb_tma rule on a third set of random x·B shapes, every GEMV GPU
# test, and the float32 suite with the retuned decode buckets.
set -uo pipefail
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}
python3 scripts/variants_s20/probe_xb_tma_rule.py 3 --heldout --seed 2021 > "$OUT/xb_tma_third.txt" 2>&1; tail -4 "$OUT/xb_tma_third.txt"
python3 -m pytest -q -m gpu tests/test_gpu_gemv.py tests/test_gpu_split_reduce.py 2>&1 | tail -4 | tee "$OUT/tests_gemv.log"
python3 benchmarks/shape_suite.py --dtypes float32 --rounds 3 --out "$OUT" 2>&1 | tail -40
