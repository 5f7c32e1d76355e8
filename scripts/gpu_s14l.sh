#!/usr/bin/env bash
# Fourteenth session (H100): after the rules for skinny 16-bit products with unaligned rows of the
# streamed operand (gemv_xb_half's element path for M <= 2, else the split; never TMA's padding copy),
# the auto tests of the half files, and auto on the LM-head shapes against cuBLAS.
#   bash scripts/gpu_s14l.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=3 SHARD_TIMEOUT=200 bash scripts/gpu_shards.sh auto_half tests/test_gpu_gemv_half.py \
    tests/test_gpu_mma_half_split_k.py tests/test_gpu_half.py -k "auto"
timeout 120 python3 -c "
import sys; sys.path.insert(0, 'scripts/variants_s14')
from probe_small import compare
from tiled_matmul.timing import L2Flusher
f = L2Flusher()
for s in [(1, 50257, 4096), (2, 50257, 4096), (4, 50257, 4096), (9298, 6, 5590), (1, 4097, 4096)]:
    compare('float16', *s, [('auto', {})], f)
" 2>&1 | tail -12
