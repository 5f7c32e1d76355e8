#!/bin/bash
# twenty-eighth session: gemv_xb_tma's table picks against the cost model's pick among its configs
# (x·B, M 1-16, seed 2811), measured before any rule (the model would move 211 of 471 random picks).
# Cache (CPU): probe_gemv_model.py --seed 2811 --xb 0 --ax 0 --xb-tma 12 --compile-only scratch/cubin_s28o
#   bash scripts/gpu_s28o.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ -d scratch/cubin_s28o ]; then export CUPY_CACHE_DIR=$PWD/scratch/cubin_s28o; fi
timeout 300 python3 scripts/variants_s28/probe_gemv_model.py --seed 2811 --xb 0 --ax 0 --xb-tma 12 > "$OUT/s28o_xb_tma_model_2811.md" 2>&1
echo "== rc $?"; grep "^#" "$OUT/s28o_xb_tma_model_2811.md" | head -5; sed -n '/geometric/,$p' "$OUT/s28o_xb_tma_model_2811.md"
awk -F'|' '/^\| [0-9]/ && ($3 ~ /table|model/){printf "%-18s %-6s %8s %6s %5s %s\n",$2,$3,$4,$5,$6,substr($7,1,50)}' "$OUT/s28o_xb_tma_model_2811.md"
