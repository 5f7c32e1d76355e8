#!/usr/bin/env bash
# Tenth session, third step (H100): the float32 x·B shapes retuned with gemv_xb's new search space
# (K groups), judged by the suite's GEMV class against the shipped database, twice each
# (scripts/gpu_retune.sh); the heuristic's K-group picks off the suite (probe kg2); the float64
# GEMV class (the model weighs the new search space); the GEMV and split-reduce GPU tests.
#   bash scripts/gpu_s10c.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
bash scripts/gpu_retune.sh float32 gemv_xb gemv 1x8192x8192 2x8192x8192 8x8192x8192 1x4096x16384
grep -E "^\|" "$OUT/tune.log" | head -40 > "$OUT/tune_rows.txt"
PYTHONUNBUFFERED=1 timeout 120 python3 scripts/probe_gemv_configs.py kg2 > "$OUT/probe_kg2.log" 2>&1
echo "== probe rc=$? $(( $(date +%s) - T0 )) s"
grep -vE "^\s*$" "$OUT/probe_kg2.log"
timeout 150 python3 benchmarks/shape_suite.py --dtypes float64 --classes gemv > "$OUT/suite64_gemv.log" 2>&1
echo "-- float64 gemv class, shipped database (rc $?)"
grep -E "^\| [a-z]|Geometric" "$OUT/suite64_gemv.log" | grep -v "^| class" | cut -c1-200
NSHARD=8 SHARD_TIMEOUT=240 bash scripts/gpu_shards.sh gemv tests/test_gpu_gemv.py tests/test_gpu_split_reduce.py
echo "== $(( $(date +%s) - T0 )) s"
