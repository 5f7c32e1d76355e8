#!/usr/bin/env bash
# Last checks of the third session: the GPU tests fixed after the integration run, the sanitizer
# over mma_half and the reworked dmma (plus a transposed-operand run per rung), the float64 shape
# suite with the new dmma loop and dispatcher. Logs under $OUT.
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 120 python3 -m pytest -q -m gpu tests/test_interop_gpu.py tests/test_gpu_half.py -k "torch_stream or auto_runs_half" -p no:cacheprovider > "$OUT/tests.log" 2>&1; tail -2 "$OUT/tests.log"
LOGDIR=$OUT/san TOOLS="memcheck racecheck" timeout 200 bash scripts/sanitize.sh --strategies mma_half,dmma,warp_tiled,wgmma --dtypes float16,float32,float64 --shapes 33x65x17,65x36x20 > "$OUT/san.log" 2>&1; grep -E "sanitize:|FAIL" "$OUT/san.log" | cut -c1-220
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 99 python3 - > "$OUT/san_layouts.log" 2>&1 <<'PY'
import cupy as cp, numpy as np, tiled_matmul as tm
rng = np.random.default_rng(0)
bad = 0
for name in ["register_blocked", "warp_tiled", "split_k", "tensor_core", "wgmma", "wgmma_split_k", "dmma", "gemv_xb", "gemv_ax"]:
    for dt in [d for d in ("float32", "float64") if tm.STRATEGIES[name].supports(d)]:
        for ta, tb in [(True, False), (False, True), (True, True)]:
            M, N, K = 33, 65, 17
            a = cp.asarray(rng.uniform(-1, 1, (K, M) if ta else (M, K)).astype(dt)); a = a.T if ta else a
            b = cp.asarray(rng.uniform(-1, 1, (N, K) if tb else (K, N)).astype(dt)); b = b.T if tb else b
            c = tm.matmul(a, b, strategy=name)
            ref = cp.asnumpy(a).astype(np.float64) @ cp.asnumpy(b).astype(np.float64)
            err = float(np.abs(cp.asnumpy(c) - ref).max())
            bad += err > 1e-4
print("layout runs done, wrong:", bad)
PY
echo "layouts memcheck rc=$?"; grep -E "ERROR SUMMARY|wrong" "$OUT/san_layouts.log"
timeout 220 python3 benchmarks/shape_suite.py --dtypes float64 --out "$OUT" > "$OUT/suite64.log" 2>&1; tail -45 "$OUT/suite64.log" | cut -c1-160
