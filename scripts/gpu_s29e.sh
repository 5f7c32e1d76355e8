#!/bin/bash
# twenty-ninth session: float32 x·B with 1-8 rows and a short K (128-400) on a wide B, auto (the
# heuristic's gemv_xb with the model's config) against the cost model's first five candidates
# (mostly gemv_xb_tma's), seed 2902.
# Cache (CPU): probe_model_top.py --class xb_short_k --seed 2902 --count 10 --top 5 --compile-only scratch/cubin_s29e
#   bash scripts/gpu_s29e.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ -d scratch/cubin_s29e ]; then export CUPY_CACHE_DIR=$PWD/scratch/cubin_s29e; fi
timeout 200 python3 scripts/variants_s29/probe_model_top.py --class xb_short_k --seed 2902 --count 10 --top 5 \
  > "$OUT/s29e_xb_short_k_2902.md" 2>&1
echo "rc $?"; sed -n '/geometric/,$p' "$OUT/s29e_xb_short_k_2902.md"
awk -F'|' '/^\| [0-9]/ && ($3 !~ /copy/){printf "%-16s %-6s %7s %6s %6s %s\n",$2,$3,$4,$5,$6,substr($7,1,60)}' "$OUT/s29e_xb_short_k_2902.md"
