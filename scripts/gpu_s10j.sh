#!/usr/bin/env bash
# Tenth session, last (H100): after gemv_xb's K-group array moved to file scope (one allocation
# for both instantiations): the GEMV and split-reduce GPU tests, gemv_xb's layout tests, and the
# suite's GEMV class in float32.
#   bash scripts/gpu_s10j.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
NSHARD=8 SHARD_TIMEOUT=150 bash scripts/gpu_shards.sh gemv tests/test_gpu_gemv.py tests/test_gpu_split_reduce.py
NSHARD=8 SHARD_TIMEOUT=100 bash scripts/gpu_shards.sh layouts tests/test_gpu_layouts.py -k gemv_xb
echo "== tests $(( $(date +%s) - T0 )) s"
timeout 90 python3 benchmarks/shape_suite.py --dtypes float32 --classes gemv > "$OUT/suite_gemv.log" 2>&1
echo "== suite rc $? $(( $(date +%s) - T0 )) s"
grep -E "^\| [a-z]|Geometric" "$OUT/suite_gemv.log" | grep -v "^| class" | cut -c1-170
