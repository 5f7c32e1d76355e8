#!/bin/bash
# sixteenth session: dmma's misaligned-operand kernel stores C rows that are not 16-byte aligned
# through shared memory: the dmma GPU tests and the staged-store test, racecheck and memcheck over
# the dmma sanitize cases, then variants_s16/probe_dmma_unaligned.py on this template and the one
# before (scratch/, carried).
#   bash scripts/gpu_s16g.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=4 SHARD_TIMEOUT=300 bash scripts/gpu_shards.sh s16g_tests tests/test_gpu_gemm.py tests/test_gpu_dmma.py \
    tests/test_gpu_dmma_split_k.py tests/test_gpu_core.py -k "staged or dmma"
SAN_TIMEOUT=150 bash scripts/gpu_sanitize.sh racecheck,memcheck scripts/sanitize_split.py dmma 2>&1
timeout 150 python3 scripts/variants_s16/probe_dmma_unaligned.py after > "$OUT/probe_dmma_after.txt" 2>&1; echo "after rc $?"
if [ -f scratch/12_dmma_before.cu.j2 ]; then
    cp scratch/12_dmma_before.cu.j2 kernels/12_dmma.cu.j2
    timeout 150 python3 scripts/variants_s16/probe_dmma_unaligned.py before > "$OUT/probe_dmma_before.txt" 2>&1
    echo "before rc $?"
fi
grep -E "WRONG|Error" "$OUT"/probe_dmma_*.txt | head
