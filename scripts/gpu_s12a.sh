#!/usr/bin/env bash
# Twelfth session, first look (H100): the read-bandwidth ceiling of the memory-bound rows
# (probe_read_bw.py), which kernels cuBLAS runs for the weak float64 shapes, and ncu of auto's
# kernel beside cuBLAS's at float64 768^3 and 1024^3.
#   bash scripts/gpu_s12a.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 200 python3 scripts/probe_read_bw.py > "$OUT/read_bw.txt" 2>&1; echo "== read_bw rc $?"
timeout 120 python3 scripts/probe_cublas_kernels.py 768x768x768:float64 1024x1024x1024:float64 640x640x640:float64 \
    5000x3000x1000:float64 2048x2048x2048:float64 8192x8x8192:float32 8x8192x8192:float32 > "$OUT/cublas_kernels.txt" 2>&1
echo "== cublas rc $?"
M=gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,launch__shared_mem_per_block_dynamic,sm__warps_active.avg.pct_of_peak_sustained_active,sm__pipe_shared_cycles_active.avg.pct_of_peak_sustained_active,sm__cycles_active.avg,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct,smsp__warp_issue_stalled_math_pipe_throttle_per_warp_active.pct
for s in 768x768x768 1024x1024x1024; do
    timeout 150 ncu --launch-skip 2 --launch-count 8 --metrics $M python3 scripts/probe_ncu_pair.py $s --calls 3 > "$OUT/ncu_$s.txt" 2>&1
    echo "== ncu $s rc $?"
done
cat "$OUT/cublas_kernels.txt" | cut -c1-400
for s in 768x768x768 1024x1024x1024; do grep -E "^  [a-zA-Z_]|^\s+(gpu__|launch__|sm__|smsp__)" "$OUT/ncu_$s.txt" | grep -v "^\s*$" | tail -60 | cut -c1-160; done
cat "$OUT/read_bw.txt"
