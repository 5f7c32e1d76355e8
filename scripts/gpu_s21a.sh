#!/bin/bash
# twenty-first session: float64 DMMA with 16-byte fragment reads (probe_dmma_t.py), and its SASS.
#   bash scripts/gpu_s21a.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv
timeout 500 python3 scripts/variants_s21/probe_dmma_t.py 3 more ${ONLY:-} > "$OUT/dmma_t_${TAG:-run}.txt" 2>&1
echo "probe rc $?"
sed -n "/^summary/,\$p" "$OUT/dmma_t_${TAG:-run}.txt"
