#!/bin/bash
# thirtieth session: register_blocked's config by the cost model against its default, on fresh
# short-K shapes (seed 3003, with random seed 35's 527x7279x66) and under an ieee request (seed 3004).
# Cache (CPU): probe_rb_configs.py --class short_k --seed 3003 --count 16 --compile-only scratch/cubin_s30d (and ieee 3004 10)
#   bash scripts/gpu_s30c.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export CUPY_CACHE_DIR=$PWD/scratch/cubin_s30d
nvidia-smi --query-gpu=name --format=csv,noheader
for spec in "short_k 3003 16" "ieee 3004 10"; do
  set -- $spec
  timeout 240 python3 scripts/variants_s30/probe_rb_configs.py --class $1 --seed $2 --count $3 > "$OUT/s30c_rb_$1_$2.md" 2>&1
  echo "$1 rc $?"; sed -n '/geometric/,$p' "$OUT/s30c_rb_$1_$2.md"
  awk -F'|' '/^\| [0-9]/ && ($3 !~ /cublas/){printf "%-16s %-5s %7s %6s %s\n",$2,$3,$4,$5,substr($7,1,50)}' "$OUT/s30c_rb_$1_$2.md"
done
