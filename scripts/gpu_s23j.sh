#!/bin/bash
# twenty-third session, tenth device call: energy per call of float64 8192^3, auto's dmma pick
# against cuBLAS DGEMM, under a steady load (variants_s23/energy_8192.py, nvidia-smi sampled).
#   bash scripts/gpu_s23j.sh
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=timestamp,power.draw,clocks.sm --format=csv,noheader -lms 100 > "$OUT/smi.csv" 2>&1 &
smi=$!
PYTHONPATH=. timeout 120 python3 scripts/variants_s23/energy_8192.py "$OUT/smi.csv" 5 3 > "$OUT/energy.txt" 2>&1
echo "== energy rc $?"; cat "$OUT/energy.txt"
kill $smi
