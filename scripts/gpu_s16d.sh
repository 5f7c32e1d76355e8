#!/bin/bash
# sixteenth session: register_blocked's staged store of C rows that are not 16-byte aligned: its GPU
# tests (the staged-store test, register_blocked in the core, gemm and layout files), racecheck, then
# variants_s16/probe_rb_unaligned.py on this template and on the one before (scratch/, carried).
#   bash scripts/gpu_s16d.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=3 SHARD_TIMEOUT=240 bash scripts/gpu_shards.sh s16d_tests tests/test_gpu_gemm.py tests/test_gpu_core.py \
    tests/test_gpu_layouts.py -k "staged or register_blocked"
SAN_TIMEOUT=120 bash scripts/gpu_sanitize.sh racecheck,memcheck scripts/sanitize_split.py register_blocked 2>&1
timeout 150 python3 scripts/variants_s16/probe_rb_unaligned.py after > "$OUT/probe_rb_after.txt" 2>&1; echo "after rc $?"
if [ -f scratch/05_register_blocked_before.cu.j2 ]; then
    cp scratch/05_register_blocked_before.cu.j2 kernels/05_register_blocked.cu.j2
    timeout 150 python3 scripts/variants_s16/probe_rb_unaligned.py before > "$OUT/probe_rb_before.txt" 2>&1; echo "before rc $?"
    git checkout -q kernels/05_register_blocked.cu.j2 2>/dev/null || true
fi
grep -E "WRONG|Error" "$OUT"/probe_rb_*.txt | head
