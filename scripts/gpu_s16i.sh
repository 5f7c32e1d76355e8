#!/bin/bash
# sixteenth session: mma_half's staged store of C rows that are not 16-byte aligned: the half GPU
# tests and the staged-store test, racecheck and memcheck over the half sanitize cases, then
# variants_s16/probe_half_unaligned.py on this template and the one before (scratch/, carried).
#   bash scripts/gpu_s16i.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=4 SHARD_TIMEOUT=300 bash scripts/gpu_shards.sh s16i_tests tests/test_gpu_gemm.py tests/test_gpu_half.py \
    tests/test_gpu_mma_half_split_k.py -k "staged or half"
SAN_TIMEOUT=150 bash scripts/gpu_sanitize.sh racecheck,memcheck scripts/sanitize_split.py mma_half 2>&1
timeout 150 python3 scripts/variants_s16/probe_half_unaligned.py after > "$OUT/probe_half_after.txt" 2>&1; echo "after rc $?"
if [ -f scratch/14_mma_half_before.cu.j2 ]; then
    cp scratch/14_mma_half_before.cu.j2 kernels/14_mma_half.cu.j2
    timeout 150 python3 scripts/variants_s16/probe_half_unaligned.py before > "$OUT/probe_half_before.txt" 2>&1
    echo "before rc $?"
fi
grep -E "WRONG|Error" "$OUT"/probe_half_*.txt | head
