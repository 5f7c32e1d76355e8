#!/usr/bin/env bash
# Eighth session, after dmma's small tiles entered the database: the GPU tests of auto on the
# suite shapes (test_gpu_suite.py, test_gpu_dmma_split_k.py), then the whole shape suite again.
#   bash scripts/gpu_s8j.sh   -> $OUT/auto.log, $OUT/suite/shape_suite.md
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
NSHARD=8 SHARD_TIMEOUT=300 scripts/gpu_shards.sh auto tests/test_gpu_suite.py tests/test_gpu_dmma_split_k.py
echo "== tests $(( $(date +%s) - T0 )) s"
timeout 400 python3 benchmarks/shape_suite.py --out "$OUT/suite" > "$OUT/suite.txt" 2>&1
echo "suite rc $?"; grep -E "Geometric" "$OUT/suite/shape_suite.md"
echo "== $(( $(date +%s) - T0 )) s"
