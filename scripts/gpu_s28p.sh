#!/bin/bash
# twenty-eighth session: small skinny float32 products on warp_tiled against the GEMV rungs' and the
# model's picks (seed 2812).
# Cache (CPU): probe_small_skinny.py --seed 2812 --count 12 --compile-only scratch/cubin_s28p
#   bash scripts/gpu_s28p.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ -d scratch/cubin_s28p ]; then export CUPY_CACHE_DIR=$PWD/scratch/cubin_s28p; fi
timeout 200 python3 scripts/variants_s28/probe_small_skinny.py --seed 2812 --count 12 > "$OUT/s28p_small_skinny_2812.md" 2>&1
echo "== rc $?"; grep "^#" "$OUT/s28p_small_skinny_2812.md" | head -5; sed -n '/geometric/,$p' "$OUT/s28p_small_skinny_2812.md"
awk -F'|' '/^\| [0-9]/ && ($3 !~ /copy/){printf "%-14s %-7s %7s %6s %s\n",$2,$3,$4,$5,substr($7,1,45)}' "$OUT/s28p_small_skinny_2812.md"
