#!/bin/bash
# nineteenth session: the GEMV rungs' K-slice count where the grid overshoots a whole wave by a few
# blocks (scripts/variants_s19/probe_gemv_splits.py).
#   bash scripts/gpu_s19e.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 500 python3 scripts/variants_s19/probe_gemv_splits.py "$OUT/gemv_splits.txt"
echo "rc $?"
cat "$OUT/gemv_splits.txt"
