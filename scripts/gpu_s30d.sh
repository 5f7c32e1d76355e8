#!/bin/bash
# thirtieth session: tf32x3 below K = 128 — componentwise error over cuBLAS FP32 at K 16-127 (every
# numerics data set, 3 seeds, 512^2 and 2048^2), and auto (FFMA there) against the tf32x3 request's
# pick on fresh short-K shapes (seeds 3005, 3006).
# Cache (CPU): probe_short_k_tf32x3.py accuracy|speed --seed S --compile-only scratch/cubin_s30e
#   bash scripts/gpu_s30d.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export CUPY_CACHE_DIR=$PWD/scratch/cubin_s30e
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 240 python3 scripts/variants_s30/probe_short_k_tf32x3.py accuracy > "$OUT/s30d_short_k_accuracy.md" 2>&1
echo "accuracy rc $?"; tail -16 "$OUT/s30d_short_k_accuracy.md"
for s in 3005 3006; do
  timeout 150 python3 scripts/variants_s30/probe_short_k_tf32x3.py speed --seed $s --count 16 > "$OUT/s30d_short_k_speed_$s.md" 2>&1
  echo "speed $s rc $?"; sed -n '/geometric/,$p' "$OUT/s30d_short_k_speed_$s.md"
  awk -F'|' '/^\| [0-9]/ && ($3 !~ /cublas/){printf "%-16s %-5s %7s %6s %s\n",$2,$3,$4,$5,substr($7,1,40)}' "$OUT/s30d_short_k_speed_$s.md"
done
