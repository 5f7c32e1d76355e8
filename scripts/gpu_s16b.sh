#!/bin/bash
# sixteenth session: warp_tiled's staged store of C rows that are not 16-byte aligned. Its GPU tests
# (warp_tiled and split_k in the core, gemm and layout files, the staged-store test), memcheck and
# racecheck over its sanitize cases, then the short-K probe again (variants_s16/probe_tiny_k.py).
#   bash scripts/gpu_s16b.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=4 SHARD_TIMEOUT=300 bash scripts/gpu_shards.sh s16b_tests tests/test_gpu_core.py tests/test_gpu_gemm.py \
    tests/test_gpu_layouts.py -k "warp_tiled or (split_k and not wgmma and not dmma and not half) or staged or small_tile"
SAN_TIMEOUT=120 bash scripts/gpu_sanitize.sh memcheck,racecheck scripts/sanitize_split.py _k 2>&1
SAN_TIMEOUT=120 bash scripts/gpu_sanitize.sh racecheck scripts/sanitize_split.py warp_tiled 2>&1
timeout 330 python3 scripts/variants_s16/probe_tiny_k.py > "$OUT/probe_tiny_k_after.txt" 2>&1; echo "tiny_k rc $?"
grep -E "WRONG|Error" "$OUT/probe_tiny_k_after.txt" | head
