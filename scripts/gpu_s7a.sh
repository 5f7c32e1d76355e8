#!/usr/bin/env bash
# Seventh session, tf32x3 variants of wgmma_tma_tf32 (template switches TM_PART_STEPS: steps per
# partial tile before the FADDs; TM_A_TRUNC: A's big part as its own bits, the small parts
# alone written), each in its own process beside cuBLAS, then ncu of the baseline and a variant.
#   bash scripts/gpu_s7a.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv > "$OUT/smi.txt" 2>&1
for v in "1 0" "2 0" "1 1" "2 1" "1 0"; do
    set -- $v
    TM_PART_STEPS=$1 TM_A_TRUNC=$2 timeout 150 python3 scripts/probe_tf32x3.py --sizes 4096,8192 \
        --label "ps$1 trunc$2" --modes tf32x3 2>&1 | tee -a "$OUT/probe.log" | grep "^|"
done
TM_PART_STEPS=1 TM_A_TRUNC=0 timeout 100 python3 scripts/probe_tf32x3.py --sizes 4096,8192 --label base --modes tf32 2>&1 \
    | tee -a "$OUT/probe.log" | grep "^|"
echo "== probes $(( $(date +%s) - T0 )) s"
for v in "1 0" "2 1"; do
    set -- $v
    TM_PART_STEPS=$1 TM_A_TRUNC=$2 timeout 120 ncu --kernel-name regex:wgmma_tma_tf32 --launch-skip 2 --launch-count 1 \
        --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section WarpStateStats \
        --section ComputeWorkloadAnalysis --section InstructionStats --print-details all \
        python3 scripts/probe_tf32x3.py --sizes 4096 --modes tf32x3 --repeat 5 > "$OUT/ncu_ps$1_t$2.txt" 2>&1
    echo "== ncu $v rc=$? $(( $(date +%s) - T0 )) s"
done
TM_PART_STEPS=1 timeout 100 ncu --kernel-name regex:wgmma_tma_tf32 --launch-skip 2 --launch-count 1 \
    --metrics sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed,smsp__cycles_active.avg.per_second \
    python3 scripts/probe_tf32x3.py --sizes 4096 --modes tf32x3 --repeat 5 > "$OUT/ncu_metrics.txt" 2>&1
echo "== ncu metrics rc=$? $(( $(date +%s) - T0 )) s"
grep -h -E "gmma|Shared|Throughput|Duration|SM Frequency|Issue Slots|Stall|lsu_wavefronts" "$OUT"/ncu_*.txt | cut -c1-150 | head -60
