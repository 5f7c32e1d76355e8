#!/bin/bash
# twenty-fourth session, first device call: float32 A.x at N = 8 on the TF32 tensor cores (3xTF32
# probe, scripts/variants_s24/probe_ax_tf32x3.py) against gemv_ax, cuBLAS and a device copy.
#   bash scripts/gpu_s24a.sh
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv
PYTHONPATH=. timeout 400 python3 scripts/variants_s24/probe_ax_tf32x3.py > "$OUT/ax_tf32x3.txt" 2>&1
echo "== rc $?"
cat "$OUT/ax_tf32x3.txt" | tail -45
