#!/usr/bin/env bash
# dmma's interior-copy loop, gemm's beta read and the batched pick: GPU tests, dmma against cuBLAS
# DGEMM, the batched and epilogue benchmark. Logs under $OUT.
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 200 python3 -m pytest -q -x -m gpu tests/test_gpu_dmma.py tests/test_gpu_gemm.py tests/test_gpu_core.py -k "dmma or gemm or beta or subnormal or float64" -p no:cacheprovider > "$OUT/tests.log" 2>&1; tail -15 "$OUT/tests.log" | cut -c1-300
timeout 120 python3 benchmarks/dmma.py --sizes 2048,4096,8192,3001x2999x3007 --configs default,bm128_bn64_bk16_wm64_wn32_mma_k8_stages3_group_m8_min_blocks2 --out "$OUT" > "$OUT/dmma.log" 2>&1; grep -E "auto|cuBLAS|dmma" "$OUT/dmma.log" | cut -c1-160 | head -30
timeout 100 python3 benchmarks/batched_and_epilogues.py > "$OUT/batched.log" 2>&1; grep -E "batched|alpha|GELU" "$OUT/batched.log"
