#!/usr/bin/env bash
# dmma's interior-copy loop and gemm's beta read: GPU tests, dmma against cuBLAS DGEMM, the batched
# and epilogue benchmark, and the small-matrix batch sweep. Logs under $OUT.
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 240 python3 -m pytest -q -m gpu tests/test_gpu_dmma.py tests/test_gpu_gemm.py "tests/test_gpu_core.py" -k "dmma or gemm or beta or subnormal or float64 or ragged" -p no:cacheprovider > "$OUT/tests.log" 2>&1; tail -4 "$OUT/tests.log"
timeout 150 python3 benchmarks/dmma.py --sizes 2048,4096,8192,3001x2999x3007 --out "$OUT" > "$OUT/dmma.log" 2>&1; grep -E "auto|cuBLAS|default|bm128_bn64" "$OUT/dmma.log" | head -40
timeout 100 python3 benchmarks/batched_and_epilogues.py > "$OUT/batched.log" 2>&1; grep -E "alpha|4096, 64, 64|GELU" "$OUT/batched.log"
timeout 150 python3 scripts/sweep_batched_small.py --limit 50 > "$OUT/sweep.log" 2>&1; tail -14 "$OUT/sweep.log"
