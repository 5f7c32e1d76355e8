#!/usr/bin/env bash
# Seventh session: the sixth session's unverified changes on the GPU
#   1. split-K rungs (compile.ReduceLauncher as refactored onto DirectLauncher)  -> $OUT/splitk.log
#   2. auto at 16384x16384x16 (both dtypes) alone                                 -> $OUT/tinyk.log
#   3. the GEMV file: K = 65536 every-config cases on 2 shards, the rest on 4     -> $OUT/gemv*.log
#   4. auto over the public suite (test_gpu_suite.py)                             -> $OUT/suite_tests.log
#   bash scripts/gpu_s7i.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
NSHARD=6 SHARD_TIMEOUT=200 scripts/gpu_shards.sh splitk tests/test_gpu_wgmma_split_k.py tests/test_gpu_dmma_split_k.py
echo "== split-K $(( $(date +%s) - T0 )) s"
NSHARD=1 SHARD_TIMEOUT=120 scripts/gpu_shards.sh tinyk tests/test_gpu_suite.py -k "16384x16384x16"
echo "== tiny K $(( $(date +%s) - T0 )) s"
NSHARD=2 SHARD_TIMEOUT=150 scripts/gpu_shards.sh gemv65536 tests/test_gpu_gemv.py -k 65536
NSHARD=4 SHARD_TIMEOUT=120 scripts/gpu_shards.sh gemv tests/test_gpu_gemv.py -k "not 65536"
echo "== gemv $(( $(date +%s) - T0 )) s"
NSHARD=8 SHARD_TIMEOUT=150 scripts/gpu_shards.sh suite_tests tests/test_gpu_suite.py -k "not 16384x16384x16"
echo "== suite tests $(( $(date +%s) - T0 )) s"
