#!/usr/bin/env bash
# Ninth session, issue 13's tf32 at 8192³: where the last 5% against cuBLAS TF32 goes.
# 1. Clock and power while each runs back to back (nvidia-smi every 100 ms beside probe_clock.py).
# 2. ncu at its fixed clock: our kernel and cuBLAS's, cycles, tensor pipe, shared-memory and L2 use.
#   bash scripts/gpu_s9a.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,clocks_event_reasons.active --format=csv,noheader -lms 100 \
    > "$OUT/smi.csv" 2> "$OUT/smi.err" &
SMI=$!
python3 -c "import time; print('t', time.time())"
timeout 120 python3 scripts/probe_clock.py --impl ours,cublas --mode tf32 --size 8192 --blocks 8 --calls 250 2>&1 | tee "$OUT/clock_tf32.log"
timeout 120 python3 scripts/probe_clock.py --impl ours,cublas --mode tf32x3 --size 8192 --blocks 4 --calls 100 2>&1 | tee "$OUT/clock_tf32x3.log"
kill $SMI
echo "== clocks $(( $(date +%s) - T0 )) s"
M=gpu__time_duration.sum,sm__cycles_elapsed.avg,smsp__cycles_active.avg,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed,l1tex__data_bank_reads.avg.pct_of_peak_sustained_elapsed,l1tex__data_bank_writes.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active
for impl in ours cublas; do
    timeout 150 ncu --kernel-name regex:'wgmma|gemm|xmma|cutlass|sm90' --launch-skip 2 --launch-count 1 --metrics $M \
        --section SpeedOfLight --section MemoryWorkloadAnalysis_Tables --section WarpStateStats --print-details all \
        python3 scripts/probe_clock.py --impl $impl --mode tf32 --size 8192 --blocks 1 --calls 3 > "$OUT/ncu_$impl.txt" 2>&1
    echo "== ncu $impl rc=$? $(( $(date +%s) - T0 )) s"
done
for impl in ours cublas; do
    echo "--- $impl"
    grep -E "^  [a-z_]+\.|Function Name|\(\w+\)|Duration|SM Frequency|Stall|Shared" "$OUT/ncu_$impl.txt" | grep -v "^==" | cut -c1-140 | head -50
done
echo "--- clock and power per block"
python3 scripts/probe_clock.py --clocks "$OUT/smi.csv" "$OUT/clock_tf32.log"
python3 scripts/probe_clock.py --clocks "$OUT/smi.csv" "$OUT/clock_tf32x3.log"
