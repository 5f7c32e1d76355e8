#!/usr/bin/env bash
# float16/bfloat16 on the GPU machine: the half GPU tests, the strategy-wide GPU tests that now
# include mma_half, scripts/probe_half.py (4096^3 and 3001x2999x3007 against cuBLAS) and a quick
# bench over three dtypes. Logs under $OUT; a short summary last.
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
python3 -c "import torch; print('torch', torch.__version__)" > "$OUT/env.log" 2>&1
python3 -c "import cupy, ml_dtypes; print('cupy', cupy.__version__, 'ml_dtypes', ml_dtypes.__version__)" >> "$OUT/env.log" 2>&1
timeout 300 python3 -m pytest -q -m gpu tests/test_gpu_half.py -p no:cacheprovider -rs -s > "$OUT/tests_half.log" 2>&1
timeout 420 python3 -m pytest -q -m gpu tests/test_gpu_core.py tests/test_gpu_gemm.py tests/test_interop_gpu.py \
    tests/test_robustness_gpu.py -k "mma_half or torch or batched or semantics" -p no:cacheprovider \
    > "$OUT/tests_wide.log" 2>&1
timeout 240 python3 scripts/probe_half.py --out "$OUT/probe_half.json" > "$OUT/probe_half.log" 2>&1
timeout 240 python3 -m tiled_matmul bench --quick --no-tile-study --no-plots --dtype float16,bfloat16,float32 \
    --strategies mma_half,tensor_core,wgmma,auto --sizes 1024,4096 --out "$OUT/bench" > "$OUT/bench.log" 2>&1
cat "$OUT/env.log"
grep -E "^(FAILED|ERROR)|passed|failed|bfloat16 cuBLAS" "$OUT/tests_half.log" | tail -15
grep -E "^(FAILED|ERROR)|passed|failed" "$OUT/tests_wide.log" | tail -15
cat "$OUT/probe_half.log"
tail -40 "$OUT/bench.log"
