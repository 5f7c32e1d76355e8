#!/usr/bin/env bash
# Fifth session, fourth GPU run: wgmma_tma_tf32's A column-major kernel with separate buffers of the
# transposed big parts (stages <= 4: xpose_bufs) beside the in-place one (stages 5): the rung's
# layout tests (both kernels), racecheck/synccheck over the buffered one, and a.T @ b against a @ b
# per stages value (scripts/bench_acol.py). Logs under $OUT.
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
echo "GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>&1 | head -1)"
scripts/gpu_shards.sh acol_tests tests/test_gpu_wgmma_tma_tf32_layouts.py
cat > /tmp/san_acol4.py <<'PY'
import cupy as cp
import tiled_matmul as tm
rng = cp.random.default_rng(7)
for (M, N, K) in ((300, 260, 200), (70, 127, 33)):
    at = rng.uniform(-1, 1, (K, M), dtype=cp.float32)
    b = rng.uniform(-1, 1, (K, N), dtype=cp.float32)
    c = rng.uniform(-1, 1, (M, N), dtype=cp.float32)
    k = tm.kernel("wgmma_tma_tf32", stages=4)
    k(at.T, b)
    k.gemm(at.T, b, c, alpha=0.5, beta=0.25, bias=c[0], activation="gelu")
cp.cuda.Device().synchronize()
print("sanitize run done")
PY
scripts/gpu_sanitize.sh /tmp/san_acol4.py racecheck synccheck
timeout 200 python3 scripts/bench_acol.py > "$OUT/bench_acol.log" 2>&1
echo "bench rc=$?"; cat "$OUT/bench_acol.log" | tail -12
