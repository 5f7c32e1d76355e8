#!/bin/bash
# twenty-ninth session: float32 long K on mid-size outputs, auto against the cost model's first six
# candidates (seed 2901, and the two lows of the random seeds 32 and 33).
# Cache (CPU): probe_model_top.py --class long_k --seed 2901 --count 8 --top 6 --compile-only scratch/cubin_s29d
#   bash scripts/gpu_s29d.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ -d scratch/cubin_s29d ]; then export CUPY_CACHE_DIR=$PWD/scratch/cubin_s29d; fi
timeout 240 python3 scripts/variants_s29/probe_model_top.py --class long_k --seed 2901 --count 8 --top 6 > "$OUT/s29d_long_k_2901.md" 2>&1
echo "rc $?"; sed -n '/geometric/,$p' "$OUT/s29d_long_k_2901.md"
