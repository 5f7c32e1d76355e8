#!/bin/bash
# twenty-eighth session: float64 mid-size shapes, auto against the cost model's next candidates.
# Cache (CPU): probe_f64_mid.py --seed 2810 --count 10 --top 6 --compile-only scratch/cubin_s28k
#   bash scripts/gpu_s28k.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ -d scratch/cubin_s28k ]; then export CUPY_CACHE_DIR=$PWD/scratch/cubin_s28k; fi
timeout 400 python3 scripts/variants_s28/probe_f64_mid.py --seed 2810 --count 10 --top 6 > "$OUT/s28k_f64_mid_2810.md" 2>&1
echo "== rc $?"; grep "^#" "$OUT/s28k_f64_mid_2810.md" | head -5; sed -n '/geometric/,$p' "$OUT/s28k_f64_mid_2810.md"
