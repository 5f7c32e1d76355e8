#!/bin/bash
# twenty-second session, sixth device call: the rest of the float64 GPU tests (dmma_split_k, the
# layouts of dmma, and dmma's GEMM, epilogue and batch tests, which now give calls with an
# epilogue to a config without the pairs layout: DmmaConfig.extras).
#   bash scripts/gpu_s22f.sh
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 250 python3 -m pytest -q -m gpu -ra tests/test_gpu_dmma_split_k.py > "$OUT/tests_split.log" 2>&1
echo "== test_gpu_dmma_split_k rc $?"; tail -3 "$OUT/tests_split.log"
timeout 120 python3 -m pytest -q -m gpu -ra tests/test_gpu_layouts.py -k dmma > "$OUT/tests_layouts.log" 2>&1
echo "== layouts -k dmma rc $?"; tail -3 "$OUT/tests_layouts.log"
timeout 200 python3 -m pytest -q -m gpu -ra tests/test_gpu_gemm.py tests/test_gpu_fast.py tests/test_gpu_core.py -k dmma > "$OUT/tests_gemm.log" 2>&1
echo "== gemm/fast/core -k dmma rc $?"; tail -3 "$OUT/tests_gemm.log"
