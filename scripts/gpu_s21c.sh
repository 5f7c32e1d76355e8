#!/bin/bash
# twenty-first session: float64 floor row 5000x3000x1000 against whole-tile neighbours (probe_f64_edges.py).
#   bash scripts/gpu_s21c.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 300 python3 scripts/variants_s21/probe_f64_edges.py 3 > "$OUT/f64_edges_${TAG:-run}.txt" 2>&1
echo "probe rc $?"
sed -n "/^shape/,\$p" "$OUT/f64_edges_${TAG:-run}.txt"; grep -i "fail\|error" "$OUT/f64_edges_${TAG:-run}.txt" | head
