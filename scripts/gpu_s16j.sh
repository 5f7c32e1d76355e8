#!/bin/bash
# sixteenth session: the 32 x 32 half tile's bound (heuristic.HALF_TINY_MAX_TILES_PER_SM): auto's half
# tests, then the shapes whose pick moves (variants_s16/probe_half_unaligned.py rule).
#   bash scripts/gpu_s16j.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=2 SHARD_TIMEOUT=200 bash scripts/gpu_shards.sh s16j_tests tests/test_gpu_half.py -k "auto"
timeout 150 python3 scripts/variants_s16/probe_half_unaligned.py rule > "$OUT/probe_half_rule.txt" 2>&1; echo "rule rc $?"
python3 scripts/variants_s15/compact.py "$OUT/probe_half_rule.txt"
