#!/bin/bash
# twenty-second session, thirteenth device call: ncu of dmma's 128 x 128 pairs tile against cuBLAS
# DGEMM at 8192^3, where it stays at 0.96-0.98x (4096^3: 1.00), for the next session.
#   bash scripts/gpu_s22m.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
timeout 400 ncu --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats \
    --metrics sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,dram__bytes_read.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum \
    --launch-skip 5 --launch-count 3 python3 scripts/variants_s22/ncu_pairs.py 8192 > "$OUT/ncu_pairs_8192.txt" 2>&1
echo "ncu rc $?"
grep -E "^  [a-zA-Z_].*\(|Duration|SM Frequency|DRAM Through|L2 Cache Through|Compute \(SM\)|Issue Slots Busy|sm__inst|lts__|dram__bytes|l1tex__data|Warp Cycles Per Issued|No Eligible|Eligible Warps|L2 Hit" "$OUT/ncu_pairs_8192.txt" | cut -c1-140 | head -80
