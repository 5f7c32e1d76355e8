#!/usr/bin/env bash
# gemm, numpy.matmul semantics and precision modes on the GPU machine: their GPU tests, then
# benchmarks/batched_and_epilogues.py. Logs under $OUT; a short summary last.
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 360 python3 -m pytest -q -m gpu tests/test_gpu_gemm.py tests/test_gpu_precision.py \
    tests/test_gpu_core.py tests/test_gpu_fast.py tests/test_gpu_wgmma_split_k.py tests/test_gpu_gemv.py \
    tests/test_interop_gpu.py -p no:cacheprovider > "$OUT/tests.log" 2>&1
timeout 220 python3 benchmarks/batched_and_epilogues.py > "$OUT/bench.log" 2>&1
grep -E "^(FAILED|ERROR)|passed|failed" "$OUT/tests.log" | tail -15
tail -40 "$OUT/bench.log"
