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
# then the rule applied (scripts/variants_s30/gemv_short_k.patch) and the GEMV GPU tests on it
patch -p1 -s < scripts/variants_s30/gemv_short_k.patch && echo "patched"
timeout 200 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_gemv.py > "$OUT/s30f_gpu_gemv_tests.log" 2>&1
echo "tests rc $?"; grep -E "^E|passed|failed" "$OUT/s30f_gpu_gemv_tests.log" | head -8
python3 - <<'PY'
# the held-out shapes and the limit's edges through auto with the rule in, float32 and float64,
# against float64 on a NaN-poisoned C (tm.check: normwise and per element beside cuBLAS)
import cupy, tiled_matmul as tm
SHAPES = [(3, 9, 77), (2, 7, 97), (2, 3, 91), (683, 2, 87), (6, 4, 49), (1, 6, 115), (1, 16, 99), (423, 6, 117),
          (7, 75, 76), (1663, 1, 100), (3, 7, 59), (2, 4, 62), (1, 197, 112), (2020, 4, 56), (5, 38, 65),
          (122, 8, 110), (3, 128, 115), (1, 4, 85), (7, 19, 60), (11, 1, 101)]  # seed 3009's draw
bad = 0
for dt in ("float32", "float64"):
    for M, N, K in SHAPES + [(3, 1, 48), (1, 165, 47), (8, 1994, 48)]:
        g = cupy.random.default_rng(M + N + K)
        a = g.uniform(-1, 1, (M, K)).astype(dt); b = g.uniform(-1, 1, (K, N)).astype(dt)
        c = cupy.full((M, N), cupy.nan, dtype=dt)
        tm.matmul(a, b, out=c)
        r = tm.check(c, a, b)
        bad += not r.passed
        print(dt, f"{M}x{N}x{K}", tm.kernel("auto").kernel_for(M, N, K, dt).strategy.name, r.passed,
              f"comp {r.comp_err:.1e} (cuBLAS {r.cublas_comp_err:.1e})")
print("check failures:", bad)
PY
