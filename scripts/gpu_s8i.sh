#!/usr/bin/env bash
# Eighth session: the float64 small cubes with dmma's two unsplit small-tile configs (32 x 32 x 32
# in 5 stages, 64 x 64 x 16 in 4), tuned with dmma and dmma_split_k into a copy of the shipped
# database; the suite's small class with the shipped database and with the copy; the GPU tests of
# dmma (every config of the search space).
#   bash scripts/gpu_s8i.sh   -> $OUT/db.json, $OUT/tune.log, $OUT/suite_*.log, $OUT/dmma.log
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
cp tiled_matmul/data/tuned_h100.json "$OUT/db.json"
timeout 300 python3 -m tiled_matmul tune -s 256 384 512 640 768 -d float64 --strategies dmma,dmma_split_k \
    --db "$OUT/db.json" --json "$OUT/tune64.json" -q > "$OUT/tune.log" 2>&1
echo "== tune rc=$? $(( $(date +%s) - T0 )) s"
for run in 1 2; do
    timeout 60 python3 benchmarks/shape_suite.py --dtypes float64 --classes small > "$OUT/suite_shipped$run.log" 2>&1
    grep -E "^\| small|Geometric" "$OUT/suite_shipped$run.log" | cut -c1-200
    TILED_MATMUL_TUNE_DB="$OUT/db.json" timeout 60 python3 benchmarks/shape_suite.py --dtypes float64 --classes small \
        > "$OUT/suite_tuned$run.log" 2>&1
    grep -E "^\| small|Geometric" "$OUT/suite_tuned$run.log" | cut -c1-200
done
echo "== suites $(( $(date +%s) - T0 )) s"
NSHARD=8 SHARD_TIMEOUT=200 scripts/gpu_shards.sh dmma tests/test_gpu_dmma.py
echo "== $(( $(date +%s) - T0 )) s"
