#!/bin/bash
# sixteenth session: warp_tiled's staged store with its store loop unrolled: the staged-store tests,
# then the short-K probe on the grid and on the fifteenth session's shapes (variants_s16/probe_tiny_k.py).
#   bash scripts/gpu_s16c.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=2 SHARD_TIMEOUT=200 bash scripts/gpu_shards.sh s16c_tests tests/test_gpu_gemm.py tests/test_gpu_core.py \
    -k "staged or small_tile or (ragged_shapes and warp_tiled)"
timeout 330 python3 scripts/variants_s16/probe_tiny_k.py > "$OUT/probe_tiny_k_unrolled.txt" 2>&1; echo "tiny_k rc $?"
timeout 120 python3 scripts/variants_s16/probe_tiny_k.py s15 > "$OUT/probe_tiny_k_s15.txt" 2>&1; echo "s15 rc $?"
grep -E "WRONG|Error" "$OUT"/probe_tiny_k_*.txt | head
