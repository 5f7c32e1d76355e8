#!/bin/bash
# sixteenth session, last: the staged stores' tests on the final kernels (the staged-store test,
# dmma and dmma_split_k, register_blocked), then the public suite, float32 and float64
# (benchmarks/shape_suite.py, 3 alternating rounds).
#   bash scripts/gpu_s16h.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=4 SHARD_TIMEOUT=300 bash scripts/gpu_shards.sh s16h_tests tests/test_gpu_gemm.py tests/test_gpu_dmma.py \
    tests/test_gpu_dmma_split_k.py tests/test_gpu_core.py -k "staged or dmma or (ragged_shapes and register_blocked)"
timeout 400 python3 benchmarks/shape_suite.py --rounds 3 --out "$OUT/suite" > "$OUT/suite.txt" 2>&1
echo "suite rc $?"; grep -iE "geometric" "$OUT/suite.txt"
