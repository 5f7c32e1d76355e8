#!/usr/bin/env bash
# Thirteenth session (H100): dmma_tail's GPU tests again, then `auto` with it (the tree) against
# `auto` without it (variants_s13/dmma_tail.patch reversed) on float64 shapes off the suite, where
# the cost model picks without a database entry, alternating rounds, each against cuBLAS.
#   bash scripts/gpu_s13i.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=3 SHARD_TIMEOUT=200 bash scripts/gpu_shards.sh tail tests/test_gpu_dmma_tail.py
bash scripts/variants_s12/trees.sh scripts/variants_s13/dmma_tail.patch
timeout 330 python3 scripts/variants_s12/compare.py /tmp/r base,new 3 1001x1001x1001 896x896x896 960x960x960 \
    1280x768x1024 1000x1000x4000 700x1500x1000 640x4000x4000 513x8191x8191 200x7000x200 1500x1500x1500 \
    2500x2500x2500 1200x900x1100 1536x1536x1536 300x300x3000 3000x3000x3000 2000x2000x2000 6000x4000x2000 \
    1280x1280x1280 3500x2500x3000 10000x10000x2000 > "$OUT/compare.log" 2>&1
echo "== compare rc $?"
tail -22 "$OUT/compare.log"
