#!/usr/bin/env bash
# Sixth session, last checks on one Hopper GPU (8 pytest shards side by side):
#   `auto` on every public suite shape, both dtypes, with the retuned shipped database
#   (test_gpu_suite.py); the tuner on the GPU with the prune floor (test_gpu_tune.py); and the
#   GEMV rungs' whole test file (their split launches reduce through compile.ReduceLauncher)
#                                                                               -> $OUT/tests.log
#   bash scripts/gpu_s6f.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
NSHARD=${NSHARD:-8} SHARD_TIMEOUT=420 scripts/gpu_shards.sh tests \
    tests/test_gpu_suite.py tests/test_gpu_tune.py tests/test_gpu_gemv.py
echo "== total $(( $(date +%s) - T0 )) s"
