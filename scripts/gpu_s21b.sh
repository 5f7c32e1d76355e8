#!/bin/bash
# twenty-first session: ncu of dmma_t (16-byte fragment reads) against cuBLAS DGEMM at 4096^3.
#   bash scripts/gpu_s21b.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 400 ncu --section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
    --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats \
    --metrics sm__cycles_elapsed.avg.per_second,sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,smsp__average_warp_latency_issue_stalled_barrier,smsp__pcsamp_warps_issue_stalled_barrier,smsp__pcsamp_warps_issue_stalled_short_scoreboard,smsp__pcsamp_warps_issue_stalled_long_scoreboard,smsp__pcsamp_warps_issue_stalled_wait,smsp__pcsamp_warps_issue_stalled_math_pipe_throttle,smsp__pcsamp_warps_issue_stalled_mio_throttle,smsp__pcsamp_warps_issue_stalled_dispatch_stall,smsp__pcsamp_warps_issue_stalled_selected,smsp__pcsamp_warps_issue_stalled_not_selected,smsp__pcsamp_warps_issue_stalled_lg_throttle,smsp__pcsamp_warps_issue_stalled_tex_throttle \
    --launch-skip 3 --launch-count 3 python3 scripts/variants_s21/ncu_dmma_t.py > "$OUT/ncu_dmma_t.txt" 2>&1
echo "ncu rc $?"
grep -E "^  [a-zA-Z_].*\(|Duration|SM Frequency|DRAM Through|L2 Cache Through|L1/TEX Cache Through|Compute \(SM\)|Issue Slots Busy|Executed Ipc A|Registers Per|Achieved Occupancy|sm__|smsp__|lts__|l1tex__|Stall|Warp Cycles Per Issued|No Eligible|Eligible Warps|Issued Warp" "$OUT/ncu_dmma_t.txt" | cut -c1-140 | head -150
