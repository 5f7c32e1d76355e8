#!/usr/bin/env bash
# Verifies branch `tmaepi` (written without device time): wgmma_tma_tf32 applies gemm epilogues
# (alpha, beta, bias, activations, user expressions) at its store and in its exact path, so auto's
# float32 pick keeps tm.gemm calls instead of falling back to the cp.async wgmma rung.
#   1. GPU tests, NSHARD pytest processes side by side (scripts/gpu_shards.sh -> $OUT/tests.log):
#      tests/test_gpu_wgmma_tma_tf32.py's epilogue tests (every kind, ragged shapes, NaN-poisoned
#      out, in place, misaligned C, the exact path, through auto and the named strategy; a spy
#      asserts which kernel ran) and tests/test_gpu_gemm.py's epilogue cases for wgmma_tma_tf32;
#   2. benchmarks/batched_and_epilogues.py (issue 14's table: alpha,beta 4096^3 vs plain tm.matmul,
#      target <= 3%; bias+gelu 4096x4096x1024 vs cupy.matmul+elementwise, target >= 1.3x).
#   bash scripts/gpu_tmaepi.sh            # ~3-4 min on an H100; logs under $OUT
# What to look for: every shard "passed", no FAILED lines; the table's "alpha,beta" row x >= 0.97,
# "bias+gelu" x >= 1.3, every row "ok".
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=${NSHARD:-4}
echo "GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>&1 | head -1)"

echo "TESTS (exit 124 = timed out):"
NSHARD=$NSHARD SHARD_TIMEOUT=200 scripts/gpu_shards.sh tests tests/test_gpu_wgmma_tma_tf32.py tests/test_gpu_gemm.py \
    -k "wgmma_tma_tf32 and (epilogue or expression_in_place or auto_gemm)"
grep -E "Error:" "$OUT/tests.log" | grep -v -E "^(FAILED|ERROR)" | cut -c1-240 | head -20

timeout 150 python3 benchmarks/batched_and_epilogues.py --repeat 10 > "$OUT/bench.log" 2>&1
echo "BENCHMARK (exit $?; 1: a row failed its check; 124: timed out):"
grep -E "Error|Traceback" "$OUT/bench.log" | head -5
grep -E "^(epilogue|batched|transposed|host)" "$OUT/bench.log" | cut -c1-160
