#!/usr/bin/env bash
# Tenth session, closing (H100): the whole shape suite on the final code, both dtypes; the GPU
# tests of the rungs, picks and tuner this session touched; then a quick tune of two float64
# compute-bound shapes with dmma's new tiles into a scratch database (printed, not shipped).
#   bash scripts/gpu_s10f.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
timeout 330 python3 benchmarks/shape_suite.py --out "$OUT/suite" > "$OUT/suite.txt" 2>&1
echo "== suite rc $? $(( $(date +%s) - T0 )) s"; grep -E "Geometric" "$OUT/suite/shape_suite.md"
NSHARD=8 SHARD_TIMEOUT=170 bash scripts/gpu_shards.sh rest tests/test_gpu_gemv.py tests/test_gpu_split_reduce.py \
    tests/test_gpu_dmma.py tests/test_gpu_suite.py tests/test_gpu_tune.py tests/test_gpu_core.py
echo "== tests $(( $(date +%s) - T0 )) s"
timeout 60 python3 -m tiled_matmul tune -s 5000x3000x1000 1024 -d float64 --strategies dmma --db "$OUT/db64.json" \
    > "$OUT/tune64.log" 2>&1
echo "== tune rc $? $(( $(date +%s) - T0 )) s"
grep -E "^\||cuBLAS|best" "$OUT/tune64.log" | head -40
grep -E "^\| [a-z]" "$OUT/suite/shape_suite.md" | cut -c1-150
