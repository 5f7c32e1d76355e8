#!/usr/bin/env bash
# Every GPU test file but the slow bench/tune/suite/dask ones, in NSHARD pytest processes side by
# side (scripts/gpu_shards.sh); one combined log ($OUT/tests.log) and a summary: each shard's last
# line and the FAILED lines. Env: NSHARD (default 8), LIMIT (seconds per shard, default 420).
set -u
cd "$(dirname "$0")/.."
FILES=$(ls tests/test_gpu_*.py tests/test_interop_gpu.py tests/test_robustness_gpu.py \
        | grep -v -E "test_gpu_(bench|tune|suite)\.py")
NSHARD=${NSHARD:-8} SHARD_TIMEOUT=${LIMIT:-420} scripts/gpu_shards.sh tests $FILES -rs
