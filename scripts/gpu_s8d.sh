#!/usr/bin/env bash
# Eighth session: the reduce kernel of a split product starts early (programmatic dependent
# launch: launch.launch_dependent, griddepcontrol in _reduce.cuh.j2). Split products' time by
# part, the suite's split-heavy classes, then the GPU tests of every split rung, the lanes, graph
# replay, batches/epilogues and robustness.
#   bash scripts/gpu_s8d.sh     -> $OUT/probe_split.txt, $OUT/probe_small.txt, $OUT/suite/, $OUT/split.log
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
timeout 200 python3 scripts/probe_gemv_split.py > "$OUT/probe_split.txt" 2>&1; echo "probe rc $?"
timeout 100 python3 scripts/probe_small.py > "$OUT/probe_small.txt" 2>&1; echo "probe_small rc $?"
timeout 200 python3 benchmarks/shape_suite.py --classes "long K;small;gemv" --out "$OUT/suite" > "$OUT/suite.txt" 2>&1; echo "suite rc $?"
echo "== probes $(( $(date +%s) - T0 )) s"
NSHARD=8 SHARD_TIMEOUT=200 scripts/gpu_shards.sh split tests/test_gpu_split_reduce.py tests/test_gpu_gemv.py \
    tests/test_gpu_wgmma_split_k.py tests/test_gpu_dmma_split_k.py tests/test_gpu_fast.py tests/test_gpu_replay.py \
    tests/test_robustness_gpu.py tests/test_gpu_gemm.py
echo "== $(( $(date +%s) - T0 )) s"
grep -E "auto|cuBLAS|slices \+ reduce" "$OUT/probe_split.txt"
cat "$OUT/probe_small.txt"
grep -A40 "### float32" "$OUT/suite/shape_suite.md" | grep -E "long K|small|gemv|Geometric"
grep -A40 "### float64" "$OUT/suite/shape_suite.md" | grep -E "long K|small|gemv|Geometric"
