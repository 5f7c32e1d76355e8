#!/bin/bash
# seventeenth session: small 16-bit outputs (wgmma_tma's 128 x 128 tile against mma_half's) and
# gemv_xb's 8-row tile with and without K groups (probe_sweep.py halfsmall, xb8).
#   bash scripts/gpu_s17e.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 300 python3 scripts/variants_s17/probe_sweep.py halfsmall float16 "$OUT/halfsmall_float16.jsonl" > "$OUT/halfsmall.log" 2>&1
echo "halfsmall rc $? $(tail -1 "$OUT/halfsmall.log")"
for dt in float32 float64; do
    timeout 100 python3 scripts/variants_s17/probe_sweep.py xb8 $dt "$OUT/xb8_$dt.jsonl" > "$OUT/xb8_$dt.log" 2>&1
    echo "xb8 $dt rc $? $(tail -1 "$OUT/xb8_$dt.log")"
done
