#!/usr/bin/env bash
# Seventh session, the closing GPU test runs of the files not run today in full:
#   bash scripts/gpu_s7k.sh layouts   # tests/test_gpu_layouts.py               -> $OUT/layouts.log
#   bash scripts/gpu_s7k.sh rest      # gemm, dmma, replay, interop, bench, tune -> $OUT/rest.log
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
case "${1:-layouts}" in
    layouts) NSHARD=8 SHARD_TIMEOUT=520 scripts/gpu_shards.sh layouts tests/test_gpu_layouts.py ;;
    rest) NSHARD=8 SHARD_TIMEOUT=520 scripts/gpu_shards.sh rest tests/test_gpu_gemm.py tests/test_gpu_dmma.py \
              tests/test_gpu_replay.py tests/test_interop_gpu.py tests/test_gpu_bench.py tests/test_gpu_tune.py ;;
esac
echo "== $(( $(date +%s) - T0 )) s"
