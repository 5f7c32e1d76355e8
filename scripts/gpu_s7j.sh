#!/usr/bin/env bash
# Seventh session: numerics.exact64 widening float32 on the device (was through the host)
#   1. the precision tests, the exact64 bit-pattern test among them       -> $OUT/precision.log
#   2. the GEMV K = 65536 every-config cases (they timed out on host widening) -> $OUT/gemv65536.log
#   3. test_gpu_core.py (tm.check everywhere)                              -> $OUT/core.log
#   bash scripts/gpu_s7j.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
NSHARD=4 SHARD_TIMEOUT=150 scripts/gpu_shards.sh precision tests/test_gpu_precision.py
echo "== precision $(( $(date +%s) - T0 )) s"
NSHARD=2 SHARD_TIMEOUT=240 scripts/gpu_shards.sh gemv65536 tests/test_gpu_gemv.py -k 65536 --durations=4
grep -E "s call" "$OUT/gemv65536.log" | head -4
echo "== gemv $(( $(date +%s) - T0 )) s"
NSHARD=8 SHARD_TIMEOUT=200 scripts/gpu_shards.sh core tests/test_gpu_core.py
echo "== core $(( $(date +%s) - T0 )) s"
