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
# the s28 probes after their check / time / log loop moved into variants_s28/_probe.py (a small run each)
timeout 120 python3 scripts/variants_s28/probe_gemv_model.py --seed 2802 --xb 2 --ax 1 > "$OUT/s28i_probe_gemv_model.md" 2>&1
echo "== gemv_model rc $?"; sed -n '/geometric/,$p' "$OUT/s28i_probe_gemv_model.md"
timeout 120 python3 scripts/variants_s28/probe_short_k.py --count 1 > "$OUT/s28i_probe_short_k.md" 2>&1
echo "== short_k rc $?"; sed -n '/geometric/,$p' "$OUT/s28i_probe_short_k.md"
