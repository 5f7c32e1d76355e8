#!/bin/bash
# nineteenth session: dmma's 32 x 64 warps in four-warp blocks at two per SM (probe_f64_tiles.py
# twocta), and gemv_xb K-group blocks of 128 columns for the float32 x.B rows (probe_gemv_kg.py).
#   bash scripts/gpu_s19d.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 200 python3 scripts/variants_s19/probe_gemv_kg.py "$OUT/gemv_kg.jsonl" 3 > "$OUT/gemv_kg.txt" 2>&1
echo "gemv rc $?"
timeout 330 python3 scripts/variants_s19/probe_f64_tiles.py "$OUT/f64_twocta.jsonl" 2 twocta > "$OUT/f64_twocta.txt" 2>&1
echo "f64 rc $?"
cat "$OUT/gemv_kg.txt"
cut -c1-140 "$OUT/f64_twocta.txt"
