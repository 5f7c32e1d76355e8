#!/bin/bash
# twenty-fifth session: ragged x·B with 17-32 rows and N of a wave of 128-column blocks or more,
# where auto picked wgmma_tma_tf32, now on gemv_xb_tma's folded chunks: held-out shapes, auto now
# against before and cuBLAS FP32.
#   bash scripts/gpu_s25j.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 170 python3 scripts/variants_s25/probe_fold.py --heldout --rows 17 32 --min-n 17000 --seed 2506 --count 12 \
    > "$OUT/fold_wide_2506.md" 2>&1
echo "== rc $?"; cut -c1-150 "$OUT/fold_wide_2506.md"
