#!/bin/bash
# eighteenth session: the cluster rule for 16-bit outputs whose B rows are not 128-byte multiples
# against the default tile on shapes not used to make it, then the 16-bit random sweeps from 1 with
# seeds 14 and 15 (not used for this session's rules), and auto's GPU tests of the half rungs.
#   bash scripts/gpu_s18h.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 200 python3 scripts/variants_s18/probe_c2_picks.py float16 bfloat16 > "$OUT/c2_picks.txt" 2>&1
echo "c2 picks rc $?"; grep -E "moved|WRONG" "$OUT/c2_picks.txt"
for seed in 14 15; do
    timeout 100 python3 benchmarks/random_shapes.py --count 24 --seed $seed --lo 1 --dtypes float16,bfloat16 \
        --max-gflop 200 --rounds 3 --out "$OUT/r$seed" > "$OUT/sweep${seed}.txt" 2>&1
    echo "sweep $seed rc $?"; grep -iE "geometric" "$OUT/sweep${seed}.txt"
done
timeout 150 python3 -m pytest -q -m gpu "tests/test_gpu_half.py::test_auto_runs_half_products" \
    "tests/test_gpu_wgmma_tma.py" > "$OUT/tests.log" 2>&1
echo "tests rc $?"; tail -2 "$OUT/tests.log"
