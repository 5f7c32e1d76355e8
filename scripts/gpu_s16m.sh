#!/bin/bash
# sixteenth session: the TMA rungs' padding copies by tiled_matmul.pad: their GPU tests, memcheck,
# then variants_s16/probe_tma_pad.py (before / after in one run).
#   bash scripts/gpu_s16m.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=4 SHARD_TIMEOUT=300 bash scripts/gpu_shards.sh s16m_tests tests/test_gpu_wgmma_tma.py tests/test_gpu_wgmma_tma_tf32.py \
    tests/test_gpu_wgmma_tma_tf32_layouts.py
SAN_TIMEOUT=300 bash scripts/gpu_sanitize.sh memcheck scripts/variants_s16/sanitize_pad.py 2>&1
timeout 200 python3 scripts/variants_s16/probe_tma_pad.py > "$OUT/probe_tma_pad.txt" 2>&1; echo "pad rc $?"
cat "$OUT/probe_tma_pad.txt"
