#!/usr/bin/env bash
# Ninth session: is float64's gap at 4096³-8192³ energy too? auto (dmma) and cuBLAS DGEMM back to
# back in alternating blocks with nvidia-smi's clock and power beside them, then ncu at its fixed
# clock: time, instructions, tensor and shared-memory pipes.
#   bash scripts/gpu_s9g.sh
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=.
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T0=$(date +%s)
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,clocks_event_reasons.active --format=csv,noheader -lms 100 \
    > "$OUT/smi.csv" 2>/dev/null &
SMI=$!
for n in 4096 8192; do
    timeout 150 python3 scripts/probe_clock.py --mode float64 --size $n --blocks 6 --calls $(( n == 4096 ? 300 : 40 )) 2>&1 \
        | sed "s/^/f64 $n r1 /" | tee -a "$OUT/clock.log"
done
kill $SMI
echo "== clocks $(( $(date +%s) - T0 )) s"
python3 scripts/probe_clock.py --summary "$OUT/clock.log"
python3 scripts/probe_clock.py --clocks "$OUT/smi.csv" "$OUT/clock.log"
M=gpu__time_duration.sum,smsp__inst_executed.sum,sm__cycles_elapsed.avg,sm__inst_executed_pipe_tensor_op_dmma.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,sm__pipe_shared_cycles_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active
for impl in ours cublas; do
    timeout 150 ncu --kernel-name regex:'dmma|gemm|Kernel' --launch-skip 2 --launch-count 1 --metrics $M --section WarpStateStats \
        python3 scripts/probe_clock.py --impl $impl --mode float64 --size 4096 --blocks 1 --calls 3 > "$OUT/ncu64_$impl.txt" 2>&1
    echo "--- $impl rc=$?"; grep -E "^\s+(gpu__|smsp__|sm__|l1tex__)|Stall (Long|Short|Wait|Barrier|MIO|Math|Not|Dispatch)|==PROF== Profiling" "$OUT/ncu64_$impl.txt" | cut -c1-140
done
echo "== ncu $(( $(date +%s) - T0 )) s"
