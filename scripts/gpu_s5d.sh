#!/usr/bin/env bash
# Fifth session, fourth GPU run: wgmma_tma_tf32's A column-major kernel with separate buffers of the
# transposed big parts (stages <= 4: xpose_bufs) beside the in-place one (stages 5): the rung's
# layout tests (both kernels), racecheck/synccheck over the buffered one, and a.T @ b against a @ b
# per stages value (scripts/bench_acol.py). Logs under $OUT.
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
echo "GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>&1 | head -1)"
scripts/gpu_shards.sh acol_tests tests/test_gpu_wgmma_tma_tf32_layouts.py
scripts/gpu_sanitize.sh racecheck,synccheck scripts/sanitize_tma_tf32.py --col a --params stages=4 --seed 7
timeout 200 python3 scripts/bench_acol.py > "$OUT/bench_acol.log" 2>&1
echo "bench rc=$?"; cat "$OUT/bench_acol.log" | tail -12
