#!/usr/bin/env bash
# Fifth session, third GPU run: retune the float64 buckets where dmma_split_k (rung 17) may now win
# (small cubes, long K, decode-like), into a fresh database under $OUT (the shipped one is updated
# from it on the host), then the float64 shape suite with that database in front of the shipped one
# (TILED_MATMUL_TUNE_DB). Logs under $OUT.
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
echo "GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>&1 | head -1)"
export TILED_MATMUL_TUNE_DB="$OUT/tuned64.json"
timeout 330 python3 -m tiled_matmul tune --dtype float64 --repeat 5 --budget-ms 150 --quiet \
    --sizes 256 384 512 640 768 1024 64x64x65536 256x256x131072 32x1024x32768 1024x32x32768 32x4096x4096 \
    64x8192x8192 > "$OUT/tune64.log" 2>&1
echo "tune rc=$?"; tail -20 "$OUT/tune64.log" | cut -c1-200
timeout 240 python3 benchmarks/shape_suite.py --dtypes float64 --out "$OUT" > "$OUT/suite64.log" 2>&1
echo "suite rc=$?"; grep -E "^\||Geometric" "$OUT/suite64.log" | cut -c1-200
