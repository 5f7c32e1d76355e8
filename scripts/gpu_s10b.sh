#!/usr/bin/env bash
# Tenth session, second step: gemv_xb's K-group configs, more of them (probe), then a retune of the
# float32 x·B shapes with the new search space judged by the suite's GEMV class (shipped database
# against the retuned copy, twice each: scripts/gpu_retune.sh), then the float64 GEMV class once
# (the model weighs the new search space there).
#   bash scripts/gpu_s10b.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
PYTHONUNBUFFERED=1 timeout 240 python3 scripts/probe_gemv_configs.py kg > "$OUT/probe_kg.log" 2>&1
echo "== probe rc=$? $(( $(date +%s) - T0 )) s"
bash scripts/gpu_retune.sh float32 gemv_xb gemv 1x8192x8192 2x8192x8192 8x8192x8192 1x4096x16384 4x12288x5000
timeout 150 python3 benchmarks/shape_suite.py --dtypes float64 --classes gemv > "$OUT/suite64_gemv.log" 2>&1
echo "-- float64 gemv class, shipped database (rc $?)"
grep -E "^\| [a-z]|Geometric" "$OUT/suite64_gemv.log" | grep -v "^| class" | cut -c1-200
echo "== $(( $(date +%s) - T0 )) s"
grep -vE "^\s*$" "$OUT/probe_kg.log"
