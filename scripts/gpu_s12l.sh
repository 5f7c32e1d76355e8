#!/usr/bin/env bash
# Twelfth session, closing run (H100): dmma's GPU tests with the group_m=1 tiles in its search
# space, the float64 gemm/core tests, the suite (both dtypes, 3 alternating rounds), and
# gpu_s12j.sh again through compare.py's in-tree mode.
#   bash scripts/gpu_s12l.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
NSHARD=8 SHARD_TIMEOUT=200 bash scripts/gpu_shards.sh dmma tests/test_gpu_dmma.py tests/test_gpu_dmma_split_k.py
NSHARD=8 SHARD_TIMEOUT=200 bash scripts/gpu_shards.sh dgemm tests/test_gpu_gemm.py tests/test_gpu_core.py tests/test_gpu_suite.py -k "float64 or dmma or suite"
echo "== tests $(( $(date +%s) - T0 )) s"
bash scripts/gpu_s12g.sh
bash scripts/gpu_s12j.sh | tail -8
echo "== done $(( $(date +%s) - T0 )) s"
