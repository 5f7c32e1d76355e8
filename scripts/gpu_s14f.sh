#!/usr/bin/env bash
# Fourteenth session (H100): gemv_xb_half's GPU tests, the half and split tests auto's picks touch,
# and gemv_xb_half against mma_half_split_k and cuBLAS (scripts/variants_s14/probe_half_gemv.py).
#   bash scripts/gpu_s14f.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=4 SHARD_TIMEOUT=300 bash scripts/gpu_shards.sh half_gemv tests/test_gpu_gemv_xb_half.py \
    tests/test_gpu_mma_half_split_k.py tests/test_gpu_half.py tests/test_gpu_gemv.py -k "not every_config_on_skinny"
timeout 200 python3 scripts/variants_s14/probe_half_gemv.py > "$OUT/probe_half_gemv.txt" 2>&1
cat "$OUT/probe_half_gemv.txt"
