#!/bin/bash
# twenty-first session: in-process A/B of dmma renderings, HEAD (_old/) against the working tree.
#   bash scripts/gpu_s21e.sh
# _old/ is HEAD's tree before the change (fc7e9d0), made untracked and not ignored so that the
# device run carries it: mkdir _old && git archive fc7e9d0 tiled_matmul kernels pyproject.toml | tar -x -C _old
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 400 python3 scripts/variants_s21/ab_dmma_src.py 5 > "$OUT/ab_src_${TAG:-run}.txt" 2>&1
echo "rc $?"; cat "$OUT/ab_src_${TAG:-run}.txt" | cut -c1-250
