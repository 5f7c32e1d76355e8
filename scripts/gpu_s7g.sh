#!/usr/bin/env bash
# Seventh session, the closing run: issue 13's numbers on the final code
#   1. scripts/bench_tf32tma.py: tf32x3 and tf32, every config, against cuBLAS FP32 / TF32
#                                                                   -> $OUT/bench_tf32tma.log
#   2. scripts/probe_tma.py --configs default: float16 and bfloat16  -> $OUT/probe_tma.log
#   3. scripts/probe_host_tma.py: host overhead at 64^3              -> $OUT/host.log
#   4. the GPU tests of the wgmma_tma launch-plan path               -> $OUT/tests.log
#   5. benchmarks/shape_suite.py --dtypes float32                    -> $OUT/suite.log
#   bash scripts/gpu_s7g.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
timeout 200 python3 scripts/bench_tf32tma.py --sizes 4096,8192,3001x2999x3007 --out "$OUT/bench_tf32tma.json" \
    > "$OUT/bench_tf32tma.log" 2>&1
echo "== bench_tf32tma rc=$? $(( $(date +%s) - T0 )) s"
grep -E "^\|" "$OUT/bench_tf32tma.log" | grep -E "cuBLAS|bm128_bn128_stages4_group_m8_passes3|bm256_bn128_stages4_group_m8_passes1"
timeout 150 python3 scripts/probe_tma.py --configs default > "$OUT/probe_tma.log" 2>&1
echo "== probe_tma rc=$? $(( $(date +%s) - T0 )) s"
tail -n 14 "$OUT/probe_tma.log"
timeout 120 python3 scripts/probe_host_tma.py > "$OUT/host.log" 2>&1
echo "== host rc=$? $(( $(date +%s) - T0 )) s"
grep -E "^  (float|bfloat)" "$OUT/host.log"
NSHARD=6 SHARD_TIMEOUT=200 scripts/gpu_shards.sh tests tests/test_gpu_wgmma_tma.py tests/test_gpu_half.py
echo "== tests $(( $(date +%s) - T0 )) s"
timeout 220 python3 benchmarks/shape_suite.py --dtypes float32 --out "$OUT" > "$OUT/suite.log" 2>&1
echo "== suite rc=$? $(( $(date +%s) - T0 )) s"
grep -E "Geometric|geometric|minimum|^\| (1024|2048|4096|8192)x" "$OUT/suite.log" | cut -c1-160 | head -12
