#!/bin/bash
# twenty-eighth session, last code: the GPU test files its changes touch (test_gpu_gemv, test_gpu_narrow
# whole; of test_gpu_layouts the auto, gemm-epilogue, gemv and batched tests).
#   bash scripts/gpu_s28i.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 540 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_gemv.py tests/test_gpu_narrow.py tests/test_gpu_layouts.py \
  -k "not test_gpu_layouts or auto or gemm_epilogue or gemv or batched" \
  > "$OUT/s28i_tests.log" 2>&1
echo "== tests rc $?"; tail -5 "$OUT/s28i_tests.log"
