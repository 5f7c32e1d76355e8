#!/usr/bin/env bash
# Verifies branch `next` (written without device time, third session): wgmma's beta store loop
# loading C 16 elements at a time, and wgmma_tma taking ragged half rows through padded copies
# (auto then runs it at 3001x2999x3007). GPU tests of both (scripts/gpu_shards.sh -> $OUT/tests.log),
# then the two benchmarks whose targets they aim at: alpha/beta <= 3% over plain at 4096^3, ragged
# half >= 0.9x cuBLAS. Logs under $OUT.
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=${NSHARD:-4}
NSHARD=$NSHARD SHARD_TIMEOUT=360 scripts/gpu_shards.sh tests tests/test_gpu_gemm.py tests/test_gpu_half.py \
    tests/test_gpu_wgmma_tma.py tests/test_gpu_core.py -k "gemm or beta or half or tma or ragged"
timeout 100 python3 benchmarks/batched_and_epilogues.py > "$OUT/batched.log" 2>&1; grep -E "alpha|GELU" "$OUT/batched.log"
timeout 100 python3 scripts/probe_half.py --sizes 4096,3001x2999x3007,1000x1000x1000 > "$OUT/probe_half.log" 2>&1; tail -12 "$OUT/probe_half.log"
