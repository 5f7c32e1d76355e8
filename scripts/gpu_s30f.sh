#!/bin/bash
# thirtieth session: held out — heuristic.GEMV_MIN_K at 48 (set from gpu_s30e.sh's seeds 3007/3008)
# on fresh float32 shapes whose pick it moves (seed 3009).
# Cache (CPU): probe_gemv_min_k.py --seed 3009 --count 20 --limit 48 --no-fixed --compile-only scratch/cubin_s30f
#   bash scripts/gpu_s30f.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export CUPY_CACHE_DIR=$PWD/scratch/cubin_s30f
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 150 python3 scripts/variants_s30/probe_gemv_min_k.py --seed 3009 --count 20 --limit 48 --no-fixed \
  > "$OUT/s30f_gemv_min_k_48_3009.md" 2>&1
echo "rc $?"; sed -n '/geometric/,$p' "$OUT/s30f_gemv_min_k_48_3009.md"
awk -F'|' '/^\| [0-9]/ && ($3 !~ /cublas/){printf "%-14s %-5s %6s %6s %s\n",$2,$3,$4,$5,substr($7,1,36)}' "$OUT/s30f_gemv_min_k_48_3009.md"
