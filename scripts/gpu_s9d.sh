#!/usr/bin/env bash
# Ninth session: wgmma_tma_tf32 after tf32's one-add rounding, the two-maxima Inf/NaN check and
# every B box copied. `tests`: the rung's GPU tests (plain, layouts), the precision and fast-kernel
# files, compute-sanitizer (memcheck, racecheck, synccheck) on plain and B column-major operands
# with a NaN. `bench`: issue 13's benchmark twice (scripts/bench_tf32tma.py). `suite`: the shape
# suite's float32 rows (auto runs tf32x3 on the large ones). `half`: float16 / bfloat16 at their
# default configs (scripts/probe_tma.py) and the host overhead at 64^3 (probe_host_tma.py).
# `host`: the TMA rungs' GPU tests (plain, half, tf32 layouts) after the packed launch arguments,
# then the host overhead twice.
#   bash scripts/gpu_s9d.sh tests|bench|suite|half|host
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
case "${1:-tests}" in
tests)
    NSHARD=8 SHARD_TIMEOUT=300 bash scripts/gpu_shards.sh tf32tma tests/test_gpu_wgmma_tma_tf32.py tests/test_gpu_wgmma_tma_tf32_layouts.py \
        tests/test_gpu_precision.py tests/test_gpu_fast.py
    echo "== tests $(( $(date +%s) - T0 )) s"
    SAN_TIMEOUT=120 bash scripts/gpu_sanitize.sh memcheck,racecheck,synccheck scripts/sanitize_tma_tf32.py --col none \
        --modes tf32,tf32x3 --nan
    SAN_TIMEOUT=120 bash scripts/gpu_sanitize.sh racecheck,synccheck scripts/sanitize_tma_tf32.py --col b --modes tf32 --nan
    echo "== sanitizer $(( $(date +%s) - T0 )) s"
    ;;
bench)
    for r in 1 2; do
        timeout 200 python3 scripts/bench_tf32tma.py > "$OUT/bench_tf32tma_$r.log" 2>&1
        echo "== run $r rc=$? $(( $(date +%s) - T0 )) s"
        grep -E "^\|" "$OUT/bench_tf32tma_$r.log" | grep -E "cuBLAS|bm128_bn128_stages4_group_m8_passes3|bm256_bn128_stages4_group_m8_passes1"
    done
    ;;
half)
    timeout 200 python3 scripts/probe_tma.py --configs default > "$OUT/probe_tma.log" 2>&1
    echo "== probe_tma rc=$? $(( $(date +%s) - T0 )) s"; tail -n 14 "$OUT/probe_tma.log"
    timeout 150 python3 scripts/probe_host_tma.py > "$OUT/host.log" 2>&1
    echo "== host rc=$? $(( $(date +%s) - T0 )) s"; grep -E "^\|" "$OUT/host.log"
    ;;
host)
    NSHARD=8 SHARD_TIMEOUT=300 bash scripts/gpu_shards.sh tma tests/test_gpu_wgmma_tma.py tests/test_gpu_wgmma_tma_tf32.py \
        tests/test_gpu_half.py tests/test_gpu_wgmma_tma_tf32_layouts.py tests/test_gpu_core.py
    echo "== tests $(( $(date +%s) - T0 )) s"
    for r in 1 2; do
        timeout 150 python3 scripts/probe_host_tma.py > "$OUT/host_$r.log" 2>&1
        echo "== host $r rc=$? $(( $(date +%s) - T0 )) s"; cat "$OUT/host_$r.log"
    done
    ;;
suite)
    timeout 400 python3 benchmarks/shape_suite.py --dtypes float32 --out "$OUT/suite" > "$OUT/suite.txt" 2>&1
    echo "suite rc $? $(( $(date +%s) - T0 )) s"; grep -E "Geometric" "$OUT/suite/shape_suite.md"
    ;;
esac
