#!/bin/bash
# fifteenth session: the half sweep's lowest rows against smaller tiles and other splits
#   bash scripts/gpu_s15i.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 500 python3 scripts/variants_s15/probe_half_small.py > "$OUT/probe_half_small.txt" 2>&1; echo "rc $?"
python3 scripts/variants_s15/compact.py "$OUT/probe_half_small.txt"
