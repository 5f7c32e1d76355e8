#!/bin/bash
# eighteenth session: wgmma_tma's clusters on short-K 16-bit outputs of several waves
# (scripts/variants_s18/probe_c2.py).
#   bash scripts/gpu_s18g.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 250 python3 scripts/variants_s18/probe_c2.py "$OUT/c2_float16.jsonl" float16 > "$OUT/c2.log" 2>&1
echo "c2 rc $? $(wc -l < "$OUT/c2_float16.jsonl") lines"; tail -2 "$OUT/c2.log"
