#!/usr/bin/env bash
# Eleventh session (H100): the cost model on float64 shapes off the suite (ragged, odd aspect,
# between the classes): its 6 fastest predicted candidates, the dispatcher's and the heuristic's
# picks and cuBLAS, timed (scripts/validate_cost_model.py --shapes).
#   bash scripts/gpu_s11d.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
S=1001x1001x1001:float64,777x1999x2001:float64,513x8191x8191:float64,1500x1500x1500:float64
S=$S,2500x3500x1500:float64,6000x1000x700:float64,96x2048x2048:float64,300x300x30000:float64
S=$S,1536x1536x96:float64,200x7000x200:float64,777x555x333:float64,640x4000x4000:float64
timeout 560 python3 scripts/validate_cost_model.py --shapes "$S" --top 6 --repeat 5 --budget-ms 80 \
    --out "$OUT" 2>&1 | tee "$OUT/validate64.log" | grep -E "float64:|within|^- " | cut -c1-200
