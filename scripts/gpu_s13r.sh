#!/usr/bin/env bash
# Thirteenth session (H100): `auto` with the tuner's per-config dmma efficiencies in the shipped
# database (the tree: the config keys of tiles of at least 128 x 64 that the gpu_s13j.sh tune
# measured at 3001^3, 5000x3000x1000 and 8192^3; a first run had all 16 keys, small tiles' too)
# against `auto` without them (variants_s13/dmma_efficiency.patch reversed), on float64 shapes
# whose cost-model pick they change (20 drawn at random from the grid's, and 5 small ones),
# alternating rounds.
#   bash scripts/gpu_s13r.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
bash scripts/variants_s12/trees.sh scripts/variants_s13/dmma_efficiency.patch
timeout 500 python3 scripts/variants_s12/compare.py /tmp/r base,new 3 1000x5000x2000 1000x5000x8000 1536x5000x500 \
    2000x1536x4000 2000x1536x8000 2000x2000x1000 3000x3000x500 5000x2500x8000 5000x3000x4000 5000x5000x4000 \
    5000x6000x4000 6000x1536x4000 6000x2000x500 6000x5000x1000 6000x10000x500 8000x2000x500 8000x4000x2000 \
    8000x6000x500 8000x6000x2000 10000x5000x1000 640x640x500 640x2000x1000 640x5000x500 640x1000x1000 \
    640x1536x8000 > "$OUT/compare.log" 2>&1
echo "== compare rc $?"
tail -27 "$OUT/compare.log"
