#!/usr/bin/env bash
# Eighth session: 640^3 and 768^3 float64 share the 768 tuning bucket, whose entry (tuned at 768^3:
# dmma_split_k, 4 slices) ran 640^3 at 0.68x. Tuned at 640^3 instead (dmma, dmma_split_k) into a
# copy of the shipped database, then the suite's small class twice with each database.
#   bash scripts/gpu_s8l.sh   -> $OUT/db.json, $OUT/tune.log, $OUT/suite_*.log
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
cp tiled_matmul/data/tuned_h100.json "$OUT/db.json"
timeout 200 python3 -m tiled_matmul tune -s 640 -d float64 --strategies dmma,dmma_split_k --db "$OUT/db.json" \
    --json "$OUT/tune640.json" -q > "$OUT/tune.log" 2>&1
echo "== tune rc=$? $(( $(date +%s) - T0 )) s"
for run in 1 2; do
    timeout 60 python3 benchmarks/shape_suite.py --dtypes float64 --classes small > "$OUT/suite_shipped$run.log" 2>&1
    grep -E "^\| small \| (640|768)|Geometric" "$OUT/suite_shipped$run.log" | cut -c1-200
    TILED_MATMUL_TUNE_DB="$OUT/db.json" timeout 60 python3 benchmarks/shape_suite.py --dtypes float64 --classes small \
        > "$OUT/suite_tuned$run.log" 2>&1
    grep -E "^\| small \| (640|768)|Geometric" "$OUT/suite_tuned$run.log" | cut -c1-200
done
echo "== $(( $(date +%s) - T0 )) s"
