#!/usr/bin/env bash
# Thirteenth session (H100): `auto` with dmma_split_k's two-row tiles in its search space (the tree)
# against `auto` without them (variants_s13/split_two_row.patch reversed), on float64 shapes off the
# suite whose cost-model pick they change (18 of the 105 such shapes of an 864-shape grid, drawn at
# random, and 700 x 1500 x 1000, where validate_cost_model.py found the pick 25% behind the best).
#   bash scripts/gpu_s13q.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
bash scripts/variants_s12/trees.sh scripts/variants_s13/split_two_row.patch
timeout 450 python3 scripts/variants_s12/compare.py /tmp/r base,new 3 700x1500x1000 300x500x4000 300x640x32768 \
    300x1000x4000 300x1536x32768 300x2000x32768 300x2500x2000 300x2500x32768 300x8192x4000 500x300x4000 \
    700x500x32768 700x1000x8000 700x1000x32768 700x1536x8000 700x1536x32768 700x2000x4000 700x2500x8000 \
    700x2500x32768 2500x700x32768 > "$OUT/compare.log" 2>&1
echo "== compare rc $?"
tail -21 "$OUT/compare.log"
