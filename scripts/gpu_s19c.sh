#!/bin/bash
# nineteenth session: the float64 picks that measured efficiencies for dmma's 128 x 64 tile at two
# blocks per SM move (scripts/variants_s19/f64_eff_picks.py), old pick against new with cuBLAS.
#   bash scripts/gpu_s19c.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 540 python3 scripts/variants_s19/f64_eff_picks.py --time 2>&1 | tee "$OUT/f64_eff_picks.txt" | tail -40
