#!/bin/bash
# eighteenth session: wgmma_tma_split_k (rung 23) -- its GPU tests, then the split counts against
# auto's pick and cuBLAS on 16-bit decode-like, long-K and small shapes.
#   bash scripts/gpu_s18b.sh [quick]
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 240 python3 -m pytest -q -x -m gpu tests/test_gpu_wgmma_tma_split_k.py > "$OUT/tests_split.log" 2>&1
echo "tests rc $?"; tail -5 "$OUT/tests_split.log"
timeout 300 python3 scripts/variants_s18/probe_tma_split.py "$OUT/tma_split_float16.jsonl" float16 ${1:-} \
    > "$OUT/tma_split_float16.txt" 2>&1
echo "probe rc $?"; tail -30 "$OUT/tma_split_float16.txt"
