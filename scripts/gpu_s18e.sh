#!/bin/bash
# eighteenth session: gemv_ax_mma on 16-bit A·x with 9..64 columns, and every wgmma_tma tile on
# mid-size 16-bit products (scripts/variants_s18/probe_s18e.py; JSON lines for the CPU afterwards).
#   bash scripts/gpu_s18e.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for what in ax mid; do
    timeout 280 python3 scripts/variants_s18/probe_s18e.py $what "$OUT/$what.jsonl" float16 > "$OUT/$what.log" 2>&1
    echo "$what rc $? $(wc -l < "$OUT/$what.jsonl") lines"; tail -2 "$OUT/$what.log"
done
