#!/usr/bin/env bash
# Tenth session, after gemv_xb's one-group index fix (b55d671): the GEMV, split-reduce, gemm
# (epilogues, batches) GPU tests and gemv_xb's layout tests; the suite's GEMV class, both dtypes.
#   bash scripts/gpu_s10h.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
NSHARD=8 SHARD_TIMEOUT=200 bash scripts/gpu_shards.sh gemv tests/test_gpu_gemv.py tests/test_gpu_split_reduce.py \
    tests/test_gpu_gemm.py
NSHARD=8 SHARD_TIMEOUT=200 bash scripts/gpu_shards.sh layouts tests/test_gpu_layouts.py -k gemv_xb
echo "== tests $(( $(date +%s) - T0 )) s"
timeout 150 python3 benchmarks/shape_suite.py --classes gemv > "$OUT/suite_gemv.log" 2>&1
echo "== suite rc $? $(( $(date +%s) - T0 )) s"
grep -E "^\| [a-z]|Geometric|^###" "$OUT/suite_gemv.log" | grep -v "^| class" | cut -c1-170
