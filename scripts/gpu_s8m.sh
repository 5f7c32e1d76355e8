#!/usr/bin/env bash
# Eighth session: cuBLAS runs the float64 decode shapes on small-tile GEMM kernels, not GEMV
# (probe_cublas_kernels.py), and dmma's 32x32 tiles or dmma_split_k's 32x64 ones beat our GEMV
# picks there by ~3% (probe_dmma_configs.py --skinny). Tuned with both kinds into a copy of the
# shipped database; the suite's GEMV class twice with each database.
#   bash scripts/gpu_s8m.sh   -> $OUT/db.json, $OUT/tune.log, $OUT/suite_*.log
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
cp tiled_matmul/data/tuned_h100.json "$OUT/db.json"
timeout 300 python3 -m tiled_matmul tune -s 2x8192x8192 8x8192x8192 8192x8x8192 -d float64 \
    --strategies gemv_xb,gemv_ax,dmma,dmma_split_k --db "$OUT/db.json" --json "$OUT/tune64.json" -q > "$OUT/tune.log" 2>&1
echo "== tune rc=$? $(( $(date +%s) - T0 )) s"
for run in 1 2; do
    timeout 90 python3 benchmarks/shape_suite.py --dtypes float64 --classes gemv > "$OUT/suite_shipped$run.log" 2>&1
    grep -E "^\| gemv|Geometric" "$OUT/suite_shipped$run.log" | cut -c1-200
    TILED_MATMUL_TUNE_DB="$OUT/db.json" timeout 90 python3 benchmarks/shape_suite.py --dtypes float64 --classes gemv \
        > "$OUT/suite_tuned$run.log" 2>&1
    grep -E "^\| gemv|Geometric" "$OUT/suite_tuned$run.log" | cut -c1-200
done
echo "== $(( $(date +%s) - T0 )) s"
