#!/usr/bin/env bash
# Thirteenth session (H100): `auto` with the shipped efficiency records (the tree) against without
# them (variants_s13/dmma_efficiency.patch reversed) on shapes named in the closing note.
#   bash scripts/gpu_s13s.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
bash scripts/variants_s12/trees.sh scripts/variants_s13/dmma_efficiency.patch
timeout 300 python3 scripts/variants_s12/compare.py /tmp/r base,new 3 3000x3000x3000 1000x1000x4000 700x1500x1000 \
    6000x4000x2000 2048x4096x3000 4500x4500x4500 > "$OUT/compare.log" 2>&1
echo "== compare rc $?"
tail -8 "$OUT/compare.log"
