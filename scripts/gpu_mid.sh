#!/usr/bin/env bash
# Fourth session, mid-way: the GPU tests of what the merged branches touched (dmma layouts and
# plain loop, wgmma layouts, wgmma_tma_tf32, kept plans of the general path), in NSHARD pytest
# processes (scripts/gpu_shards.sh -> $OUT/tests.log), then the benchmarks their targets name. Logs
# under $OUT; a short summary last.
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NSHARD=${NSHARD:-6}
FILES="tests/test_gpu_layouts.py tests/test_gpu_dmma.py tests/test_gpu_wgmma_tma_tf32.py tests/test_gpu_replay.py tests/test_gpu_gemm.py"
SHARDS=$(NSHARD=$NSHARD SHARD_TIMEOUT=${LIMIT:-300} scripts/gpu_shards.sh tests $FILES -rs)
timeout 150 python3 benchmarks/transposes.py --repeat 10 --strategies auto > "$OUT/transposes.log" 2>&1
timeout 120 python3 benchmarks/batched_and_epilogues.py > "$OUT/batched.log" 2>&1
timeout 150 python3 scripts/bench_tf32tma.py --out "$OUT/bench_tf32tma.json" > "$OUT/tf32.log" 2>&1
timeout 60 python3 scripts/probe_host.py > "$OUT/probe_host.log" 2>&1
timeout 100 python3 benchmarks/dmma.py --sizes 2048,4096,8192 --configs default --out "$OUT" > "$OUT/dmma.log" 2>&1
echo "== tests"; echo "$SHARDS"
echo "== dmma"; grep -E "cuBLAS|auto|dmma bm" "$OUT/dmma.log" | cut -c1-150 | head -12
echo "== tf32"; grep -E "^\|" "$OUT/tf32.log" | head -30
echo "== probe"; tail -7 "$OUT/probe_host.log"
echo "== batched"; grep -E "^\|" "$OUT/batched.log" | head -16
echo "== transposes"; grep -E "^\|" "$OUT/transposes.log" | head -12
