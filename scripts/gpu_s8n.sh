#!/usr/bin/env bash
# Eighth session: dmma_split_k's 32 x 32 x 32 tiles (4 and 8 slices) in its search space; the
# float64 long-K shapes tuned with dmma and dmma_split_k into a copy of the shipped database,
# the suite's long-K class twice with each, and the dmma_split_k GPU tests.
#   bash scripts/gpu_s8n.sh   -> $OUT/db.json, $OUT/tune.log, $OUT/suite_*.log, $OUT/dsk.log
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
cp tiled_matmul/data/tuned_h100.json "$OUT/db.json"
timeout 200 python3 -m tiled_matmul tune -s 1024x32x32768 32x1024x32768 -d float64 --strategies dmma,dmma_split_k \
    --db "$OUT/db.json" --json "$OUT/tune64.json" -q > "$OUT/tune.log" 2>&1
echo "== tune rc=$? $(( $(date +%s) - T0 )) s"
for run in 1 2; do
    timeout 60 python3 benchmarks/shape_suite.py --dtypes float64 --classes "long K" > "$OUT/suite_shipped$run.log" 2>&1
    grep -E "^\| long|Geometric" "$OUT/suite_shipped$run.log" | cut -c1-200
    TILED_MATMUL_TUNE_DB="$OUT/db.json" timeout 60 python3 benchmarks/shape_suite.py --dtypes float64 --classes "long K" \
        > "$OUT/suite_tuned$run.log" 2>&1
    grep -E "^\| long|Geometric" "$OUT/suite_tuned$run.log" | cut -c1-200
done
NSHARD=8 SHARD_TIMEOUT=200 scripts/gpu_shards.sh dsk tests/test_gpu_dmma_split_k.py
echo "== $(( $(date +%s) - T0 )) s"
