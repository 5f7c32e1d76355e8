#!/bin/bash
# thirtieth session: the GEMV rungs below heuristic.GEMV_MIN_K (K 16-127, streamed operand under
# 2^18 elements) against auto's warp_tiled, seeds 3007 and 3008.
# Cache (CPU): probe_gemv_min_k.py --seed S --count 20 --compile-only scratch/cubin_s30f
#   bash scripts/gpu_s30e.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export CUPY_CACHE_DIR=$PWD/scratch/cubin_s30f
nvidia-smi --query-gpu=name --format=csv,noheader
for s in 3007 3008; do
  timeout 150 python3 scripts/variants_s30/probe_gemv_min_k.py --seed $s --count 20 > "$OUT/s30e_gemv_min_k_$s.md" 2>&1
  echo "seed $s rc $?"; sed -n '/geometric/,$p' "$OUT/s30e_gemv_min_k_$s.md"
  awk -F'|' '/^\| [0-9]/ && ($3 !~ /cublas/){printf "%-14s %-5s %6s %6s %s\n",$2,$3,$4,$5,substr($7,1,36)}' "$OUT/s30e_gemv_min_k_$s.md"
done
