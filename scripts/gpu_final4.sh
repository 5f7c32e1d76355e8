#!/usr/bin/env bash
# Fourth session's last GPU checks, in two calls of under ten minutes each:
#   bash scripts/gpu_final4.sh tests   # the GPU tests of everything merged this session, NSHARD
#                                      # pytest processes side by side (scripts/gpu_shards.sh),
#                                      # one combined log ($OUT/tests.log)
#   bash scripts/gpu_final4.sh bench   # the benchmarks the issues' targets name, short tables
# Logs under $OUT.
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=${NSHARD:-8}
if [ "${1:-tests}" = tests ]; then
    FILES=$(ls tests/test_gpu_wgmma_tma_tf32*.py tests/test_gpu_layouts.py tests/test_gpu_dmma.py tests/test_gpu_gemm.py \
            tests/test_gpu_replay.py tests/test_gpu_core.py tests/test_gpu_precision.py 2>/dev/null)
    NSHARD=$NSHARD SHARD_TIMEOUT=${LIMIT:-480} scripts/gpu_shards.sh tests $FILES -rs
    grep -E "^auto long K" "$OUT/tests.log" | sort -u
else
    timeout 100 python3 benchmarks/dmma.py --sizes 2048,4096,8192,3001x2999x3007 --configs default --out "$OUT" > "$OUT/dmma.log" 2>&1
    timeout 150 python3 benchmarks/transposes.py --repeat 10 --strategies auto > "$OUT/transposes.log" 2>&1
    timeout 120 python3 benchmarks/batched_and_epilogues.py > "$OUT/batched.log" 2>&1
    timeout 150 python3 scripts/bench_tf32tma.py --out "$OUT/bench_tf32tma.json" > "$OUT/tf32.log" 2>&1
    timeout 60 python3 scripts/probe_host.py > "$OUT/probe_host.log" 2>&1
    echo "== dmma"; grep -E "cuBLAS|auto" "$OUT/dmma.log" | cut -c1-150 | head -12
    echo "== tf32"; grep -E "^\|" "$OUT/tf32.log" | grep -v -E "bm64|bm128_bn256|stages6|wgmma \{" | head -20
    echo "== probe"; tail -7 "$OUT/probe_host.log"
    echo "== batched"; grep -E "^\|" "$OUT/batched.log" | head -16
    echo "== transposes"; grep -E "^\|" "$OUT/transposes.log" | head -10
fi
