#!/bin/bash
# twenty-second session, eleventh device call: float64 8192^3 sits at 0.96x cuBLAS on the 128 x 128
# pairs tile where 4096^3 is at 1.00; its block order's group of tile rows (group_m 2-16) at
# 4096^3-8192^3, in one run (probe_pairs.py groups).
#   bash scripts/gpu_s22k.sh
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
PYTHONPATH=. timeout 300 python3 scripts/variants_s22/probe_pairs.py 3 groups > "$OUT/pairs_groups.txt" 2>&1
echo "== groups rc $?"; grep -A10 "^shape" "$OUT/pairs_groups.txt"; grep -i "fail\|error" "$OUT/pairs_groups.txt" | head
