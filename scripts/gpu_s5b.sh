#!/usr/bin/env bash
# Fifth session, second GPU run: the A column-major tests after their fixes, issue 13's sweep of
# wgmma_tma_tf32 configs at 4096^3 / 8192^3 against cuBLAS (scripts/bench_tf32tma.py --sweep), and
# the host overhead at 64^3 (benchmarks/host_overhead.py, scripts/probe_host.py). Logs under $OUT.
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
echo "GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>&1 | head -1)"
NSHARD=4 scripts/gpu_shards.sh acol_tests tests/test_gpu_wgmma_tma_tf32_layouts.py tests/test_gpu_layouts.py -k "wgmma_tma_tf32"
timeout 330 python3 scripts/bench_tf32tma.py --sizes 4096,8192 --sweep --repeat 10 > "$OUT/sweep.log" 2>&1
echo "sweep rc=$?"
{ timeout 60 python3 benchmarks/host_overhead.py --calls 2000; timeout 60 python3 scripts/probe_host.py; } > "$OUT/host.log" 2>&1
echo "host rc=$?"
grep -E "^\|" "$OUT/host.log" | head -20
grep -E "cuBLAS|Error" "$OUT/sweep.log" | head -8
grep -E "wgmma_tma_tf32" "$OUT/sweep.log" | sort -t'|' -k3,3 -k6,6r | head -60
