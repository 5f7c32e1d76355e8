#!/usr/bin/env bash
# Eighth session: the float32 long-K shapes retuned with wgmma and wgmma_split_k now that a split
# product's reduce is cheap, into a copy of the shipped database; the suite's long-K class with
# the shipped database and with the copy, twice.
#   bash scripts/gpu_s8k.sh   -> $OUT/db.json, $OUT/tune.log, $OUT/suite_*.log
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
cp tiled_matmul/data/tuned_h100.json "$OUT/db.json"
timeout 300 python3 -m tiled_matmul tune -s 1024x32x32768 32x1024x32768 256x256x131072 -d float32 \
    --strategies wgmma,wgmma_split_k --db "$OUT/db.json" --json "$OUT/tune32.json" -q > "$OUT/tune.log" 2>&1
echo "== tune rc=$? $(( $(date +%s) - T0 )) s"
for run in 1 2; do
    timeout 60 python3 benchmarks/shape_suite.py --dtypes float32 --classes "long K" > "$OUT/suite_shipped$run.log" 2>&1
    grep -E "^\| long|Geometric" "$OUT/suite_shipped$run.log" | cut -c1-200
    TILED_MATMUL_TUNE_DB="$OUT/db.json" timeout 60 python3 benchmarks/shape_suite.py --dtypes float32 --classes "long K" \
        > "$OUT/suite_tuned$run.log" 2>&1
    grep -E "^\| long|Geometric" "$OUT/suite_tuned$run.log" | cut -c1-200
done
echo "== $(( $(date +%s) - T0 )) s"
