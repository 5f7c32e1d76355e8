#!/bin/bash
# twenty-ninth session: wgmma_tma_tf32's "_arows" companion (A's rows not 16-byte multiples, read
# in place through cp.async; not shipped): its GPU tests, the rung's GPU tests, and the timing
# against the copy it would replace on the twenty-eighth session's ragged shapes (seed 2808).
# Setup (the variant is not in the tree): git apply scripts/variants_s29/arows_consumer_realign.patch;
#   cp scripts/variants_s29/test_gpu_arows.py tests/test_gpu_wgmma_tma_tf32_arows.py
# Cache (CPU): probe_arows.py --seed 2808 --count 16 --compile-only scratch/cubin_s29a
#   bash scripts/gpu_s29a.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [ -d scratch/cubin_s29a ]; then export CUPY_CACHE_DIR=$PWD/scratch/cubin_s29a; fi
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_wgmma_tma_tf32_arows.py > "$OUT/s29a_arows_tests.log" 2>&1
echo "== arows tests rc $?"; grep -E "passed|failed|Error|assert" "$OUT/s29a_arows_tests.log" | head -20
timeout 200 python3 scripts/variants_s29/probe_arows.py --seed 2808 --count 16 > "$OUT/s29a_arows_2808.md" 2>&1
echo "== probe rc $?"
sed -n '/geometric/,$p' "$OUT/s29a_arows_2808.md"
awk -F'|' '/^\| [0-9]/ && ($3 !~ /cublas|copy /){printf "%-18s %-7s %8s %6s %s\n",$2,$3,$4,$5,substr($7,1,50)}' "$OUT/s29a_arows_2808.md"
timeout 220 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_wgmma_tma_tf32.py -k "${TF32_K:-not nothing}" > "$OUT/s29a_tf32_tests.log" 2>&1
echo "== tf32 tests rc $?"; tail -3 "$OUT/s29a_tf32_tests.log"
