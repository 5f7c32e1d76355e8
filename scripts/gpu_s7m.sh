#!/usr/bin/env bash
# Seventh session: float64 small cubes retuned with the timer's host lead (the sixth session's
# picks were timed when a split product's host work could outrun the flush)
#   1. tiled-matmul tune, 256-768^3 float64, dmma and dmma_split_k, into $OUT/db.json
#   2. benchmarks/shape_suite.py --classes small, float64: the shipped database, then with
#      $OUT/db.json as the user database                    -> $OUT/suite_shipped.log, suite_tuned.log
#   bash scripts/gpu_s7m.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
timeout 330 python3 -m tiled_matmul tune -s 256 384 512 640 768 -d float64 --strategies dmma,dmma_split_k \
    --db "$OUT/db.json" --json "$OUT/tune64.json" -q > "$OUT/tune.log" 2>&1
echo "== tune rc=$? $(( $(date +%s) - T0 )) s"
tail -n 12 "$OUT/tune.log" | cut -c1-200
timeout 90 python3 benchmarks/shape_suite.py --dtypes float64 --classes small > "$OUT/suite_shipped.log" 2>&1
echo "== shipped rc=$? $(( $(date +%s) - T0 )) s"
grep -E "^\| small|Geometric" "$OUT/suite_shipped.log" | cut -c1-200
TILED_MATMUL_TUNE_DB="$OUT/db.json" timeout 90 python3 benchmarks/shape_suite.py --dtypes float64 --classes small \
    > "$OUT/suite_tuned.log" 2>&1
echo "== tuned rc=$? $(( $(date +%s) - T0 )) s"
grep -E "^\| small|Geometric" "$OUT/suite_tuned.log" | cut -c1-200
