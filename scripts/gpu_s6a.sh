#!/usr/bin/env bash
# Sixth session, split-K reduce launched like the main kernel (compile.ReduceLauncher, no
# cupy.RawKernel call, no cupy view of C): on one Hopper GPU,
#   1. every GPU test file whose products launch a reduce kernel (split_k, wgmma_split_k,
#      dmma_split_k, gemv_xb/gemv_ax, with and without epilogues and batches) -> $OUT/tests.log
#   2. scripts/probe_small.py, float64 and float32: host us per call, event time, GPU time
#                                                                       -> $OUT/probe.log
#   bash scripts/gpu_s6a.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
NSHARD=${NSHARD:-8} SHARD_TIMEOUT=260 scripts/gpu_shards.sh tests \
    tests/test_gpu_dmma_split_k.py tests/test_gpu_wgmma_split_k.py tests/test_gpu_gemv.py tests/test_gpu_gemm.py \
    tests/test_gpu_fast.py tests/test_gpu_replay.py tests/test_gpu_core.py -k "split or gemv or replay or fast or gemm"
echo "== tests $(( $(date +%s) - T0 )) s"
{ python3 scripts/probe_small.py --dtype float64; python3 scripts/probe_small.py --dtype float32; } > "$OUT/probe.log" 2>&1
cat "$OUT/probe.log"
echo "== total $(( $(date +%s) - T0 )) s"
