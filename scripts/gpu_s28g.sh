#!/bin/bash
# twenty-eighth session: float32 products on wgmma_tma_tf32 with ragged rows (K % 4 or N % 4: the
# TMA rung copies that operand into padded rows) against the cp.async wgmma rungs reading in
# place (seed 2808); and the layouts tests after their gemm helper was shared.
# Cache (CPU): probe_tma_ragged.py --seed 2808 --count 16 --compile-only scratch/cubin_s28g
#   bash scripts/gpu_s28g.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ -d scratch/cubin_s28g ]; then export CUPY_CACHE_DIR=$PWD/scratch/cubin_s28g; fi
timeout 150 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_layouts.py -k "gemm_epilogue or gemv_xb_model" > "$OUT/s28g_tests.log" 2>&1
echo "== tests rc $?"; tail -3 "$OUT/s28g_tests.log"
timeout 380 python3 scripts/variants_s28/probe_tma_ragged.py --seed 2808 --count 16 > "$OUT/s28g_tma_ragged_2808.md" 2>&1
echo "== probe rc $?"
grep "^#" "$OUT/s28g_tma_ragged_2808.md" | head
sed -n '/geometric/,$p' "$OUT/s28g_tma_ragged_2808.md"
awk -F'|' '/^\| [0-9]/ && ($3 !~ /cublas|copy/){printf "%-18s %-7s %8s %6s %s\n",$2,$3,$4,$5,substr($7,1,60)}' "$OUT/s28g_tma_ragged_2808.md"
