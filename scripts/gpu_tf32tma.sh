#!/usr/bin/env bash
# Verifies branch `tf32tma` (written without device time): wgmma_tma_tf32, float32 tf32 and tf32x3
# on the TMA / warp-specialised / persistent machinery (kernels/16_wgmma_tma_tf32.cu.j2).
#   1. its GPU tests (tests/test_gpu_wgmma_tma_tf32.py): every config x ragged shapes against
#      float64 with NaN-poisoned C, error within the mode's bound and within 2x cuBLAS, Inf/NaN
#      masks equal cuBLAS's, the range guard's exact path, fallbacks for gemm/batched calls;
#      plus the precision-suite tests for the named modes (tests/test_gpu_precision.py);
#   2. the benchmark (scripts/bench_tf32tma.py): 4096^3, 8192^3, 3001x2999x3007, ours vs cuBLAS
#      TF32 (tf32) and cuBLAS FP32 (tf32x3), and the cp.async wgmma rung, L2 flushed, medians;
#   3. compute-sanitizer memcheck / racecheck / synccheck on a small ragged product per mode.
# Everything lands under $OUT; the summary is printed at the end. What to look for:
#   - "TESTS:" lines: every shard "passed", no FAILED lines; "auto long K" lines: ours <= 2x cuBLAS;
#   - "SANITIZER:" lines: "0 errors" for each tool;
#   - the benchmark table (last): tf32 rows' ratio >= 0.95 (vs cuBLAS TF32), tf32x3 rows >= 100 TF/s,
#     every row "ok" (a FAIL row is over its error bound or left NaN in C).
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=${NSHARD:-4}
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader > "$OUT/gpu.txt" 2>&1
echo "GPU: $(cat "$OUT/gpu.txt")"

# 1. tests, in shards (NVRTC compiles bound the time, not the GPU; scripts/gpu_shards.sh -> $OUT/tests.log)
echo "TESTS (exit 124 = timed out):"
NSHARD=$NSHARD SHARD_TIMEOUT=420 scripts/gpu_shards.sh tests tests/test_gpu_wgmma_tma_tf32.py \
    tests/test_gpu_precision.py -k "wgmma_tma_tf32 or tf32" -s
grep -E "^(tf32(x3)? [0-9]+x|auto long K)" "$OUT/tests.log" | sort -u   # ours vs cuBLAS error lines

# 2. benchmark (its table is printed last)
timeout 300 python3 scripts/bench_tf32tma.py --out "$OUT/bench_tf32tma.json" > "$OUT/bench.log" 2>&1
BENCH_RC=$?

# 3. compute-sanitizer on small ragged products (one per mode)
if command -v compute-sanitizer > /dev/null; then
    cat > "$OUT/sanitize_tf32.py" <<'EOF'
import cupy as cp
import tiled_matmul as tm
from tiled_matmul.strategies.wgmma_tma_tf32 import tma_tf32_matmul
for cfg in (tm.STRATEGIES["wgmma_tma_tf32"].default, tm.STRATEGIES["wgmma_tma_tf32"].default.replace(bm=256, stages=4, passes=1)):
    a = cp.random.default_rng(1).uniform(-1, 1, (300, 200), dtype=cp.float32)
    b = cp.random.default_rng(2).uniform(-1, 1, (200, 260), dtype=cp.float32)
    a[3, 4] = cp.nan  # one tile through the exact path
    c = tma_tf32_matmul(a, b, config=cfg)
cp.cuda.Device().synchronize()
print("sanitize run done")
EOF
    for tool in memcheck racecheck synccheck; do
        timeout 150 compute-sanitizer --tool "$tool" python3 "$OUT/sanitize_tf32.py" > "$OUT/sanitizer_$tool.log" 2>&1
        echo "SANITIZER $tool (exit $?): $(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/sanitizer_$tool.log" | tail -1)"
    done
else
    echo "SANITIZER: compute-sanitizer not found"
fi

echo "BENCHMARK (exit $BENCH_RC; 0: every row within its bound; 1: a FAIL row; 124: timed out):"
grep -E "Error|Traceback" "$OUT/bench.log" | head -5
grep -E "^\||SMs" "$OUT/bench.log"
