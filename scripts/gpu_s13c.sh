#!/usr/bin/env bash
# Thirteenth session (H100): dmma's whole waves alone, and a K-split launch of the partial last
# wave's tiles after them (variants_s13/probe_tail_rect.py), against dmma over every tile.
#   bash scripts/gpu_s13c.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
F4="bm=128,bn=64,wm=64,wn=32,min_blocks=2"
B2="bm=128,bn=128,wm=32,wn=64"
SF="$F4,bk=16,stages=3"
timeout 500 python3 scripts/variants_s13/probe_tail_rect.py 3 \
    5000x3000x1000:$F4:$SF,split_k=8 5000x3000x1000:$F4:$SF,split_k=4 \
    3001x2999x3007:$B2:$SF,split_k=3 8192x8192x8192:$B2:$SF,split_k=32 \
    2500x2500x2500:$B2:$SF,split_k=32 1500x1500x1500:$B2:$SF,split_k=8 \
    2>&1 | tee "$OUT/tail.log" | grep -v Warn
echo "== rc $?"
