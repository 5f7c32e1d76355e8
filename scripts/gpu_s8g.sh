#!/usr/bin/env bash
# Eighth session: float64 compute-bound shapes retuned with dmma and dmma_split_k now that a
# split product's reduce is cheap (lanes, early start), into a copy of the shipped database;
# then the suite's float64 compute-bound class with the shipped database and with the copy.
#   bash scripts/gpu_s8g.sh   -> $OUT/db.json, $OUT/tune.log, $OUT/suite_shipped.log, $OUT/suite_tuned.log
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
cp tiled_matmul/data/tuned_h100.json "$OUT/db.json"
timeout 330 python3 -m tiled_matmul tune -s 1024 2048 5000x3000x1000 128x8192x8192 8192x8192x128 3001x2999x3007 \
    16384x64x4096 -d float64 --strategies dmma,dmma_split_k --db "$OUT/db.json" --json "$OUT/tune64.json" -q \
    > "$OUT/tune.log" 2>&1
echo "== tune rc=$? $(( $(date +%s) - T0 )) s"
timeout 120 python3 benchmarks/shape_suite.py --dtypes float64 --classes compute > "$OUT/suite_shipped.log" 2>&1
echo "== shipped rc=$? $(( $(date +%s) - T0 )) s"
grep -E "^\| compute|Geometric" "$OUT/suite_shipped.log" | cut -c1-200
TILED_MATMUL_TUNE_DB="$OUT/db.json" timeout 120 python3 benchmarks/shape_suite.py --dtypes float64 --classes compute \
    > "$OUT/suite_tuned.log" 2>&1
echo "== tuned rc=$? $(( $(date +%s) - T0 )) s"
grep -E "^\| compute|Geometric" "$OUT/suite_tuned.log" | cut -c1-200
