#!/bin/bash
# twenty-third session, seventh device call: the misaligned-operand kernels against the aligned
# ones, config by config (variants_s23/probe_elem.py), on two new odd random float64 sets (seeds
# 2311, 2312): the calibration data for the cost model's elem factors.
#   bash scripts/gpu_s23g.sh
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export PYTHONPATH=.
for seed in 2311 2312; do
    timeout 280 python3 scripts/variants_s23/probe_elem.py $seed 14 10 2 > "$OUT/elem_$seed.jsonl" 2> "$OUT/elem_$seed.err"
    echo "== elem $seed rc $?: $(wc -l < "$OUT/elem_$seed.jsonl") lines"; tail -3 "$OUT/elem_$seed.err"
done
