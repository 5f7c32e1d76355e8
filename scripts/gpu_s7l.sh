#!/usr/bin/env bash
# Seventh session: issue 13's float32 rows twice more with the timer's host lead (two processes
# of scripts/bench_tf32tma.py, 4096^3 and 8192^3)                  -> $OUT/bench_tf32tma_{1,2}.log
#   bash scripts/gpu_s7l.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for r in 1 2; do
    timeout 150 python3 scripts/bench_tf32tma.py --sizes 4096,8192 > "$OUT/bench_tf32tma_$r.log" 2>&1
    echo "== run $r rc=$?"
    grep -E "^\|" "$OUT/bench_tf32tma_$r.log" | grep -E "cuBLAS|bm128_bn128_stages4_group_m8_passes3|bm256_bn128_stages4_group_m8_passes1"
done
