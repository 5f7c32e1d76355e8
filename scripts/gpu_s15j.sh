#!/bin/bash
# fifteenth session: the half 32 x 32 tile rules, before against after (probe_half_rules.py)
#   bash scripts/gpu_s15j.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 500 python3 scripts/variants_s15/probe_half_rules.py > "$OUT/probe_half_rules.txt" 2>&1; echo "rc $?"
python3 scripts/variants_s15/compact.py "$OUT/probe_half_rules.txt"
