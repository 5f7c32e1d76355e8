#!/usr/bin/env bash
# Fourth session, after the last merges: auto's long-K chain rule on the GPU (K = AUTO_CHAIN_K and
# 65536 against cuBLAS FP32 per element), the float32 shape suite after the database drop, and
# compute-sanitizer memcheck over wgmma_tma_tf32 with an epilogue and B column-major. Logs under $OUT.
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 200 python3 -m pytest -q -m gpu tests/test_gpu_wgmma_tma_tf32.py -k "auto_long_k" -s -p no:cacheprovider \
    > "$OUT/longk.log" 2>&1; echo "long K rc=$?"; grep -E "^auto long K|passed|failed" "$OUT/longk.log"
cat > /tmp/san.py <<'PY'
import cupy as cp
import tiled_matmul as tm
rng = cp.random.default_rng(3)
for (M, N, K) in ((300, 260, 200), (129, 127, 33)):
    a = rng.uniform(-1, 1, (M, K), dtype=cp.float32)
    w = rng.uniform(-1, 1, (N, K), dtype=cp.float32)
    c = rng.uniform(-1, 1, (M, N), dtype=cp.float32)
    for mode in ("tf32x3", "tf32"):
        k = tm.kernel("wgmma_tma_tf32", precision=mode)
        k.gemm(a, w.T, c, alpha=0.5, beta=0.25, bias=c[0], activation="gelu")
        k(a, w.T)
cp.cuda.Device().synchronize()
print("sanitize run done")
PY
timeout 200 compute-sanitizer --tool memcheck python3 /tmp/san.py > "$OUT/memcheck.log" 2>&1
echo "memcheck rc=$?: $(grep -E 'ERROR SUMMARY|sanitize run done' "$OUT/memcheck.log" | tr '\n' ' ')"
timeout 200 python3 benchmarks/shape_suite.py --dtypes float32 --out "$OUT" > "$OUT/suite32.log" 2>&1
echo "suite rc=$?"; grep -E "compute-bound|Geometric" "$OUT/suite32.log" | cut -c1-140
