#!/bin/bash
# seventeenth session: the lows of the first sweeps (seeds 16, 17) against every candidate the cost
# model ranks (probe_lows.py new).
#   bash scripts/gpu_s17d.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for dt in float16 float32 float64; do
    timeout 180 python3 scripts/variants_s17/probe_lows.py new $dt > "$OUT/newlows_$dt.txt" 2>&1
    echo "new lows $dt rc $?"
done
