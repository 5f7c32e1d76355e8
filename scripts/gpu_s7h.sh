#!/usr/bin/env bash
# Seventh session: the public suite and issue 13's benchmark with timing.L2Flusher's host lead
# (the spin kernel after each flush)
#   1. scripts/probe_small.py --dtype float32 --shapes 256,384: event time with and without the lead
#   2. scripts/bench_tf32tma.py (4096^3, 8192^3)                    -> $OUT/bench_tf32tma.log
#   3. benchmarks/shape_suite.py, both dtypes                         -> $OUT/suite.log, shape_suite.md
#   bash scripts/gpu_s7h.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
timeout 120 python3 scripts/probe_small.py --dtype float32 --shapes 256,384 > "$OUT/probe_small.log" 2>&1
echo "== probe_small rc=$? $(( $(date +%s) - T0 )) s"
grep -E "cuBLAS|auto" "$OUT/probe_small.log" | head -8
timeout 150 python3 scripts/bench_tf32tma.py --sizes 4096,8192 > "$OUT/bench_tf32tma.log" 2>&1
echo "== bench_tf32tma rc=$? $(( $(date +%s) - T0 )) s"
grep -E "^\|" "$OUT/bench_tf32tma.log" | grep -E "cuBLAS|bm128_bn128_stages4_group_m8_passes3|bm256_bn128_stages4_group_m8_passes1"
timeout 360 python3 benchmarks/shape_suite.py --out "$OUT" > "$OUT/suite.log" 2>&1
echo "== suite rc=$? $(( $(date +%s) - T0 )) s"
grep -E "Geometric|^\| small" "$OUT/suite.log" | cut -c1-200
