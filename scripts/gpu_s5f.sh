#!/usr/bin/env bash
# Fifth session, last GPU run: the public shape suite in both dtypes (auto against cuBLAS, after
# dmma_split_k, the float64 database update and wgmma_tma_tf32's stages=4), the TMA tf32 rung at
# 4096^3 / 8192^3 against cuBLAS TF32 and FP32 (scripts/bench_tf32tma.py), and the host overhead
# at 64^3 twice (benchmarks/host_overhead.py, scripts/probe_host.py). Logs under $OUT.
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
echo "GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>&1 | head -1)"
timeout 300 python3 benchmarks/shape_suite.py --out "$OUT" > "$OUT/suite.log" 2>&1
echo "suite rc=$?"; grep -E "Geometric|lowest" "$OUT/suite.log" | cut -c1-200
timeout 150 python3 scripts/bench_tf32tma.py --sizes 4096,8192 --repeat 10 > "$OUT/tf32.log" 2>&1
echo "tf32 rc=$?"; grep -E "^\|" "$OUT/tf32.log" | grep -E "cuBLAS|stages4_group_m8_passes3|bm256_bn128_stages4" | cut -c1-160
{ timeout 60 python3 benchmarks/host_overhead.py --calls 2000; timeout 60 python3 scripts/probe_host.py;
  timeout 60 python3 benchmarks/host_overhead.py --calls 2000; } > "$OUT/host.log" 2>&1
echo "host rc=$?"; grep -E "auto|cupy.matmul|bare|^\| 64" "$OUT/host.log"
