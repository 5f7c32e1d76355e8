#!/bin/bash
# sixteenth session: mma_half_split_k on zero-padded copies of unaligned operands (long K): its GPU
# tests, memcheck, then variants_s16/probe_pad.py (auto now pads) against cuBLAS.
#   bash scripts/gpu_s16l.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=4 SHARD_TIMEOUT=300 bash scripts/gpu_shards.sh s16l_tests tests/test_gpu_mma_half_split_k.py tests/test_gpu_half.py
SAN_TIMEOUT=150 bash scripts/gpu_sanitize.sh memcheck scripts/sanitize_split.py mma_half_split_k 2>&1
timeout 200 python3 scripts/variants_s16/probe_pad.py > "$OUT/probe_pad_after.txt" 2>&1; echo "pad rc $?"
cat "$OUT/probe_pad_after.txt"
