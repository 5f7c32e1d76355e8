#!/bin/bash
# eighteenth session, final: the TMA rungs' GPU tests after the launcher helper, the split rung's,
# gemv_ax_mma's and the half auto tests on the final rules; 22x185x3899 again (bfloat16 once ran
# 56.8 us on the TMA split, float16 18.1); the 16-bit random sweeps from 1 (seeds 16, 17), and the
# 16-bit public suite with its memory-bound bytes counted right.
#   bash scripts/gpu_s18d.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 330 python3 -m pytest -q -m gpu tests/test_gpu_wgmma_tma.py tests/test_gpu_wgmma_tma_split_k.py \
    tests/test_gpu_wgmma_tma_tf32.py tests/test_gpu_gemv_ax_mma.py \
    "tests/test_gpu_mma_half_split_k.py::test_auto_takes_it_for_small_outputs_with_long_k" \
    "tests/test_gpu_half.py::test_auto_runs_half_products" > "$OUT/tests_final.log" 2>&1
echo "tests rc $?"; tail -3 "$OUT/tests_final.log"
timeout 60 python3 - > "$OUT/again_22x185x3899.txt" 2>&1 <<'PY'
import sys
sys.path.insert(0, "scripts/variants_s18")
from probe_tma_split_picks import compare
from tiled_matmul import heuristic as h
from tiled_matmul.timing import L2Flusher
flush = L2Flusher()
for dt in ("bfloat16", "float16", "bfloat16"):
    compare(dt, [(22, 185, 3899), (94, 500, 3000)], lambda M, N, K, d: ("mma_half_split_k", {"split_k": 16}),
            lambda M, N, K, d: h.half_pick(M, N, K, d, 132), flush)
PY
echo "again rc $?"; grep -E "^22x|^94x" "$OUT/again_22x185x3899.txt"
for seed in 16 17; do
    timeout 100 python3 benchmarks/random_shapes.py --count 24 --seed $seed --lo 1 --dtypes float16,bfloat16 \
        --max-gflop 200 --rounds 3 --out "$OUT/r$seed" > "$OUT/sweep${seed}.txt" 2>&1
    echo "sweep $seed rc $?"; grep -iE "geometric" "$OUT/sweep${seed}.txt"
done
timeout 150 python3 benchmarks/shape_suite.py --dtypes float16,bfloat16 --out "$OUT" > "$OUT/suite16.log" 2>&1
echo "suite rc $?"; grep -E "Geometric" "$OUT/suite16.log"
