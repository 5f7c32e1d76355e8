#!/bin/bash
# seventeenth session: data for the split rules (small C, long K; three dtypes) and the cost
# model's short-K terms (float64), probe_sweep.py, one JSON line per timed candidate.
#   bash scripts/gpu_s17b.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv > "$OUT/gpu.txt" 2>&1
for dt in float32 float64 float16; do
    timeout 170 python3 scripts/variants_s17/probe_sweep.py split $dt "$OUT/split_$dt.jsonl" > "$OUT/split_$dt.log" 2>&1
    echo "split $dt rc $? $(tail -1 "$OUT/split_$dt.log")"
done
timeout 150 python3 scripts/variants_s17/probe_sweep.py shortk float64 "$OUT/shortk_float64.jsonl" > "$OUT/shortk_float64.log" 2>&1
echo "shortk float64 rc $? $(tail -1 "$OUT/shortk_float64.log")"
