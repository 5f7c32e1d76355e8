#!/usr/bin/env bash
# Twentieth session, after the final review: the split path shared (SplitReduce.launch_split) and
# gemv_xb_tma's rules and launch on it; the GEMV, split-reduce and 16-bit GEMV GPU tests.
set -uo pipefail
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}
python3 -m pytest -q -m gpu tests/test_gpu_gemv.py tests/test_gpu_split_reduce.py tests/test_gpu_gemv_half.py \
    tests/test_gpu_wgmma_split_k.py 2>&1 | tail -4 | tee "$OUT/tests_review.log"
