#!/bin/bash
# twenty-seventh session: x·B with 17-64 rows, auto against chunks / narrowed wgmma / wgmma_tma_tf32
# at bm 64 (scripts/variants_s27/probe_xb.py). A cubin cache filled on the CPU
# (probe_xb.py --compile-only scratch/cubin_s27) is used where carried.
#   bash scripts/gpu_s27a.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ -d scratch/cubin_s27 ]; then export CUPY_CACHE_DIR=$PWD/scratch/cubin_s27; fi
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 400 python3 scripts/variants_s27/probe_xb.py --seed 2701 --count 12 > "$OUT/probe_xb.md" 2>&1
echo "== probe rc $?"; grep -v "^|" "$OUT/probe_xb.md" | tail -12
