#!/usr/bin/env bash
# Thirteenth session (H100): ncu of dmma and dmma_tail on the same 128 x 128 tile at 4096^3 (no
# tail: the same launch) and 3001^3 (a tail): time, DMMA pipe, stalls, registers.
#   bash scripts/gpu_s13f.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
M=gpu__time_duration.sum,launch__grid_size,launch__registers_per_thread,sm__cycles_active.avg,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_tensor_op_dmma.sum,smsp__inst_executed.sum,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct,smsp__warp_issue_stalled_math_pipe_throttle_per_warp_active.pct,smsp__warp_issue_stalled_wait_per_warp_active.pct,smsp__warp_issue_stalled_dispatch_stall_per_warp_active.pct,sm__pipe_tensor_op_dmma_cycles_active.avg.pct_of_peak_sustained_active
for s in 4096x4096x4096 3001x2999x3007; do
    timeout 200 ncu --kernel-name regex:'dmma' --launch-skip 0 --launch-count 6 --metrics $M \
        python3 scripts/variants_s13/ncu_tail.py $s > "$OUT/ncu_$s.txt" 2>&1
    echo "== $s rc $?"
    grep -E "tm_dmma|tail_|gpu__time|registers|pipe|inst_exec|stalled|grid_size" "$OUT/ncu_$s.txt" | sed 's/  */ /g' | head -60
done
